import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { type Socket, Server } from "socket.io";
import { createClient } from "redis";
import type { FastifyBaseLogger } from "fastify";
import {
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
import { type AuthContext, authenticate } from "../http/auth.js";
import { companyLockout, forgetCompanyStanding, pastDueAdminPasses } from "../http/companyStanding.js";
import { AppError } from "../http/errors.js";
import { findUser, findUsers } from "../modules/users/queries.js";
import { redisPrefix } from "../db/redisPrefix.js";
import { createPresenceBatcher } from "./presence.js";
import { createFanout } from "./fanout.js";
import * as q from "./queries.js";
import { type AppServer, type SocketData, rooms, seesPresence } from "./rooms.js";

export { presenceRooms, quickMessageRooms, rooms, ticketRooms } from "./rooms.js";

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
  /** Sends a committed event to the sockets that may hear it (registered in listeners.ts). */
  heard(event: DomainEvent): Promise<void> | void;
  sweepOffline(olderThan?: Date): Promise<number>;
  sweepLocked(): Promise<number>;
  /** Whether Redis answers (REDIS_URL), for /readyz; null without Redis. */
  pingRedis: (() => Promise<void>) | null;
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
  let pingRedis: Realtime["pingRedis"] = null;
  if (config.REDIS_URL) {
    const pub = createClient({ url: config.REDIS_URL });
    const sub = pub.duplicate();
    pub.on("error", (err) => log.error({ err }, "redis publisher"));
    sub.on("error", (err) => log.error({ err }, "redis subscriber"));
    await Promise.all([pub.connect(), sub.connect()]);
    // Channels named per deployment: another deployment on this Redis hears none of our events.
    io.adapter(createAdapter(pub, sub, { key: `${await redisPrefix(config, db)}:socket.io` }));
    redisClients.push(pub, sub);
    pingRedis = async () => {
      // A client that lost its connection queues commands until it is back: answer at once instead.
      if (!pub.isReady || !sub.isReady) throw new Error("not connected");
      await withTimeout(pub.ping(), 2_000);
    };
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

  /**
   * The rooms a user's profile and queues decide: which tickets they hear about (their queues,
   * unqueued ones, admins), and whether they hear users go on and off line.
   */
  async function visibilityRooms(companyId: number, userId: number): Promise<string[]> {
    const user = await findUser(db, companyId, userId);
    if (!user) return [];
    const list = user.queues.map((q) => rooms.queue(companyId, q.id));
    if (ticketPolicy.seesEveryQueue(user)) list.push(rooms.admins(companyId), rooms.noQueue(companyId));
    else if (user.allTicket === "enabled") list.push(rooms.noQueue(companyId));
    if (seesPresence(user)) list.push(rooms.presenceViewers(companyId));
    return list;
  }

  /** After a user's profile or queues change, their open sockets hear what they may now see. */
  async function refreshVisibility(companyId: number, userId: number) {
    const all = [
      rooms.admins(companyId),
      rooms.noQueue(companyId),
      rooms.presenceViewers(companyId),
      ...(await q.companyQueueIds(db, companyId)).map((id) => rooms.queue(companyId, id)),
    ];
    io.in(rooms.user(userId)).socketsLeave(all);
    io.in(rooms.user(userId)).socketsJoin(await visibilityRooms(companyId, userId));
  }

  /**
   * Users went online or offline: one event per user through the bus, heard by whoever is shown
   * presence and the user's own sockets (fanout.ts, presenceRooms), not by every agent.
   */
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

  /**
   * The company paid: its admins' sockets kept on the payment pages (pastDue room) join the rooms
   * every socket of theirs joins, so the app works again without reconnecting.
   */
  async function promotePastDue(companyId: number) {
    const sockets = await io.in(rooms.pastDue(companyId)).fetchSockets();
    for (const s of sockets) {
      const auth = s.data.auth;
      s.join([rooms.company(companyId), ...(await visibilityRooms(companyId, auth.userId))]);
      s.leave(rooms.pastDue(companyId));
    }
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
      // A past-due company's admin connects to hear the payment confirmation on the payment pages.
      const lock = auth.super ? null : await companyLockout(db, auth.companyId, now());
      if (lock && !pastDueAdminPasses(lock, auth.profile)) throw lock;
      socket.data.auth = auth;
      socket.data.limited = lock !== null;
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

    /**
     * A past-due admin's socket hears nothing of the company but its payment event until it pays
     * (promotePastDue then moves it into the company's rooms); its joins are refused meanwhile.
     */
    const limited = async () => {
      if (!socket.data.limited) return false;
      if ((await companyLockout(db, auth.companyId, now())) !== null) return true;
      socket.data.limited = false;
      return false;
    };
    const refused = (ack: ((r: JoinAck) => void) | undefined) =>
      reply(ack, { ok: false, error: "ERR_SUBSCRIPTION_EXPIRED" });

    socket.on("joinNotification", async (ack) => {
      if (await limited()) return refused(ack);
      void socket.join(rooms.notification(auth.companyId));
      reply(ack, { ok: true });
    });
    socket.on("joinTickets", async (status, ack) => {
      if (await limited()) return refused(ack);
      if (!(TICKET_STATUSES as readonly string[]).includes(status))
        return reply(ack, { ok: false, error: "ERR_VALIDATION" });
      void socket.join(rooms.tickets(auth.companyId, status));
      reply(ack, { ok: true });
    });
    socket.on("leaveTickets", (status) => void socket.leave(rooms.tickets(auth.companyId, String(status))));
    socket.on("joinChatBox", async (ticketId, ack) => {
      if (await limited()) return refused(ack);
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

    if (socket.data.limited) {
      await socket.join([
        rooms.pastDue(auth.companyId),
        rooms.user(auth.userId),
        rooms.session(auth.sessionId),
      ]);
      socket.emit("ready");
      return;
    }
    await socket.join([
      rooms.company(auth.companyId),
      rooms.user(auth.userId),
      rooms.session(auth.sessionId),
      ...(await visibilityRooms(auth.companyId, auth.userId)),
    ]);
    // Ready once the user is written online (announced with the batch, if it is news).
    await presence.online(auth.companyId, auth.userId);
    socket.emit("ready");
  });

  const heard = createFanout(
    io,
    {
      refreshVisibility,
      cutSessions,
      async companyChanged(companyId) {
        forgetCompanyStanding(db, companyId);
        relayCompanyChange(companyId);
        if (!(await lockOutIfLocked(companyId))) await promotePastDue(companyId);
      },
    },
    !config.REDIS_URL,
  );

  return {
    io,
    heard,
    pingRedis,
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

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
