import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { io as ioClient, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import type { CompanyEventPayloads, JoinAck, UserDTO } from "@atende/contracts";
import { users } from "../db/schema/index.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../test/harness.js";
import { buildCompany, buildTeam, buildUser, login } from "../test/factories.js";
import { caughtUp } from "../test/settled.js";

let ctx: TestContext;
let url: string;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  url = await ctx.url();
});
afterAll(() => ctx.close());

/** Every socket a test opens, closed after it. */
const open: Socket[] = [];
beforeEach(() => {
  ctx.clock.now = new Date();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  ctx.clock.now = new Date();
});

type UserEvent = CompanyEventPayloads["user"];
type AuthEvent = CompanyEventPayloads["auth"];
type Caller = { token: string; auth: { authorization: string } };

/** A ready socket with the token in the handshake's auth, as the web app opens it. */
async function socketFor(caller: Caller | string): Promise<Socket> {
  const s = await connectSocket(url, typeof caller === "string" ? caller : caller.token);
  open.push(s);
  return s;
}

/** A socket opened with any client options; resolves on "ready", rejects with the connect_error. */
function rawSocket(opts: Partial<ManagerOptions & SocketOptions>): Promise<Socket> {
  const s = ioClient(url, { transports: ["websocket"], reconnection: false, forceNew: true, ...opts });
  open.push(s);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("socket neither ready nor refused")), 5_000);
    s.on("ready", () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.on("connect_error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Everything a socket receives, whatever the event name. */
function recordAll(socket: Socket): { event: string; payload: unknown }[] {
  const got: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => got.push({ event, payload }));
  return got;
}

function api(method: "GET" | "POST" | "PUT" | "DELETE", path: string, who: Caller, payload?: unknown) {
  return ctx.app.inject({ method, url: path, headers: who.auth, payload: payload as object });
}

async function onlineInList(admin: Caller, userId: number): Promise<boolean | undefined> {
  const res = await api("GET", "/users", admin);
  return res.json<{ users: UserDTO[] }>().users.find((u) => u.id === userId)?.online;
}

async function setOffline(userId: number) {
  await ctx.deps.db.update(users).set({ online: false }).where(eq(users.id, userId));
}

async function lastSeenOf(userId: number) {
  const [row] = await ctx.deps.db.select({ at: users.lastSeenAt }).from(users).where(eq(users.id, userId));
  return row?.at?.getTime() ?? null;
}

/** The server-side id of a client socket (the same id on both ends for the default namespace). */
function serverIdOf(s: Socket): string {
  return s.id!;
}

async function serverSocketsOf(userId: number) {
  return (await ctx.built.realtime.io.in(`user:${userId}`).fetchSockets()).length;
}

describe("handshake", () => {
  it("refuses a socket without a token with ERR_NO_SESSION", async () => {
    await expect(rawSocket({})).rejects.toThrow("ERR_NO_SESSION");
    await expect(connectSocket(url, undefined)).rejects.toThrow("ERR_NO_SESSION");
  });

  it("refuses a garbage token with ERR_SESSION_EXPIRED", async () => {
    await expect(rawSocket({ auth: { token: "garbage.token.here" } })).rejects.toThrow("ERR_SESSION_EXPIRED");
    await expect(rawSocket({ auth: { token: "not-a-jwt" } })).rejects.toThrow("ERR_SESSION_EXPIRED");
    await expect(rawSocket({ auth: { token: '"unterminated' } })).rejects.toThrow("ERR_SESSION_EXPIRED");
  });

  it("refuses the token of a session that a later login replaced with ERR_NO_SESSION", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const older = await login(ctx, u.email);
    await login(ctx, u.email);
    await expect(rawSocket({ auth: { token: older.token } })).rejects.toThrow("ERR_NO_SESSION");
  });

  it("accepts the token from the handshake auth, the token query parameter, and as a JSON-quoted string", async () => {
    const team = await buildTeam(ctx);
    const token = team.adminLogin.token;
    for (const opts of [
      { auth: { token } },
      { query: { token } },
      { auth: { token: JSON.stringify(token) } },
      { query: { token: JSON.stringify(token) } },
    ]) {
      const s = await rawSocket(opts);
      expect(s.connected, JSON.stringify(Object.keys(opts))).toBe(true);
    }
  });

  it("accepts the long-polling transport as well as plain websocket", async () => {
    const team = await buildTeam(ctx);
    const s = await rawSocket({ auth: { token: team.adminLogin.token }, transports: ["polling"] });
    expect(s.connected).toBe(true);
  });
});

describe("rooms", () => {
  it("says ready, then acks the joins: notification, a ticket status, a bad status, an unknown chat box", async () => {
    const team = await buildTeam(ctx);
    const s = await socketFor(team.agentLogin);
    expect(s.connected).toBe(true);
    const ask = (event: string, ...args: unknown[]) =>
      s.timeout(2_000).emitWithAck(event, ...args) as Promise<JoinAck>;

    expect(await ask("joinNotification")).toEqual({ ok: true });
    expect(await ask("joinTickets", "open")).toEqual({ ok: true });
    expect(await ask("joinTickets", "pending")).toEqual({ ok: true });
    expect(await ask("joinTickets", "bogus")).toMatchObject({ ok: false });
    expect(await ask("joinChatBox", 123)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    expect(await ask("joinChatBox", "not-a-number")).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });

    const rooms = [...(ctx.built.realtime.io.sockets.sockets.get(serverIdOf(s))?.rooms ?? [])];
    expect(rooms).toEqual(
      expect.arrayContaining([
        `company:${team.company.id}:notification`,
        `company:${team.company.id}:tickets:open`,
      ]),
    );
    expect(rooms.some((r) => r.includes("bogus") || r.includes("ticket:123"))).toBe(false);
  });
});

describe("company isolation of user events", () => {
  it("create, update and delete of a user reach only that company's sockets", async () => {
    const a = await buildTeam(ctx);
    const b = await buildTeam(ctx);
    const aSocket = await socketFor(a.adminLogin);
    const aAgentSocket = await socketFor(a.agentLogin);
    const bSocket = await socketFor(b.adminLogin);
    const aGot = [...[aSocket, aAgentSocket].map(recordAll)];
    const bUserEvents = record<UserEvent>(bSocket, `company-${b.company.id}-user`);

    const created = await api("POST", "/users", b.adminLogin, {
      name: "Bea New",
      email: `bea.${Date.now()}@test.local`,
      password: "Secret1",
    });
    expect(created.statusCode).toBe(201);
    const user = created.json<UserDTO>();
    await waitFor(() => bUserEvents.length === 1);
    expect(bUserEvents[0]).toEqual({ action: "create", user });
    expect(JSON.stringify(bUserEvents[0])).not.toMatch(/passwordHash|\$argon2/);

    const updated = await api("PUT", `/users/${user.id}`, b.adminLogin, { name: "Bea Renamed" });
    expect(updated.statusCode).toBe(200);
    await waitFor(() => bUserEvents.length === 2);
    expect(bUserEvents[1]).toEqual({ action: "update", user: updated.json() });

    expect((await api("DELETE", `/users/${user.id}`, b.adminLogin)).statusCode).toBe(204);
    await waitFor(() => bUserEvents.length === 3);
    expect(bUserEvents[2]).toEqual({ action: "delete", userId: user.id });

    await Promise.all([aSocket, aAgentSocket].map(caughtUp));
    expect(aGot).toEqual([[], []]);
  });

  it("a deleted user's own sockets are cut off", async () => {
    const team = await buildTeam(ctx);
    const agentSocket = await socketFor(team.agentLogin);
    const events = record<UserEvent>(agentSocket, `company-${team.company.id}-user`);
    expect((await api("DELETE", `/users/${team.agent.id}`, team.adminLogin)).statusCode).toBe(204);
    await waitFor(() => !agentSocket.connected);
    expect(events.filter((e) => e.action !== "delete")).toEqual([]);
    expect(await serverSocketsOf(team.agent.id)).toBe(0);
  });
});

describe("logout", () => {
  it("cuts the session's sockets within a second; they hear no more company events", async () => {
    const team = await buildTeam(ctx);
    const agentSocket = await socketFor(team.agentLogin);
    const heard = recordAll(agentSocket);
    const adminSocket = await socketFor(team.adminLogin);
    const adminHeard = record<{ action: string; contact: { name: string } }>(
      adminSocket,
      `company-${team.company.id}-contact`,
    );
    const out = await ctx.app.inject({
      method: "DELETE",
      url: "/auth/logout",
      headers: { ...team.agentLogin.auth, cookie: team.agentLogin.cookie },
    });
    expect(out.statusCode).toBe(204);
    await waitFor(() => !agentSocket.connected, 1_000);
    expect(await serverSocketsOf(team.agent.id)).toBe(0);
    const before = heard.length;
    const res = await api("POST", "/contacts", team.adminLogin, {
      name: "After logout",
      number: "5511900001111",
    });
    expect(res.statusCode).toBe(201);
    // The company heard of the contact: the agent's socket would have heard it by then.
    await waitFor(() => adminHeard.some((e) => e.contact.name === "After logout"));
    expect(heard.slice(before)).toEqual([]);
  });
});

describe("login elsewhere", () => {
  /** How long the server leaves an older session's socket before cutting it (realtime/fanout.ts). */
  const CUT_OFF_MS = 3_000;

  /**
   * Resolves once every cut-off the server armed before this call has fired: another user's login
   * elsewhere arms one of the same length, and Node fires timers of one length in the order they
   * were set. (The cut-off runs on a real timer, not the test clock.)
   */
  async function cutOffsArmedSoFarFired() {
    const company = await buildCompany(ctx.deps.db);
    const y = await buildUser(ctx.deps.db, company.id);
    const older = await socketFor(await login(ctx, y.email));
    await login(ctx, y.email);
    await waitFor(() => !older.connected, CUT_OFF_MS + 3_000);
  }

  it("tells only the older session's socket, then cuts it off; the new session's socket stays", async () => {
    const company = await buildCompany(ctx.deps.db);
    const x = await buildUser(ctx.deps.db, company.id);
    const session1 = await login(ctx, x.email);
    const socket1 = await socketFor(session1);
    const got1 = record<AuthEvent>(socket1, `company-${company.id}-auth`);

    const session2 = await login(ctx, x.email);
    const socket2 = await socketFor(session2);
    const got2 = recordAll(socket2);

    await waitFor(() => got1.length === 1);
    expect(got1).toEqual([{ action: "update", user: { id: x.id } }]);

    await waitFor(() => !socket1.connected, CUT_OFF_MS + 3_000);
    // Any cut-off the first login armed (before the second's, of the same length) has fired too;
    // had one reached socket 2, its answer would never come.
    await caughtUp(socket2);
    expect(socket2.connected).toBe(true);
    expect(got2.filter((e) => e.event === `company-${company.id}-auth`)).toEqual([]);
  });

  it("two logins in quick succession: the newer session's socket survives the first login's cut-off", async () => {
    const company = await buildCompany(ctx.deps.db);
    const x = await buildUser(ctx.deps.db, company.id);
    await login(ctx, x.email);
    const session2 = await login(ctx, x.email);
    const socket2 = await socketFor(session2);
    const got2 = recordAll(socket2);

    await cutOffsArmedSoFarFired();
    await caughtUp(socket2);
    expect(socket2.connected).toBe(true);
    expect(got2.filter((e) => e.event === `company-${company.id}-auth`)).toEqual([]);
    // The session itself is alive: only its socket was wrongly cut.
    expect((await api("GET", "/auth/me", session2)).statusCode).toBe(200);
  });

  it("the socket of another user of the same company hears nothing of it", async () => {
    const team = await buildTeam(ctx);
    const adminSocket = await socketFor(team.adminLogin);
    const got = record<AuthEvent>(adminSocket, `company-${team.company.id}-auth`);
    const agentSocket = await socketFor(team.agentLogin);
    const agentGot = record<AuthEvent>(agentSocket, `company-${team.company.id}-auth`);
    await login(ctx, team.agent.email);
    await waitFor(() => agentGot.length === 1);
    await caughtUp(adminSocket);
    expect(got).toEqual([]);
  });
});

describe("online status", () => {
  it("a socket marks its user online and tells the company", async () => {
    const team = await buildTeam(ctx);
    const adminSocket = await socketFor(team.adminLogin);
    const events = record<UserEvent>(adminSocket, `company-${team.company.id}-user`);
    await setOffline(team.agent.id);
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(false);

    await socketFor(team.agentLogin);
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(true);
    await waitFor(() => events.some((e) => e.action === "update" && e.user.id === team.agent.id));
    expect(events.find((e) => e.action === "update" && e.user.id === team.agent.id)).toMatchObject({
      action: "update",
      user: { id: team.agent.id, online: true },
    });
  });

  it("userStatus marks the user online again after something set them offline", async () => {
    const team = await buildTeam(ctx);
    const agentSocket = await socketFor(team.agentLogin);
    const adminSocket = await socketFor(team.adminLogin);
    const events = record<UserEvent>(adminSocket, `company-${team.company.id}-user`);
    await setOffline(team.agent.id);
    agentSocket.emit("userStatus");
    await waitFor(async () => (await onlineInList(team.adminLogin, team.agent.id)) === true);
    await waitFor(() =>
      events.some((e) => e.action === "update" && e.user.id === team.agent.id && e.user.online),
    );
  });

  it("a user with no socket for more than 5 minutes goes offline at the sweep, and the company is told", async () => {
    const team = await buildTeam(ctx);
    const adminSocket = await socketFor(team.adminLogin);
    const events = record<UserEvent>(adminSocket, `company-${team.company.id}-user`);
    const agentSocket = await socketFor(team.agentLogin);
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(true);

    // The disconnect is stamped with the clock; wait for the stamp before moving the clock on.
    const leftAt = new Date(Date.now() + 1_000);
    ctx.clock.now = leftAt;
    agentSocket.close();
    await waitFor(
      async () =>
        (await serverSocketsOf(team.agent.id)) === 0 &&
        (await lastSeenOf(team.agent.id)) === leftAt.getTime(),
    );

    // Not yet five minutes: nothing changes.
    ctx.clock.now = new Date(leftAt.getTime() + 4 * 60_000);
    await ctx.built.realtime.sweepOffline();
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(true);

    ctx.clock.now = new Date(leftAt.getTime() + 6 * 60_000);
    const swept = await ctx.built.realtime.sweepOffline();
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(false);
    await waitFor(() =>
      events.some((e) => e.action === "update" && e.user.id === team.agent.id && !e.user.online),
    );
    expect(events.filter((e) => e.action === "update" && e.user.id === team.agent.id)).toEqual([
      { action: "update", user: expect.objectContaining({ id: team.agent.id, online: false }) },
    ]);
  });

  it("a user whose socket is still connected stays online through a sweep", async () => {
    const team = await buildTeam(ctx);
    const adminSocket = await socketFor(team.adminLogin);
    const events = record<UserEvent>(adminSocket, `company-${team.company.id}-user`);
    await socketFor(team.agentLogin);

    ctx.clock.now = new Date(Date.now() + 6 * 60_000);
    await ctx.built.realtime.sweepOffline();
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(true);
    expect(await onlineInList(team.adminLogin, team.admin.id)).toBe(true);
    // ...and again later: the sweep refreshed their last-seen time rather than dropping them.
    ctx.clock.now = new Date(Date.now() + 12 * 60_000);
    await ctx.built.realtime.sweepOffline();
    expect(await onlineInList(team.adminLogin, team.agent.id)).toBe(true);
    // The sweep has written and announced what it found (it flushes presence); the admin has heard it.
    await caughtUp(adminSocket);
    expect(
      events.filter(
        (e) => e.action === "update" && (e.user.id === team.agent.id || e.user.id === team.admin.id),
      ),
    ).toEqual([]);
  });
});
