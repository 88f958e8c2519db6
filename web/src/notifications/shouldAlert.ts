import type { CompanyEventPayloads } from "@atende/contracts";
import { canSee, type Viewer } from "../api/ticketLists";

type MessageEvent = CompanyEventPayloads["appMessage"];

/**
 * Whether a message calls for the sound and a notification: a new message from the customer (not
 * an agent's, not a reaction) on a ticket the viewer may see that is waiting or theirs (a ticket
 * another agent holds is that agent's to answer), and not the ticket they are reading right now in
 * a focused window. Group chats stay quiet, as in the product this follows: they are too chatty.
 */
export function shouldAlert(
  event: MessageEvent,
  viewer: Viewer,
  reading: { uuid: string | undefined; focused: boolean },
): boolean {
  const { message, ticket } = event;
  if (event.action !== "create" || message.fromMe || message.mediaType === "reactionMessage") return false;
  if (ticket.isGroup || !canSee(viewer, ticket)) return false;
  if (ticket.userId !== null && ticket.userId !== viewer.id) return false;
  return !(reading.focused && reading.uuid === ticket.uuid);
}
