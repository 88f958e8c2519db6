import { canSeeTicket as sharedRule, can, queueRequired } from "@atende/contracts";
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

type Actor = Pick<AuthContext, "profile" | "userId">;

/** Who may see a ticket: the shared rule in contracts, fed with the caller's queues. */
export function canSeeTicket(actor: Actor, scope: ViewerScope, ticket: TicketVisibility): boolean {
  return sharedRule({ userId: actor.userId, profile: actor.profile, ...scope }, ticket);
}

/** The spec's "access to any ticket" (tickets:accessAny): beyond one's queues and on other agents' tickets. */
const actsOnAnyTicket = (actor: Pick<AuthContext, "profile">) => can(actor, "tickets:accessAny");

/** The ticket rules beyond seeing one (canSeeTicket), each named after what it allows. */
export const ticketPolicy = {
  /** The list and the kanban read every queue's tickets (and, asked to, every agent's). */
  seesEveryQueue: actsOnAnyTicket,

  /**
   * An earlier ticket of the same conversation is read whatever its queue: looking into a
   * conversation one does not serve is the spec's spying (ticket-options:spy, the eye icon).
   */
  readsWholeConversation: (actor: Actor) => can(actor, "ticket-options:spy"),

  /** Another agent's ticket in service is not taken by "accepting" it again, except by an admin. */
  mayTake(actor: Actor, ticket: { status: string; userId: number | null }): boolean {
    return ticket.status !== "open" || ticket.userId === actor.userId || actsOnAnyTicket(actor);
  },

  /** Who gets a ticket taken or started: an admin may name the agent, anyone else takes it themselves. */
  assignee(actor: Actor, chosen: number | null | undefined): number {
    return actsOnAnyTicket(actor) && chosen ? chosen : actor.userId;
  },

  /** A ticket started by hand needs a queue unless the caller is an admin (the rule in contracts). */
  queueRequired: (actor: Actor) => queueRequired(actor),

  /** A ticket is started in one of the caller's own queues, unless the caller is an admin. */
  mayStartIn(actor: Actor, ownQueueIds: number[], queueId: number): boolean {
    return actsOnAnyTicket(actor) || ownQueueIds.includes(queueId);
  },

  /** The ticket search's users filter (ticket-search:userFilter); for anyone else it is left out. */
  filtersByUser: (actor: Actor) => can(actor, "ticket-search:userFilter"),
};
