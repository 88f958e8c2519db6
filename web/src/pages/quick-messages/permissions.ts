import { can, type QuickMessageDTO, type SessionUserDTO } from "@atende/contracts";

/** Mirrors the server's rule: admin and supervisor edit or delete any; a user only their own non-global ones. */
export function mayEditQuickMessage(
  user: Pick<SessionUserDTO, "id" | "profile">,
  quickMessage: QuickMessageDTO,
) {
  if (can(user, "quick-messages:editAny")) return true;
  return !quickMessage.geral && quickMessage.userId === user.id;
}
