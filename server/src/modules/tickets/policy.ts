import { canSeeTicket as sharedRule } from "@atende/contracts";
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

/** Who may see a ticket: the shared rule in contracts, fed with the caller's queues. */
export function canSeeTicket(
  actor: Pick<AuthContext, "profile" | "userId">,
  scope: ViewerScope,
  ticket: TicketVisibility,
): boolean {
  return sharedRule({ userId: actor.userId, profile: actor.profile, ...scope }, ticket);
}
