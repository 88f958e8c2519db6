import type { Follower } from "../../events/bus.js";
import { enqueueChannelAction } from "./actions.js";
import { queueOutbound } from "./outbound.js";

/**
 * In the transaction of a ticket command: what it means for the customer's WhatsApp. A command's
 * automatic message (`ticket.saved`'s `automaticMessage`: the greeting, the rating question, the
 * completion message, the transfer notice) is queued for sending; the messages an agent has just
 * read (`ticket.read`) get their read receipts. The job runner is poked once the command commits.
 */
export function ticketMessagesWithin(poke: () => void): Follower {
  return async (tx, events, raise) => {
    let queued = false;
    for (const event of events) {
      if (event.type === "ticket.saved" && event.automaticMessage) {
        const { body, userId } = event.automaticMessage;
        await queueOutbound(tx, raise, {
          companyId: event.companyId,
          ticketId: event.ticket.id,
          body,
          ...(userId !== undefined ? { userId } : {}),
          isBot: true,
        });
        queued = true;
      } else if (event.type === "ticket.read") {
        const { ticket, wids } = event;
        if (wids.length > 0 && ticket.whatsappId !== null) {
          await enqueueChannelAction(tx, {
            companyId: event.companyId,
            ticketId: ticket.id,
            whatsappId: ticket.whatsappId,
            action: "markRead",
            wids,
          });
          queued = true;
        }
      }
    }
    return queued ? poke : undefined;
  };
}
