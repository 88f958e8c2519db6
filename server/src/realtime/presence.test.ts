import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import type { CompanyEventPayloads } from "@atende/contracts";
import { users } from "../db/schema/index.js";
import { rooms } from "./rooms.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../test/harness.js";
import { buildCompany, buildUser, login } from "../test/factories.js";
import { caughtUp } from "../test/settled.js";

let ctx: TestContext;
let url: string;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  url = await ctx.url();
});
afterAll(() => ctx.close());

const open: Socket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  ctx.clock.now = new Date();
});

type UserEvent = CompanyEventPayloads["user"];

async function socketFor(token: string, base = url): Promise<Socket> {
  const s = await connectSocket(base, token);
  open.push(s);
  return s;
}

/**
 * A ready socket whose `company-{id}-user` events are recorded from its first packet on, so that
 * its own user coming online (announced right after its ready) is heard too.
 */
async function listeningSocket(
  token: string,
  companyId: number,
): Promise<{ socket: Socket; events: UserEvent[] }> {
  let events: UserEvent[] = [];
  const socket = await connectSocket(url, token, (s) => {
    open.push(s);
    events = record<UserEvent>(s, `company-${companyId}-user`);
  });
  return { socket, events };
}

type UserSaved = Extract<UserEvent, { user: unknown }>;
const aboutUser = (events: UserEvent[], userId: number): UserSaved[] =>
  events.filter((e): e is UserSaved => e.action !== "delete" && e.user.id === userId);

/**
 * Resolves once every presence batch of the company so far has been written and announced, and
 * `listener` has heard the announcements: a company's batches run one after the other, each
 * announcing before the next writes, and a socket is ready once its own batch is written. So a
 * further socket of the company (`token`, of a user already online: it announces nothing) ready,
 * then `listener` caught up.
 */
async function presenceSettled(token: string, listener: Socket) {
  await socketFor(token);
  await caughtUp(listener);
}

async function presenceOf(ids: number[]) {
  return ctx.deps.db
    .select({ id: users.id, online: users.online, at: users.lastSeenAt })
    .from(users)
    .where(inArray(users.id, ids));
}

/** A company with an admin and `n` agents, each logged in, then all offline and never seen. */
async function companyWith(n: number) {
  const company = await buildCompany(ctx.deps.db);
  const admin = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
  const agents = [];
  for (let i = 0; i < n; i++) agents.push(await buildUser(ctx.deps.db, company.id, { profile: "user" }));
  const adminLogin = await login(ctx, admin.email);
  const tokens = [];
  for (const a of agents) tokens.push((await login(ctx, a.email)).token);
  // A login marks its user online: back to offline, as after the sweep.
  await ctx.deps.db
    .update(users)
    .set({ online: false, lastSeenAt: null })
    .where(eq(users.companyId, company.id));
  return { company, admin, adminLogin, agents, tokens };
}

describe("presence batching", () => {
  it("many sockets of one company connecting at once: every user online and seen, in a few statements, each announced once", async () => {
    const { company, adminLogin, agents, tokens } = await companyWith(24);
    const adminSocket = await socketFor(adminLogin.token);
    const events = record<UserEvent>(adminSocket, `company-${company.id}-user`);

    await Promise.all(tokens.map((t) => socketFor(t)));
    // Ready means written: every agent is online and seen as soon as their socket is ready.
    const rows = await presenceOf(agents.map((a) => a.id));
    expect(rows.every((r) => r.online && r.at !== null)).toBe(true);
    // One statement stamps all its users with the same time: 24 sockets, far fewer statements. How
    // many depends on how the connections spread over time (3 on an idle machine, 4-6 beside the
    // rest of the suite); one per socket would be 24.
    const statements = new Set(rows.map((r) => r.at!.getTime())).size;
    expect(statements).toBeLessThanOrEqual(agents.length / 3);

    await waitFor(() => agents.every((a) => events.some((e) => e.action === "update" && e.user.id === a.id)));
    await presenceSettled(adminLogin.token, adminSocket);
    for (const a of agents) {
      const mine = events.filter((e) => e.action === "update" && e.user.id === a.id);
      expect(mine).toEqual([{ action: "update", user: expect.objectContaining({ id: a.id, online: true }) }]);
    }
  });

  it("a second socket (another tab, another session) of a user already online raises no presence event", async () => {
    const { company, adminLogin, agents, tokens } = await companyWith(1);
    const agent = agents[0]!;
    const adminSocket = await socketFor(adminLogin.token);
    const events = record<UserEvent>(adminSocket, `company-${company.id}-user`);
    await socketFor(tokens[0]!);
    await waitFor(() => events.some((e) => e.action === "update" && e.user.id === agent.id));

    await socketFor(tokens[0]!);
    const secondSession = await login(ctx, agent.email);
    await socketFor(secondSession.token);
    await presenceSettled(adminLogin.token, adminSocket);
    expect(events.filter((e) => e.action === "update" && e.user.id === agent.id)).toHaveLength(1);
    expect((await presenceOf([agent.id]))[0]?.online).toBe(true);
  });

  it("the last socket closing stamps the user's last-seen time; they stay online until the sweep", async () => {
    const { company, agents, tokens } = await companyWith(3);
    const sockets = await Promise.all(tokens.map((t) => socketFor(t)));
    const leftAt = new Date(Date.now() + 60_000);
    ctx.clock.now = leftAt;
    for (const s of sockets) s.close();
    const ids = agents.map((a) => a.id);
    await waitFor(async () => (await presenceOf(ids)).every((r) => r.at?.getTime() === leftAt.getTime()));
    expect((await presenceOf(ids)).every((r) => r.online)).toBe(true);

    ctx.clock.now = new Date(leftAt.getTime() + 6 * 60_000);
    await ctx.built.realtime.sweepOffline();
    const after = await ctx.deps.db
      .select({ online: users.online })
      .from(users)
      .where(and(eq(users.companyId, company.id), inArray(users.id, ids)));
    expect(after.every((r) => !r.online)).toBe(true);
  });

  it("a user who logs out right after their socket asks for userStatus stays offline", async () => {
    const { agents, tokens, adminLogin } = await companyWith(1);
    const agent = agents[0]!;
    const adminSocket = await socketFor(adminLogin.token);
    const agentSocket = await socketFor(tokens[0]!);
    // The web client asks for userStatus on ready: that online mark waits for the company's next
    // presence window, and the logout below lands inside it.
    agentSocket.emit("userStatus");
    await caughtUp(agentSocket);
    const res = await ctx.app.inject({
      method: "DELETE",
      url: "/auth/logout",
      headers: { authorization: `Bearer ${tokens[0]!}` },
    });
    expect(res.statusCode).toBe(204);
    await presenceSettled(adminLogin.token, adminSocket);
    expect((await presenceOf([agent.id]))[0]?.online).toBe(false);
  });

  it("an instance shutting down writes the last-seen times of the sockets it closes", async () => {
    const { agents, tokens } = await companyWith(2);
    const other = await createTestContext(
      {},
      { database: { ...ctx.deps.database, close: async () => undefined } },
    );
    try {
      other.clock.now = new Date(Date.now() - 60_000);
      const otherUrl = await other.url();
      await Promise.all(tokens.map((t) => socketFor(t, otherUrl)));
      const closedAt = new Date(Date.now() + 60_000);
      other.clock.now = closedAt;
      await other.close();
      const rows = await presenceOf(agents.map((a) => a.id));
      expect(rows.map((r) => r.at?.getTime())).toEqual([closedAt.getTime(), closedAt.getTime()]);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});

describe("who hears presence", () => {
  it("an agent coming online reaches the admins and the agent's own sockets, not the other agents nor a supervisor; a user edited still reaches everyone", async () => {
    const { company, adminLogin, agents, tokens } = await companyWith(2);
    const [first, second] = agents as [(typeof agents)[0], (typeof agents)[0]];
    const supervisor = await buildUser(ctx.deps.db, company.id, { profile: "supervisor" });
    const supervisorLogin = await login(ctx, supervisor.email);
    const adminSocket = await socketFor(adminLogin.token);
    const adminEvents = record<UserEvent>(adminSocket, `company-${company.id}-user`);
    const supervisorSide = await listeningSocket(supervisorLogin.token, company.id);
    const firstSide = await listeningSocket(tokens[0]!, company.id);
    await waitFor(() => aboutUser(adminEvents, first.id).length === 1);

    const secondSide = await listeningSocket(tokens[1]!, company.id);
    await waitFor(() => aboutUser(adminEvents, second.id).length === 1);
    await presenceSettled(adminLogin.token, adminSocket);
    await Promise.all([supervisorSide, firstSide, secondSide].map((s) => caughtUp(s.socket)));

    expect(aboutUser(adminEvents, second.id)).toEqual([
      { action: "update", user: expect.objectContaining({ id: second.id, online: true }) },
    ]);
    // Its own socket hears it (clients of this API family keep their own user from these events).
    expect(aboutUser(secondSide.events, second.id)).toEqual([
      { action: "update", user: expect.objectContaining({ id: second.id, online: true }) },
    ]);
    // The other agent and the supervisor show no one's presence: they hear none of it.
    expect(aboutUser(firstSide.events, second.id)).toEqual([]);
    expect(supervisorSide.events.filter((e) => e.action !== "delete" && e.user.id !== supervisor.id)).toEqual(
      [],
    );

    // A user edited (user.saved) is not presence: the whole company hears it, as before.
    const res = await ctx.app.inject({
      method: "PUT",
      url: `/users/${second.id}`,
      headers: adminLogin.auth,
      payload: { name: "Renamed agent" },
    });
    expect(res.statusCode).toBe(200);
    for (const side of [firstSide, supervisorSide, { events: adminEvents }])
      await waitFor(() => aboutUser(side.events, second.id).some((e) => e.user.name === "Renamed agent"));
  });

  it("N agents connecting at once: the agents' sockets hear N presence events in all (each its own), the admin each agent once", async () => {
    const n = 20;
    const { company, adminLogin, agents, tokens } = await companyWith(n);
    const adminSocket = await socketFor(adminLogin.token);
    const adminEvents = record<UserEvent>(adminSocket, `company-${company.id}-user`);

    const sides = await Promise.all(tokens.map((t) => listeningSocket(t, company.id)));
    await waitFor(() => agents.every((a) => aboutUser(adminEvents, a.id).length > 0));
    await presenceSettled(adminLogin.token, adminSocket);
    await Promise.all(sides.map((s) => caughtUp(s.socket)));

    for (const a of agents) expect(aboutUser(adminEvents, a.id)).toHaveLength(1);
    // Told to the whole company, this was about n²/2 (every agent hearing each colleague who came
    // online after it joined); now each agent's socket hears only its own coming online.
    const heard = sides.reduce((sum, s) => sum + s.events.length, 0);
    expect(heard).toBeLessThanOrEqual(2 * n);
    sides.forEach((side, i) => {
      expect(side.events.every((e) => e.action !== "delete" && e.user.id === agents[i]!.id)).toBe(true);
    });
  });

  it("a profile change moves a user's open sockets into or out of the presence audience", async () => {
    const { company, adminLogin, agents, tokens } = await companyWith(3);
    const [watcher, second, third] = agents as [(typeof agents)[0], (typeof agents)[0], (typeof agents)[0]];
    const watcherSide = await listeningSocket(tokens[0]!, company.id);
    const adminSocket = await socketFor(adminLogin.token);
    const adminEvents = record<UserEvent>(adminSocket, `company-${company.id}-user`);
    const inAudience = async () =>
      (await ctx.built.realtime.io.in(rooms.presenceViewers(company.id)).fetchSockets()).some(
        (s) => s.data.auth.userId === watcher.id,
      );
    const setProfile = async (profile: "admin" | "user") => {
      const res = await ctx.app.inject({
        method: "PUT",
        url: `/users/${watcher.id}`,
        headers: adminLogin.auth,
        payload: { profile },
      });
      expect(res.statusCode).toBe(200);
    };

    await setProfile("admin");
    await waitFor(inAudience);
    await socketFor(tokens[1]!);
    await waitFor(() => aboutUser(adminEvents, second.id).length === 1);
    await presenceSettled(adminLogin.token, adminSocket);
    await caughtUp(watcherSide.socket);
    expect(aboutUser(watcherSide.events, second.id).filter((e) => e.user.online)).toHaveLength(1);

    await setProfile("user");
    await waitFor(async () => !(await inAudience()));
    await socketFor(tokens[2]!);
    await waitFor(() => aboutUser(adminEvents, third.id).length === 1);
    await presenceSettled(adminLogin.token, adminSocket);
    await caughtUp(watcherSide.socket);
    expect(aboutUser(watcherSide.events, third.id)).toEqual([]);
  });
});
