import { LIMITS, type ClientToServerEvents } from "@atende/contracts";
import { io, type Socket } from "socket.io-client";
import { refreshSession } from "./http";
import { readToken } from "./session";

/** Server events are named per company (`company-{id}-user`), so they are typed where heard. */
export type AppSocket = Socket<Record<string, (payload: never) => void>, ClientToServerEvents>;

/** Sends one join (or leave) to the server. */
export type RoomJoin = (socket: AppSocket) => void;

/**
 * A room the client asks the server for. `join` is sent again each time the server says "ready"
 * (after every reconnect, the server having forgotten the socket's rooms); `leave`, when the room
 * has one, once the last holder lets go. Holders of the same `key` share one membership.
 */
export interface Room {
  key: string;
  join: RoomJoin;
  leave?: RoomJoin;
}

export interface CompanySocket {
  socket: AppSocket;
  /** Keeps the socket in a room until the returned function is called. */
  joinRoom(room: Room): () => void;
  close(): void;
}

function reloadSoon(): void {
  window.setTimeout(() => window.location.reload(), LIMITS.reloadAfterExpiredMs);
}

/** The live channel of the logged-in user: one per company and user, opened with the session token. */
export function openCompanySocket(): CompanySocket {
  const socket: AppSocket = io({
    path: "/socket.io",
    transports: ["websocket"],
    // Read at every (re)connection, so a token refreshed by an HTTP call is picked up too.
    auth: (send) => send({ token: readToken() }),
  });
  const rooms = new Map<string, { room: Room; holders: number }>([
    ["notification", { room: { key: "notification", join: (s) => s.emit("joinNotification") }, holders: 1 }],
  ]);
  let ready = false;
  let closed = false;
  let statusTimer: number | undefined;
  // One token refresh per successful handshake: a server that keeps refusing must not make us loop.
  let refreshedSinceReady = false;

  socket.on("ready", () => {
    ready = true;
    refreshedSinceReady = false;
    for (const { room } of rooms.values()) room.join(socket);
    socket.emit("userStatus");
    window.clearInterval(statusTimer);
    statusTimer = window.setInterval(() => socket.emit("userStatus"), LIMITS.userStatusEveryMs);
  });

  async function reconnectWithFreshToken(): Promise<void> {
    if (closed) return;
    if (refreshedSinceReady) return reloadSoon();
    refreshedSinceReady = true;
    try {
      await refreshSession();
      if (!closed) socket.connect();
    } catch {
      reloadSoon();
    }
  }

  socket.on("disconnect", (reason) => {
    ready = false;
    window.clearInterval(statusTimer);
    if (reason === "io server disconnect") void reconnectWithFreshToken();
  });

  socket.on("connect_error", (error) => {
    // A refused handshake (expired token included) is not retried by socket.io on its own.
    if (error.message === "ERR_SESSION_EXPIRED" || !socket.active) void reconnectWithFreshToken();
  });

  return {
    socket,
    joinRoom(room) {
      const held = rooms.get(room.key);
      if (held) held.holders += 1;
      else {
        rooms.set(room.key, { room, holders: 1 });
        if (ready) room.join(socket);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const entry = rooms.get(room.key);
        if (!entry || --entry.holders > 0) return;
        rooms.delete(room.key);
        // A socket that is away has no rooms on the server; it will not join this one again.
        if (ready) entry.room.leave?.(socket);
      };
    },
    close() {
      closed = true;
      window.clearInterval(statusTimer);
      socket.close();
    },
  };
}
