import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { type Socket, io as connect } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, audienceOf } from "./rooms.js";

/**
 * audienceOf: an emit to rooms nobody is in costs nothing on a lone instance (Socket.IO would encode
 * the payload before finding no one), and still reaches every socket that is in them; with a Redis
 * adapter (rooms not all local) every emit goes to Socket.IO as before.
 */

let httpServer: http.Server;
let io: AppServer;
let url: string;
/** How many packets Socket.IO's adapter was asked to broadcast (each one encoded first). */
let broadcasts = 0;

beforeAll(async () => {
  httpServer = http.createServer();
  io = new Server(httpServer) as unknown as AppServer;
  io.on("connection", (socket) => void socket.join(String(socket.handshake.auth.room)));
  const adapter = io.of("/").adapter;
  const broadcast = adapter.broadcast.bind(adapter);
  adapter.broadcast = (packet, opts) => {
    broadcasts++;
    broadcast(packet, opts);
  };
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await io.close();
});

const clients: Socket[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

/** A client in `room` (connected; the server joins it on connection: the tests wait for the room). */
async function clientIn(room: string): Promise<{ heard: unknown[][] }> {
  const client = connect(url, { auth: { room }, transports: ["websocket"] });
  clients.push(client);
  const heard: unknown[][] = [];
  client.onAny((...args) => heard.push(args));
  await new Promise<void>((resolve, reject) => {
    client.on("connect", () => resolve());
    client.on("connect_error", reject);
  });
  return { heard };
}

/** Emits `marker` to `room` (a room the client is in) and waits for it: anything sent before arrived first. */
async function markerThrough(room: string, heard: unknown[][]) {
  io.to(room).emit("company-1-marker" as never, { marker: true } as never);
  await expect.poll(() => heard.some(([name]) => name === "company-1-marker")).toBe(true);
}

describe("audienceOf", () => {
  it("on a lone instance, rooms nobody is in get nothing built, and rooms with a socket get the event", async () => {
    const { heard } = await clientIn("admins-1");
    await expect.poll(() => io.of("/").adapter.rooms.has("admins-1")).toBe(true);
    const toRooms = audienceOf(io, true);

    const before = broadcasts;
    toRooms("admins-2").emit("company-2-contactList" as never, { records: ["not for anyone"] } as never);
    toRooms(["queue-2-7", "user-2-9"])
      .except("user-2-3")
      .emit("company-2-ticket" as never, {} as never);
    // Socket.IO's io.to([]) reaches every socket; here an empty list reaches no one.
    toRooms([]).emit("company-1-everyone" as never, {} as never);
    expect(broadcasts - before).toBe(0);

    toRooms(["admins-2", "admins-1"]).emit("company-1-contactList" as never, { records: [1, 2] } as never);
    expect(broadcasts - before).toBe(1);
    await markerThrough("admins-1", heard);
    expect(heard.map(([name]) => name)).toEqual(["company-1-contactList", "company-1-marker"]);
    expect(heard[0]![1]).toEqual({ records: [1, 2] });
  });

  it("a room its last socket left is nobody's again", async () => {
    const first = await clientIn("chat-5");
    await expect.poll(() => io.of("/").adapter.rooms.has("chat-5")).toBe(true);
    clients.splice(0).forEach((c) => c.close());
    await expect.poll(() => io.of("/").adapter.rooms.has("chat-5")).toBe(false);
    const before = broadcasts;
    audienceOf(io, true)("chat-5").emit("company-1-chat" as never, {} as never);
    expect(broadcasts - before).toBe(0);
    expect(first.heard).toEqual([]);
  });

  it("with rooms on other instances too (a Redis adapter), every emit goes to Socket.IO", async () => {
    const before = broadcasts;
    audienceOf(io, false)("admins-3").emit("company-3-contactList" as never, {} as never);
    expect(broadcasts - before).toBe(1);
  });
});
