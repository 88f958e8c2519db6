import { type CompanyEventPayloads, hearsCustomerMessage } from "@atende/contracts";
import { type Viewer, ticketViewerOf } from "../api/ticketLists";

type MessageEvent = CompanyEventPayloads["appMessage"];

/**
 * Whether a message calls for the sound and a notification: the rule the server's Web Push follows
 * too (contracts' hearsCustomerMessage: a customer's new message on a ticket the viewer may see that
 * is waiting or theirs, no groups), and not the ticket they are reading right now in a focused window.
 */
export function shouldAlert(
  event: MessageEvent,
  viewer: Viewer,
  reading: { uuid: string | undefined; focused: boolean },
): boolean {
  if (!hearsCustomerMessage(ticketViewerOf(viewer), event)) return false;
  return !(reading.focused && reading.uuid === event.ticket.uuid);
}
