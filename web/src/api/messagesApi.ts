import type { ApiSendAnswer } from "@atende/contracts";
import i18n from "../i18n";
import { ApiError } from "./http";

/** The public send call's path (the page documents it with the server's own base URL). */
export const API_SEND_PATH = "/api/messages/send";

/**
 * POST /api/messages/send with a connection's token, as an outside system calls it: not through the
 * session's client, so a refused token is an answer shown on the page, never the end of the session.
 */
export async function sendWithToken(
  token: string,
  input: { number: string; body: string; file?: File | null },
): Promise<ApiSendAnswer> {
  let body: BodyInit;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${token}`,
    Accept: "application/json",
    "Accept-Language": i18n.language,
  };
  if (input.file) {
    const form = new FormData();
    form.append("number", input.number);
    form.append("body", input.body);
    form.append("medias", input.file, input.file.name);
    body = form;
  } else {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify({ number: input.number, body: input.body });
  }
  const response = await fetch(API_SEND_PATH, { method: "POST", headers, body, credentials: "omit" });
  const text = await response.text();
  let payload: unknown = text;
  try {
    payload = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    // not JSON: shown as it is
  }
  if (!response.ok) throw new ApiError(response.status, payload);
  return payload as ApiSendAnswer;
}
