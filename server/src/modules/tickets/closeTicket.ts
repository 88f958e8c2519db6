import type { Tx } from "../../db/client.js";
import type { Raise } from "../../events/bus.js";
import { type TicketRecord, loadTicket, setTicketClosed, track } from "./queries.js";

/**
 * Closes the ticket in the caller's transaction: the timeline's finish. No rating is awaited any more
 * (the chatbot's follower of the ticket.saved it raises).
 */
export async function closeTicket(tx: Tx, raise: Raise, ticket: TicketRecord, at: Date) {
  await setTicketClosed(tx, ticket.companyId, ticket.id, at);
  await track(tx, ticket, { finishedAt: at }, at);
  raise({
    type: "ticket.saved",
    companyId: ticket.companyId,
    ticket: (await loadTicket(tx, ticket.companyId, ticket.id))!,
    previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
  });
}
