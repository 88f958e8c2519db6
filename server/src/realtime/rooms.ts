import type { Server } from "socket.io";
import {
  type Actor,
  type ClientToServerEvents,
  type InterServerEvents,
  type ServerToClientEvents,
  can,
} from "@atende/contracts";
import type { AuthContext } from "../http/auth.js";

/** Room names: every emit goes to one of these, so nothing of one company reaches another. */
export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  user: (userId: number) => `user:${userId}`,
  session: (sessionId: string) => `session:${sessionId}`,
  notification: (companyId: number) => `company:${companyId}:notification`,
  tickets: (companyId: number, status: string) => `company:${companyId}:tickets:${status}`,
  chatBox: (companyId: number, ticketId: number) => `company:${companyId}:ticket:${ticketId}`,
  /** Ticket visibility: the viewers of one queue, of tickets without a queue, and the admins. */
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  noQueue: (companyId: number) => `company:${companyId}:noqueue`,
  admins: (companyId: number) => `company:${companyId}:admins`,
  /** A past-due company's admins, on the payment pages: they hear only the payment event. */
  pastDue: (companyId: number) => `company:${companyId}:pastdue`,
  /** Whoever has a page showing users' online status (seesPresence): they hear users go on and off line. */
  presenceViewers: (companyId: number) => `company:${companyId}:presence-viewers`,
};

/**
 * Who is shown users' online status: the users page (users-page:manage) and the dashboard's
 * attendants table (dashboard:view). Nothing else in the web app shows another user's presence.
 */
export function seesPresence(actor: Actor): boolean {
  return can(actor, "users-page:manage") || can(actor, "dashboard:view");
}

/**
 * Where a user going on or off line is told: whoever sees presence, and the user's own sockets (a
 * client of this API family keeps its own user current from these events). Not the whole company:
 * 1,000 agents connecting would be about 500,000 deliveries to agents who show none of it.
 */
export function presenceRooms(companyId: number, userId: number): string[] {
  return [rooms.presenceViewers(companyId), rooms.user(userId)];
}

/**
 * Every room a ticket's events go to: whoever may see it now, and whoever saw it before this change.
 * Not its chat box: whoever has the chat open hears these through the rooms that let them see it,
 * and someone who no longer may see the ticket must not go on hearing it through the chat box.
 */
export function ticketRooms(
  companyId: number,
  ticket: { id: number; queueId: number | null; userId: number | null },
  previous?: { queueId: number | null; userId: number | null },
): string[] {
  const list = [rooms.admins(companyId)];
  for (const seen of [ticket, previous]) {
    if (!seen) continue;
    list.push(seen.queueId === null ? rooms.noQueue(companyId) : rooms.queue(companyId, seen.queueId));
    if (seen.userId !== null) list.push(rooms.user(seen.userId));
  }
  return [...new Set(list)];
}

/** Who hears of a quick message: the whole company for a global one, else its author and the admins. */
export function quickMessageRooms(
  companyId: number,
  audience: { geral: boolean; userId: number | null },
): string[] {
  if (audience.geral) return [rooms.company(companyId)];
  const list = [rooms.admins(companyId)];
  if (audience.userId !== null) list.push(rooms.user(audience.userId));
  return list;
}

export interface SocketData {
  auth: AuthContext;
  /** A past-due company's admin: in the pastDue room only, joins refused until the company pays. */
  limited?: boolean;
}
/** Typed by the contracts' event maps: an event name or payload the web does not know fails to compile. */
export type AppServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Where an emit goes: Socket.IO's broadcast to rooms, or no one at all. */
export interface Audience {
  emit: ReturnType<AppServer["to"]>["emit"];
  except(room: string | string[]): Audience;
  /** True when no socket can hear it: a payload that costs work to make need not be made. */
  none?: boolean;
}

const NO_ONE: Audience = { emit: () => true, except: () => NO_ONE, none: true };

/**
 * `io.to(targets)`, or no one when none of the rooms holds a socket and no other instance can hold
 * one (`roomsAreLocal`: no Redis adapter). Socket.IO encodes a packet before it looks up who is in
 * the rooms, so an emit to empty rooms still paid for its payload's encoding: a contact-list import's
 * 2,000 items a batch with no admin watching (270 ms of encoding in a 100,000-row import's profile),
 * a message event for a ticket nobody has open. An empty list of rooms reaches no one here, where
 * io.to([]) would reach everyone.
 */
export function audienceOf(io: AppServer, roomsAreLocal: boolean): (targets: string | string[]) => Audience {
  if (!roomsAreLocal) return (targets) => io.to(targets);
  // The in-memory adapter's map of rooms: a room leaves it with its last socket.
  const held = io.of("/").adapter.rooms;
  return (targets) => {
    if (typeof targets === "string") return held.has(targets) ? io.to(targets) : NO_ONE;
    for (const room of targets) if (held.has(room)) return io.to(targets);
    return NO_ONE;
  };
}
