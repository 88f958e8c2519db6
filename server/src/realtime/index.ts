import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { type Socket, Server } from "socket.io";
import { createClient } from "redis";
import type { FastifyBaseLogger } from "fastify";
import {
  type AnnouncementEventPayload,
  type ClientToServerEvents,
  type InterServerEvents,
  type JoinAck,
  LIMITS,
  type ServerToClientEvents,
  TICKET_STATUSES,
  companyEvent,
} from "@atende/contracts";
import { canSeeTicket, ticketPolicy } from "../modules/tickets/policy.js";
import type { Deps } from "../deps.js";
import type { DomainEvent } from "../events/bus.js";
import { type AuthContext, authenticate, lockoutOf } from "../http/auth.js";
import { companyLockout, forgetCompanyStanding } from "../http/companyStanding.js";
import { AppError } from "../http/errors.js";
import { findUser, findUsers } from "../modules/users/queries.js";
import { redisPrefix } from "../db/redisPrefix.js";
import { createPresenceBatcher } from "./presence.js";
import * as q from "./queries.js";

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
};

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

interface SocketData {
  auth: AuthContext;
}
/** Typed by the contracts' event maps: an event name or payload the web does not know fails to compile. */
type AppServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** Decides whether a user may watch a ticket's chat box. */
type ChatBoxGuard = (auth: AuthContext, ticketId: number) => Promise<boolean>;

function handshakeToken(socket: Socket): string | null {
  const raw = socket.handshake.auth?.token ?? socket.handshake.query?.token;
  if (typeof raw !== "string" || raw.length === 0) return null;
  // Clients of this API family sometimes send the token as stored: a JSON string.
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
}

export interface Realtime {
  io: AppServer;
  /** Sends a committed event to the sockets that may hear it (registered in events/listeners.ts). */
  heard(event: DomainEvent): Promise<void>;
  sweepOffline(olderThan?: Date): Promise<number>;
  sweepLocked(): Promise<number>;
  close(): Promise<void>;
}

export async function createRealtime(
  httpServer: HttpServer,
  deps: Pick<Deps, "db" | "tokens" | "bus" | "config" | "now">,
  log: FastifyBaseLogger,
): Promise<Realtime> {
  const { db, tokens, bus, config, now } = deps;
  const io: AppServer = new Server(httpServer, {
    pingInterval: LIMITS.socketPingMs,
    pingTimeout: LIMITS.socketPingMs,
    cors: config.corsOrigins.length ? { origin: config.corsOrigins, credentials: true } : undefined,
  });

  const redisClients: { quit(): Promise<unknown> }[] = [];
  if (config.REDIS_URL) {
    const pub = createClient({ url: config.REDIS_URL });
    const sub = pub.duplicate();
    pub.on("error", (err) => log.error({ err }, "redis publisher"));
    sub.on("error", (err) => log.error({ err }, "redis subscriber"));
    await Promise.all([pub.connect(), sub.connect()]);
    // Channels named per deployment: another deployment on this Redis hears none of our events.
    io.adapter(createAdapter(pub, sub, { key: `${await redisPrefix(config, db)}:socket.io` }));
    redisClients.push(pub, sub);
  }

  /** A chat box is joined only by who may see that ticket of their own company. */
  const chatBoxGuard: ChatBoxGuard = async (auth, ticketId) => {
    const ticket = await q.ticketAudience(db, auth.companyId, ticketId);
    const user = ticket ? await findUser(db, auth.companyId, auth.userId) : null;
    if (!ticket || !user) return false;
    return canSeeTicket(
      auth,
      { queueIds: user.queues.map((q) => q.id), allTicket: user.allTicket === "enabled" },
      ticket,
    );
  };

  /** The rooms that decide which tickets a user hears about: their queues, unqueued ones, admins. */
  async function visibilityRooms(companyId: number, userId: number): Promise<string[]> {
    const user = await findUser(db, companyId, userId);
    if (!user) return [];
    const list = user.queues.map((q) => rooms.queue(companyId, q.id));
    if (ticketPolicy.seesEveryQueue(user)) list.push(rooms.admins(companyId), rooms.noQueue(companyId));
    else if (user.allTicket === "enabled") list.push(rooms.noQueue(companyId));
    return list;
  }

  /** After a user's profile or queues change, their open sockets hear the tickets they may now see. */
  async function refreshVisibility(companyId: number, userId: number) {
    const all = [
      rooms.admins(companyId),
      rooms.noQueue(companyId),
      ...(await q.companyQueueIds(db, companyId)).map((id) => rooms.queue(companyId, id)),
    ];
    io.in(rooms.user(userId)).socketsLeave(all);
    io.in(rooms.user(userId)).socketsJoin(await visibilityRooms(companyId, userId));
  }

  /** Users went online or offline: the company hears it through the bus, one event per user. */
  async function announcePresence(companyId: number, userIds: number[]) {
    const list = await findUsers(db, companyId, userIds);
    await bus.publish(list.map((user) => ({ type: "user.presence" as const, companyId, user })));
  }

  /** Online flags and last-seen times, written and announced per company in batches (presence.ts). */
  const presence = createPresenceBatcher({ db, now, log, announce: announcePresence });

  /** Disconnects every socket of a user, on every instance, but those of `keepSessionId`. */
  function cutSessions(userId: number, keepSessionId?: string) {
    const sockets = io.in(rooms.user(userId));
    (keepSessionId ? sockets.except(rooms.session(keepSessionId)) : sockets).disconnectSockets(true);
  }

  /** A company made inactive or past due: its sockets, on every instance, are told and closed. */
  async function lockOutIfLocked(companyId: number): Promise<boolean> {
    const lock = await companyLockout(db, companyId, now());
    if (lock?.code !== "ERR_SUBSCRIPTION_EXPIRED" && lock?.code !== "ERR_COMPANY_INACTIVE") return false;
    io.to(rooms.company(companyId)).emit(companyEvent(companyId, "locked"), { error: lock.code });
    io.in(rooms.company(companyId)).disconnectSockets(true);
    return true;
  }

  /** Other instances forget their copy of a changed company's standing at once (Redis adapter only). */
  function relayCompanyChange(companyId: number) {
    if (config.REDIS_URL) io.serverSideEmit("companyChanged", companyId);
  }
  io.on("companyChanged", (companyId) => {
    // Sent by another instance, maybe of another version: checked, not trusted.
    if (typeof companyId === "number") forgetCompanyStanding(db, companyId);
  });

  io.use(async (socket, next) => {
    try {
      const auth = await authenticate(db, tokens, handshakeToken(socket));
      const lock = await lockoutOf(db, auth, now());
      if (lock) throw lock;
      socket.data.auth = auth;
      next();
    } catch (err) {
      next(new Error(err instanceof AppError ? err.code : "ERR_SESSION_EXPIRED"));
    }
  });

  io.on("connection", async (socket: AppSocket) => {
    const auth = socket.data.auth;
    const reply = (ack: ((r: JoinAck) => void) | undefined, res: JoinAck) => {
      if (typeof ack === "function") ack(res);
    };

    socket.on("joinNotification", (ack) => {
      void socket.join(rooms.notification(auth.companyId));
      reply(ack, { ok: true });
    });
    socket.on("joinTickets", (status, ack) => {
      if (!(TICKET_STATUSES as readonly string[]).includes(status))
        return reply(ack, { ok: false, error: "ERR_VALIDATION" });
      void socket.join(rooms.tickets(auth.companyId, status));
      reply(ack, { ok: true });
    });
    socket.on("leaveTickets", (status) => void socket.leave(rooms.tickets(auth.companyId, String(status))));
    socket.on("joinChatBox", async (ticketId, ack) => {
      const id = Number(ticketId);
      const allowed = Number.isInteger(id) && id > 0 && (await chatBoxGuard(auth, id).catch(() => false));
      if (!allowed) return reply(ack, { ok: false, error: "ERR_NO_TICKET_FOUND" });
      await socket.join(rooms.chatBox(auth.companyId, id));
      reply(ack, { ok: true });
    });
    socket.on(
      "leaveChatBox",
      (ticketId) => void socket.leave(rooms.chatBox(auth.companyId, Number(ticketId))),
    );
    socket.on("userStatus", () => void presence.online(auth.companyId, auth.userId));
    // The user stays online (another tab may reconnect at once); the sweep takes them offline later.
    socket.on("disconnect", () => presence.stamp(auth.companyId, auth.userId));

    await socket.join([
      rooms.company(auth.companyId),
      rooms.user(auth.userId),
      rooms.session(auth.sessionId),
      ...(await visibilityRooms(auth.companyId, auth.userId)),
    ]);
    // Ready once the user is written online (the company hears it with the batch, if it is news).
    await presence.online(auth.companyId, auth.userId);
    socket.emit("ready");
  });

  /**
   * `company-announcement` goes to the companies it is addressed to, room by room (to every socket
   * only when it is for every company); companies it no longer reaches hear it left.
   */
  function announceTo(
    audience: { allCompanies: boolean; companyIds: number[] },
    previous: { allCompanies: boolean; companyIds: number[] } | undefined,
    payload: AnnouncementEventPayload,
  ) {
    const roomsOf = (ids: number[]) => ids.map((id) => rooms.company(id));
    // io.to([]) would reach everyone: an empty list reaches no one.
    if (audience.allCompanies) io.emit("company-announcement", payload);
    else if (audience.companyIds.length)
      io.to(roomsOf(audience.companyIds)).emit("company-announcement", payload);
    if (!previous || payload.action === "delete") return;
    const gone = { action: "delete" as const, id: payload.record.id };
    if (previous.allCompanies && !audience.allCompanies)
      io.except(roomsOf(audience.companyIds)).emit("company-announcement", gone);
    else if (!previous.allCompanies && !audience.allCompanies) {
      const left = previous.companyIds.filter((id) => !audience.companyIds.includes(id));
      if (left.length) io.to(roomsOf(left)).emit("company-announcement", gone);
    }
  }

  async function heard(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case "user.presence":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "user"), {
          action: "update",
          user: event.user,
        });
        break;
      case "user.saved":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "user"), {
          action: event.action,
          user: event.user,
        });
        await refreshVisibility(event.companyId, event.user.id);
        break;
      case "whatsapp.saved":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "whatsapp"), {
          action: "update",
          whatsapp: event.whatsapp,
        });
        break;
      case "whatsapp.deleted":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "whatsapp"), {
          action: "delete",
          whatsappId: event.whatsappId,
        });
        break;
      case "whatsapp.session":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "whatsappSession"), {
          action: "update",
          session: event.session,
        });
        break;
      case "ticket.saved": {
        // Who sees the ticket now hears the update; who saw it before and no longer may hears it left.
        const name = companyEvent(event.companyId, "ticket");
        const seeing = ticketRooms(event.companyId, event.ticket);
        // Whoever has the chat open but may no longer see the ticket leaves its chat box.
        const chatBox = rooms.chatBox(event.companyId, event.ticket.id);
        if (event.previous) io.in(chatBox).except(seeing).socketsLeave(chatBox);
        const saw =
          event.previous && ticketRooms(event.companyId, { id: event.ticket.id, ...event.previous });
        // A new status or agent: clients keeping one list per status first drop it from the old
        // status' list, as the backends of this API family tell them; here, only whoever saw it there.
        const from = event.previous?.status;
        if (saw && from && (from !== event.ticket.status || event.previous!.userId !== event.ticket.userId))
          io.to(saw).emit(name, { action: "delete", ticketId: event.ticket.id, fromStatus: from });
        io.to(seeing).emit(name, { action: "update", ticket: event.ticket });
        if (saw) {
          const left = saw.filter((room) => !seeing.includes(room));
          if (left.length)
            io.to(left).except(seeing).emit(name, { action: "delete", ticketId: event.ticket.id });
        }
        break;
      }
      case "contact.deleted":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "contact"), {
          action: "delete",
          contactId: event.contactId,
        });
        break;
      case "tag.changed":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "tag"), event.payload);
        break;
      case "queue.saved":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "queue"), {
          action: event.action,
          queue: event.queue,
        });
        break;
      case "queue.deleted":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "queue"), {
          action: "delete",
          queueId: event.queueId,
        });
        break;
      case "ticket.read":
        io.to(ticketRooms(event.companyId, event.ticket)).emit(companyEvent(event.companyId, "ticket"), {
          action: "updateUnread",
          ticketId: event.ticket.id,
        });
        break;
      case "ticket.deleted":
        io.to(
          ticketRooms(event.companyId, { id: event.ticketId, queueId: event.queueId, userId: event.userId }),
        ).emit(companyEvent(event.companyId, "ticket"), { action: "delete", ticketId: event.ticketId });
        break;
      case "message.saved":
        io.to(ticketRooms(event.companyId, event.ticket)).emit(companyEvent(event.companyId, "appMessage"), {
          action: event.action,
          message: event.message,
          ticket: event.ticket,
          contact: event.contact,
        });
        break;
      case "contact.saved":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "contact"), {
          action: event.action,
          contact: event.contact,
        });
        break;
      case "presence":
        // What the contact is doing matters only to whoever has their chat open.
        io.to(rooms.chatBox(event.companyId, event.ticket.id)).emit(
          companyEvent(event.companyId, "presence"),
          {
            ticketId: event.ticket.id,
            presence: event.presence,
          },
        );
        break;
      case "ticketNote.changed":
        io.to(ticketRooms(event.companyId, event.ticket)).emit(
          companyEvent(event.companyId, "ticketNote"),
          event.payload,
        );
        break;
      case "quickMessage.changed": {
        const name = companyEvent(event.companyId, "quickmessage");
        const hearing = quickMessageRooms(event.companyId, event.audience);
        io.to(hearing).emit(name, event.payload);
        // Made personal: who heard of it before and no longer may hears it is gone.
        if (event.previousAudience && event.payload.action !== "delete") {
          const left = quickMessageRooms(event.companyId, event.previousAudience).filter(
            (room) => !hearing.includes(room),
          );
          if (left.length)
            io.to(left).except(hearing).emit(name, { action: "delete", id: event.payload.record.id });
        }
        break;
      }
      case "chat.changed": {
        // Only the chat's members, in their own rooms: nobody else hears a word of it.
        const name = companyEvent(event.companyId, "chat");
        if (event.memberIds.length) io.to(event.memberIds.map(rooms.user)).emit(name, event.payload);
        if (event.leftIds?.length && event.payload.action !== "delete")
          io.to(event.leftIds.map(rooms.user)).emit(name, {
            action: "delete",
            id: event.payload.chat.id,
            uuid: event.payload.chat.uuid,
          });
        break;
      }
      case "schedule.changed":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "schedule"), event.payload);
        break;
      // Only admins manage bots (bots:manage); the payloads hold no secret, but agents need none of it.
      case "queueIntegration.changed":
        io.to(rooms.admins(event.companyId)).emit(
          companyEvent(event.companyId, "queueIntegration"),
          event.payload,
        );
        break;
      case "prompt.changed":
        io.to(rooms.admins(event.companyId)).emit(companyEvent(event.companyId, "prompt"), event.payload);
        break;
      case "announcement.changed":
        announceTo(event.audience, event.previousAudience, event.payload);
        break;
      case "simulator.phone":
        io.to(rooms.admins(event.companyId)).emit(companyEvent(event.companyId, "simulator"), {
          whatsappId: event.whatsappId,
          number: event.number,
          message: event.message,
        });
        break;
      case "user.deleted":
        io.to(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "user"), {
          action: "delete",
          userId: event.userId,
        });
        io.in(rooms.user(event.userId)).disconnectSockets(true);
        break;
      case "session.revoked":
        // A refresh token used twice killed the session: its sockets go with it.
        io.in(rooms.session(event.sessionId)).disconnectSockets(true);
        break;
      case "user.sessionsRevoked":
        // Logout or a password change: the revoked sessions' sockets go now (through the adapter).
        cutSessions(event.userId, event.keepSessionId);
        break;
      case "company.saved":
        forgetCompanyStanding(db, event.companyId);
        relayCompanyChange(event.companyId);
        await lockOutIfLocked(event.companyId);
        break;
      case "session.started": {
        // Only the user's sessions older than this login hear it; a few seconds later exactly those
        // sockets are cut (their refresh tokens are already revoked). A newer login is never touched.
        const older = io.in(rooms.user(event.userId)).except(rooms.session(event.sessionId));
        const ids = (await older.fetchSockets()).map((s) => s.id);
        if (ids.length === 0) break;
        io.to(ids).emit(companyEvent(event.companyId, "auth"), {
          action: "update",
          user: { id: event.userId },
        });
        setTimeout(() => io.in(ids).disconnectSockets(true), 3_000).unref();
        break;
      }
    }
  }

  return {
    io,
    heard,
    /** Users with no socket for LIMITS.offlineAfterMs go offline; a user with a live socket is kept online. */
    async sweepOffline(olderThan = new Date(now().getTime() - LIMITS.offlineAfterMs)) {
      let changed = 0;
      for (const { id, companyId } of await q.staleOnlineUsers(db, olderThan)) {
        const sockets = await io.in(rooms.user(id)).fetchSockets();
        if (sockets.length > 0) {
          presence.stamp(companyId, id);
          continue;
        }
        if (await q.markOffline(db, companyId, id)) {
          await announcePresence(companyId, [id]);
          changed++;
        }
      }
      await presence.flush();
      return changed;
    },
    /**
     * A due date passes with no event (the clock moves): the companies of this instance's sockets
     * that went past due since are told and closed. Answers how many companies were locked out.
     */
    async sweepLocked() {
      const companyIds = new Set((await io.local.fetchSockets()).map((s) => s.data.auth.companyId));
      let locked = 0;
      for (const companyId of companyIds) if (await lockOutIfLocked(companyId)) locked++;
      return locked;
    },
    async close() {
      // Not io.close(): that closes the HTTP server, which Fastify closes itself.
      io.local.disconnectSockets(true);
      io.engine.close();
      // Nothing lost: the last-seen times of the sockets just closed are written now.
      await presence.flush().catch((err) => log.warn({ err }, "presence flush on close failed"));
      await Promise.resolve(io.of("/").adapter.close()).catch(() => undefined);
      await Promise.all(redisClients.map((c) => c.quit().catch(() => undefined)));
    },
  };
}
