import type { AuthContext } from "../../http/auth.js";

export interface TicketVisibility {
  queueId: number | null;
  userId: number | null;
}

export interface ViewerScope {
  /** The viewer's queues. */
  queueIds: number[];
  /** allTicket "enabled": also sees tickets without a queue. */
  allTicket: boolean;
}

/** Who may see a ticket: admins any; others the tickets of their queues, their own, and unqueued ones with allTicket. */
export function canSeeTicket(
  actor: Pick<AuthContext, "profile" | "userId">,
  scope: ViewerScope,
  ticket: TicketVisibility,
): boolean {
  if (actor.profile === "admin") return true;
  if (ticket.userId === actor.userId) return true;
  if (ticket.queueId === null) return scope.allTicket;
  return scope.queueIds.includes(ticket.queueId);
}
