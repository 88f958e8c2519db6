import type { AuthContext } from "../../http/auth.js";
import { type TicketVisibility, type ViewerScope, canSeeTicket, ticketPolicy } from "../tickets/policy.js";

/** Whoever sees every queue's tickets (an admin) reads any file of their company. */
export const readsAnyFile = (actor: Pick<AuthContext, "profile">) => ticketPolicy.seesEveryQueue(actor);

/**
 * Who may read a file of their company by the tickets carrying it: a file of no ticket, the whole
 * company; else whoever may see one of those tickets. (Something else of the company carrying the
 * same file, as a quick message, opens it to the company too: the route asks that last.)
 */
export function ticketsAllowFile(
  actor: Pick<AuthContext, "profile" | "userId">,
  scope: ViewerScope,
  carrying: TicketVisibility[],
): boolean {
  return carrying.length === 0 || carrying.some((ticket) => canSeeTicket(actor, scope, ticket));
}
