import type { Executor } from "../../db/client.js";
import type { DomainEvent, Follower, QuietOnInbound } from "../../events/bus.js";
import { customerWrote, resolved, showClocks, startClocks } from "./clocks.js";

type TicketSaved = Extract<DomainEvent, { type: "ticket.saved" }>;

/**
 * What a ticket's change does to its clocks, read from its `ticket.saved` (what every command, the
 * bot, the timers and the public API raise): a ticket closed stops them; one reopened, moved to
 * another queue (a transfer, the bot's choice, the auto-transfer; out of every queue clears them)
 * or just opened in a queue gets fresh ones. Just opened: the event has no `previous` and the
 * ticket was written once (created = updated), with a queue and no clocks yet; other events
 * without `previous` (a customer's message, a read, a tag) cost nothing here.
 */
async function followTicket(tx: Executor, event: TicketSaved, at: Date) {
  const { ticket, previous, companyId } = event;
  if (ticket.status === "closed") {
    if (ticket.sla && ticket.sla.resolvedAt === null)
      showClocks(ticket, await resolved(tx, companyId, ticket.id, at));
    return;
  }
  const entered = previous
    ? previous.status === "closed" || previous.queueId !== ticket.queueId
    : ticket.queueId !== null && ticket.sla === null && ticket.createdAt === ticket.updatedAt;
  if (entered)
    showClocks(ticket, await startClocks(tx, companyId, ticket.id, ticket.queueId, ticket.sla !== null, at));
}

/**
 * The service levels' follower (listeners.ts), first of all so the others and the sockets see the
 * ticket's clocks as written: a ticket's changes (followTicket) and a customer's message on a
 * ticket whose resolution clock stands waiting on them (it runs again). An agent's reply is timed
 * where it is queued (messages/outbound.ts), in its own statement's transaction.
 */
export function serviceLevelsWithin(now: () => Date): Follower {
  return async (tx, events) => {
    for (const event of events) {
      if (event.type === "ticket.saved") await followTicket(tx, event, now());
      else if (
        event.type === "message.saved" &&
        event.action === "create" &&
        !event.message.fromMe &&
        event.ticket.sla?.pausedAt
      )
        showClocks(event.ticket, await customerWrote(tx, event.companyId, event.ticket.id, now()));
    }
  };
}

/**
 * Quiet for a plain inbound batch: its tickets are live ones already (no clocks to start) and the
 * quiet statement leaves the messages of tickets whose clock stands (sla_paused_at) to the
 * transaction with the followers (inbound/batchQueries.ts).
 */
export const serviceLevelsQuietOnInbound: QuietOnInbound = () => true;
