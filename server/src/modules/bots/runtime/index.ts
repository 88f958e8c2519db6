import type { Follower } from "../../../events/bus.js";
import * as q from "./queries.js";

export { createBotRunner, type BotRunner } from "./runner.js";
export { botMediaRoutes } from "./mediaLink.js";

/**
 * In the transaction that moves a waiting ticket to an agent (accepted, or given to one): the bot
 * serving it stops for good, so a reply it is still computing is never sent and the ticket does not
 * return to it if it goes back to the queue.
 */
export function botsWithin(now: () => Date): Follower {
  return async (tx, events) => {
    for (const event of events) {
      if (event.type !== "ticket.saved" || !event.previous) continue;
      const before = event.previous;
      const { ticket } = event;
      const leftTheBot =
        before.status === "pending" &&
        before.userId === null &&
        (ticket.status !== "pending" || ticket.userId !== null);
      if (leftTheBot) await q.stopActiveSession(tx, event.companyId, ticket.id, "agent", now());
    }
  };
}
