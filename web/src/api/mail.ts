import type { MailAcceptedDTO, MailOutboxDTO, ResetPasswordInput } from "@atende/contracts";
import { api } from "./http";

export const mailKeys = {
  all: ["mail"] as const,
  outbox: () => [...mailKeys.all, "outbox"] as const,
};

/** Step 1 of the reset: the same answer whether the e-mail has an account or not. */
export function requestResetCode(email: string): Promise<MailAcceptedDTO> {
  return api.post<MailAcceptedDTO>(`/forgetpassword/${encodeURIComponent(email)}`, undefined, {
    anonymous: true,
  });
}

/** Step 2: the values in the body, never in the path (paths end up in logs). */
export function resetPassword(input: ResetPasswordInput): Promise<MailAcceptedDTO> {
  return api.post<MailAcceptedDTO>("/resetpasswords", input, { anonymous: true });
}

export function fetchOutbox(signal?: AbortSignal): Promise<MailOutboxDTO> {
  return api.get<MailOutboxDTO>("/mail/outbox", { signal });
}
