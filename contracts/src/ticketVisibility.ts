import type { Profile } from "./constants.js";
import { can } from "./permissions.js";

/** Who is looking: what decides which tickets they may see. */
export interface TicketViewer {
  userId: number;
  profile: Profile;
  /** The viewer's queues. */
  queueIds: readonly number[];
  /** allTicket "enabled": also sees tickets without a queue. */
  allTicket: boolean;
}

/**
 * The one visibility rule, on the server (access checks, socket rooms) and in the browser (keeping
 * live lists the same as a reload): holders of tickets:accessAny (admins) any ticket; others their
 * own, their queues' tickets, and unqueued ones with allTicket.
 */
export function canSeeTicket(
  viewer: TicketViewer,
  ticket: { queueId: number | null; userId: number | null },
): boolean {
  if (can(viewer, "tickets:accessAny") || ticket.userId === viewer.userId) return true;
  if (ticket.queueId === null) return viewer.allTicket;
  return viewer.queueIds.includes(ticket.queueId);
}
