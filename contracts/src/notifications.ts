import { type TicketViewer, canSeeTicket } from "./ticketVisibility.js";

/**
 * Who hears about what: the one set of rules behind the in-app alerts (sound and browser
 * notification, web/src/notifications) and the Web Push notifications sent to closed tabs and
 * locked phones (server/src/modules/push). Both sides call these, so a phone never rings for
 * something the open app would keep quiet about, nor the other way round.
 */

type AlertTicket = { queueId: number | null; userId: number | null; isGroup: boolean };

/**
 * A message calls for an alert when it is new, from the customer (not an agent's, not a reaction),
 * on a ticket the viewer may see that is waiting or theirs: a ticket another agent holds is that
 * agent's to answer. Group chats stay quiet, as in the product this follows: they are too chatty.
 */
export function hearsCustomerMessage(
  viewer: TicketViewer,
  event: {
    action: "create" | "update";
    message: { fromMe: boolean; mediaType: string };
    ticket: AlertTicket;
  },
): boolean {
  const { message, ticket } = event;
  if (event.action !== "create" || message.fromMe || message.mediaType === "reactionMessage") return false;
  if (ticket.isGroup || !canSeeTicket(viewer, ticket)) return false;
  return ticket.userId === null || ticket.userId === viewer.userId;
}

/**
 * A waiting ticket that came into the viewer's sight without a message of its own: the chatbot put
 * it in one of their queues, or a colleague transferred it there (back to waiting). Whoever could
 * already see it where it was (an admin, the same queue) heard of it then and is not told again.
 */
export function hearsTicketArrival(
  viewer: TicketViewer,
  ticket: AlertTicket & { status: string },
  previous: { queueId: number | null; userId: number | null } | undefined,
): boolean {
  if (!previous || ticket.status !== "pending" || ticket.userId !== null || ticket.isGroup) return false;
  if (previous.queueId === ticket.queueId && previous.userId === ticket.userId) return false;
  return canSeeTicket(viewer, ticket) && !canSeeTicket(viewer, previous);
}

/**
 * The company's setting that keeps message text out of notifications ("disabled"): a phone's lock
 * screen then shows who wrote, never what.
 */
export const NOTIFICATION_PREVIEW_SETTING = "notificationPreview";

export function notificationPreviewOn(settings: { key: string; value: string }[] | Record<string, string>) {
  const value = Array.isArray(settings)
    ? settings.find((s) => s.key === NOTIFICATION_PREVIEW_SETTING)?.value
    : settings[NOTIFICATION_PREVIEW_SETTING];
  return value !== "disabled";
}
