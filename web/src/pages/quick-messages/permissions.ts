import {
  type QuickMessageDTO,
  type SessionUserDTO,
  mayEditQuickMessage as sharedRule,
} from "@atende/contracts";

/** The server's rule (contracts): admin and supervisor edit or delete any; a user only their own non-global ones. */
export function mayEditQuickMessage(
  user: Pick<SessionUserDTO, "id" | "profile">,
  quickMessage: QuickMessageDTO,
) {
  return sharedRule(user, user.id, quickMessage);
}
