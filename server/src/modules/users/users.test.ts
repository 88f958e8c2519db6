import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import type { UserDTO } from "@atende/contracts";
import crypto from "node:crypto";
import { refreshTokens, userQueues, users } from "../../db/schema/index.js";
import { hashToken, newRefreshToken } from "../../http/tokens.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";
import {
  TEST_PASSWORD,
  buildCompany,
  buildQueue,
  buildTeam,
  buildUser,
  login,
} from "../../test/factories.js";
import { type Caller, caller, expectError } from "../../test/calls.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
});
afterAll(() => ctx.close());

type Page = { users: UserDTO[]; count: number; hasMore: boolean };

const call = caller(() => ctx);
const listPage = (who: Caller, query = "") => call("GET", `/users${query}`, who);
const listAll = (who: Caller, query = "") => call("GET", `/users/list${query}`, who);
const getUser = (who: Caller, id: number | string) => call("GET", `/users/${id}`, who);
const createUser = (who: Caller, body: unknown, headers?: Record<string, string>) =>
  call("POST", "/users", who, body, headers);
const updateUser = (who: Caller, id: number | string, body: unknown) =>
  call("PUT", `/users/${id}`, who, body);
const deleteUser = (who: Caller, id: number | string) => call("DELETE", `/users/${id}`, who);

/** The user's row as the database holds it now (null when gone). */
async function rowOf(id: number) {
  const [row] = await ctx.deps.db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}
async function queueIdsOf(userId: number) {
  const rows = await ctx.deps.db
    .select({ id: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, userId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
async function usersInCompany(companyId: number) {
  const [row] = await ctx.deps.db.select({ n: count() }).from(users).where(eq(users.companyId, companyId));
  return row!.n;
}
async function userWithEmail(email: string) {
  const [row] = await ctx.deps.db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}
async function canLogin(email: string, password: string) {
  const res = await ctx.app.inject({ method: "POST", url: "/auth/login", payload: { email, password } });
  return res.statusCode === 200;
}

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;
const newUserBody = (extra: Record<string, unknown> = {}) => ({
  name: "New Person",
  email: `${unique("new")}@test.local`,
  password: "Passw0rd",
  ...extra,
});

describe("GET /users", () => {
  it("answers {users, count, hasMore} with each user's queues and never a password hash", async () => {
    const team = await buildTeam(ctx);
    const res = await listPage(team.adminLogin);
    expect(res.statusCode).toBe(200);
    const body = res.json<Page>();
    expect(Object.keys(body).sort()).toEqual(["count", "hasMore", "users"]);
    expect(body.count).toBe(2);
    expect(body.hasMore).toBe(false);
    const agent = body.users.find((u) => u.id === team.agent.id)!;
    expect(agent).toMatchObject({
      id: team.agent.id,
      name: "Agent",
      email: team.agent.email,
      profile: "user",
      companyId: team.company.id,
      allTicket: "desabled",
    });
    expect(agent.queues).toEqual([{ id: team.queue.id, name: team.queue.name, color: team.queue.color }]);
    expect(body.users.find((u) => u.id === team.admin.id)!.queues).toEqual([]);
    for (const u of body.users) expect(u).not.toHaveProperty("passwordHash");
    expect(res.body).not.toMatch(/passwordHash|password_hash|\$argon2/);
  });

  it("pages by 20 with pageNumber, with hasMore while more remain", async () => {
    const team = await buildTeam(ctx);
    for (let i = 0; i < 21; i++)
      await buildUser(ctx.deps.db, team.company.id, { name: `Paged ${String(i).padStart(2, "0")}` });
    const page1 = (await listPage(team.adminLogin)).json<Page>();
    const page2 = (await listPage(team.adminLogin, "?pageNumber=2")).json<Page>();
    const page3 = (await listPage(team.adminLogin, "?pageNumber=3")).json<Page>();
    expect(page1).toMatchObject({ count: 23, hasMore: true });
    expect(page1.users).toHaveLength(20);
    expect(page2).toMatchObject({ count: 23, hasMore: false });
    expect(page2.users).toHaveLength(3);
    expect(page3).toMatchObject({ users: [], count: 23, hasMore: false });
    const seen = [...page1.users, ...page2.users].map((u) => u.id);
    expect(new Set(seen).size).toBe(23);
  });

  it("searches name and email, case-insensitively, and counts only the matches", async () => {
    const team = await buildTeam(ctx);
    const byName = await buildUser(ctx.deps.db, team.company.id, { name: "Mariana Souza" });
    const byEmail = await buildUser(ctx.deps.db, team.company.id, {
      name: "Pedro",
      email: `ana.mariana.${unique("x")}@test.local`,
    });
    await buildUser(ctx.deps.db, team.company.id, {
      name: "Carlos",
      email: `carlos.${unique("x")}@test.local`,
    });

    const res = await listPage(team.adminLogin, "?searchParam=MARIANA");
    expect(res.statusCode).toBe(200);
    const body = res.json<Page>();
    expect(body.users.map((u) => u.id).sort()).toEqual([byName.id, byEmail.id].sort());
    expect(body).toMatchObject({ count: 2, hasMore: false });

    // A LIKE wildcard typed in the search box is a character, not "match anything".
    const wildcard = (
      await listPage(team.adminLogin, `?searchParam=${encodeURIComponent("%")}`)
    ).json<Page>();
    expect(wildcard).toMatchObject({ users: [], count: 0 });
  });

  it("refuses a plain user with 403 ERR_NO_PERMISSION and a caller without a token with 401", async () => {
    const team = await buildTeam(ctx);
    const res = await listPage(team.agentLogin);
    expectError(res, 403, "ERR_NO_PERMISSION");
    expect(res.json().message).toBeTruthy();
    expectError(await listPage(null), 401, "ERR_NO_SESSION");
  });

  it("answers 400 ERR_VALIDATION, never 500, for bad paging and search input", async () => {
    const team = await buildTeam(ctx);
    for (const query of [
      "?pageNumber=0",
      "?pageNumber=-3",
      "?pageNumber=abc",
      "?pageNumber=1.5",
      `?searchParam=${"x".repeat(101)}`,
    ]) {
      const res = await listPage(team.adminLogin, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toBe("ERR_VALIDATION");
    }
  });

  it("answers a search carrying a NUL byte without a 500", async () => {
    const team = await buildTeam(ctx);
    const res = await listPage(team.adminLogin, "?searchParam=ab%00cd");
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe("GET /users/list", () => {
  it("answers every user of the caller's company to any user, with queues", async () => {
    const team = await buildTeam(ctx);
    const res = await listAll(team.agentLogin);
    expect(res.statusCode).toBe(200);
    const list = res.json<UserDTO[]>();
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((u) => u.id).sort()).toEqual([team.admin.id, team.agent.id].sort());
    expect(list.find((u) => u.id === team.agent.id)!.queues).toEqual([
      { id: team.queue.id, name: team.queue.name, color: team.queue.color },
    ]);
    expect(res.body).not.toMatch(/passwordHash|\$argon2/);
  });
});

describe("GET /users/:id", () => {
  it("lets an admin read a user of the company and a plain user read only themselves", async () => {
    const team = await buildTeam(ctx);
    const byAdmin = await getUser(team.adminLogin, team.agent.id);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ id: team.agent.id, queues: [{ id: team.queue.id }] });
    expect(byAdmin.json()).not.toHaveProperty("passwordHash");

    expect((await getUser(team.agentLogin, team.agent.id)).json()).toMatchObject({ id: team.agent.id });
    expectError(await getUser(team.agentLogin, team.admin.id), 403, "ERR_NO_PERMISSION");
    expectError(await getUser(team.adminLogin, 2_000_000_000), 404, "ERR_NO_USER_FOUND");
  });
});

describe("POST /users", () => {
  it("creates the user with defaults (profile user, allTicket desabled) and answers 201 with it; the user can log in", async () => {
    const team = await buildTeam(ctx);
    const body = newUserBody({ name: "Fresh Agent", email: `Fresh.${unique("a")}@Test.Local` });
    const res = await createUser(team.adminLogin, body);
    expect(res.statusCode).toBe(201);
    const created = res.json<UserDTO>();
    expect(created).toMatchObject({
      name: "Fresh Agent",
      email: (body.email as string).toLowerCase(),
      profile: "user",
      allTicket: "desabled",
      companyId: team.company.id,
      super: false,
      queues: [],
    });
    expect(created).not.toHaveProperty("passwordHash");
    expect(created).not.toHaveProperty("password");
    expect(await rowOf(created.id)).toMatchObject({ companyId: team.company.id, name: "Fresh Agent" });
    expect(await canLogin(created.email, "Passw0rd")).toBe(true);
  });

  it("stores the profile, allTicket and queues as given", async () => {
    const team = await buildTeam(ctx);
    const other = await buildQueue(ctx.deps.db, team.company.id, { name: "AAA first" });
    const res = await createUser(
      team.adminLogin,
      newUserBody({ profile: "admin", allTicket: "enabled", queueIds: [team.queue.id, other.id] }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json<UserDTO>();
    expect(created).toMatchObject({ profile: "admin", allTicket: "enabled" });
    expect(created.queues.map((q) => q.id).sort()).toEqual([team.queue.id, other.id].sort());
    expect(created.queues.find((q) => q.id === other.id)).toEqual({
      id: other.id,
      name: "AAA first",
      color: other.color,
    });
    expect(await queueIdsOf(created.id)).toEqual([team.queue.id, other.id].sort((a, b) => a - b));
  });

  it("refuses an email already used (in any case, in any company) with 409 ERR_EMAIL_ALREADY_EXISTS and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const elsewhere = await buildCompany(ctx.deps.db);
    const taken = await buildUser(ctx.deps.db, elsewhere.id, { email: `taken.${unique("t")}@test.local` });
    const before = await usersInCompany(team.company.id);
    for (const email of [
      team.agent.email,
      team.agent.email.toUpperCase(),
      ` ${taken.email.toUpperCase()} `,
    ]) {
      const res = await createUser(team.adminLogin, newUserBody({ email }));
      expectError(res, 409, "ERR_EMAIL_ALREADY_EXISTS");
    }
    expect(await usersInCompany(team.company.id)).toBe(before);
  });

  it("refuses a company at its plan's user limit with 403 ERR_PLAN_USER_LIMIT and creates nothing", async () => {
    const team = await buildTeam(ctx, { planUsers: 2 });
    const body = newUserBody();
    const res = await createUser(team.adminLogin, body);
    expectError(res, 403, "ERR_PLAN_USER_LIMIT");
    expect(await usersInCompany(team.company.id)).toBe(2);
    expect(await userWithEmail(body.email as string)).toBeNull();
  });

  it("refuses a queue of another company with 404 ERR_NO_QUEUE_FOUND and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const other = await buildTeam(ctx);
    const body = newUserBody({ queueIds: [team.queue.id, other.queue.id] });
    const res = await createUser(team.adminLogin, body);
    expectError(res, 404, "ERR_NO_QUEUE_FOUND");
    expect(await usersInCompany(team.company.id)).toBe(2);
    expect(await userWithEmail(body.email as string)).toBeNull();
  });

  it("answers 400 ERR_VALIDATION with the spec's field messages for bad bodies, and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const cases: { body: unknown; fields: Record<string, string> }[] = [
      { body: newUserBody({ name: "A" }), fields: { name: "Too Short!" } },
      { body: newUserBody({ name: "x".repeat(51) }), fields: { name: "Too Long!" } },
      { body: newUserBody({ email: "not-an-email" }), fields: { email: "Invalid email" } },
      { body: newUserBody({ password: "1234" }), fields: { password: "Too Short!" } },
      { body: newUserBody({ password: "p".repeat(51) }), fields: { password: "Too Long!" } },
      {
        body: newUserBody({ profile: "root" }),
        fields: { profile: expect.any(String) as unknown as string },
      },
      { body: {}, fields: { name: "Required", email: "Required", password: "Required" } },
      { body: { name: "Only Name" }, fields: { email: "Required", password: "Required" } },
    ];
    const before = await usersInCompany(team.company.id);
    for (const { body, fields } of cases) {
      const res = await createUser(team.adminLogin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().fields).toEqual(fields);
    }
    // Bodies that are not an object at all.
    for (const raw of ['"just a string"', "[1,2]", "null", "{not json"]) {
      const res = await createUser(team.adminLogin, raw, { "content-type": "application/json" });
      expect(res.statusCode, raw).toBe(400);
      expect(res.json().error, raw).toBe("ERR_VALIDATION");
      expect(res.json().fields, raw).toBeTruthy();
    }
    expect(await usersInCompany(team.company.id)).toBe(before);
  });

  it("refuses a plain user with 403 ERR_NO_PERMISSION and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const body = newUserBody();
    expectError(await createUser(team.agentLogin, body), 403, "ERR_NO_PERMISSION");
    expect(await usersInCompany(team.company.id)).toBe(2);
    expect(await userWithEmail(body.email as string)).toBeNull();
  });

  it("ignores fields a client may not set (companyId, super, online)", async () => {
    const team = await buildTeam(ctx);
    const other = await buildCompany(ctx.deps.db);
    const res = await createUser(
      team.adminLogin,
      newUserBody({ companyId: other.id, super: true, online: true }),
    );
    expect(res.statusCode).toBe(201);
    const created = res.json<UserDTO>();
    expect(created).toMatchObject({ companyId: team.company.id, super: false });
    expect(await rowOf(created.id)).toMatchObject({ companyId: team.company.id, super: false });
    expect(await usersInCompany(other.id)).toBe(0);
  });

  it("two companies creating the same email at once: one 201, the other 409, never a 500", async () => {
    const a = await buildTeam(ctx);
    const b = await buildTeam(ctx);
    // Several rounds: the two requests must overlap inside their transactions at least once.
    for (let round = 0; round < 8; round++) {
      const email = `race.${unique("r")}@test.local`;
      const results = await Promise.all([
        createUser(a.adminLogin, newUserBody({ email })),
        createUser(b.adminLogin, newUserBody({ email })),
      ]);
      expect(results.map((r) => r.statusCode).sort(), results.map((r) => r.body).join(" | ")).toEqual([
        201, 409,
      ]);
      const [row] = await ctx.deps.db.select({ n: count() }).from(users).where(eq(users.email, email));
      expect(row!.n).toBe(1);
    }
  });
});

describe("PUT /users/:id", () => {
  it("lets an admin change name, email, profile, queues and allTicket", async () => {
    const team = await buildTeam(ctx);
    const second = await buildQueue(ctx.deps.db, team.company.id);
    const email = `edited.${unique("e")}@test.local`;
    const res = await updateUser(team.adminLogin, team.agent.id, {
      name: "Renamed",
      email: email.toUpperCase(),
      profile: "supervisor",
      queueIds: [second.id],
      allTicket: "enabled",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: team.agent.id,
      name: "Renamed",
      email,
      profile: "supervisor",
      allTicket: "enabled",
      queues: [{ id: second.id, name: second.name, color: second.color }],
    });
    expect(res.json()).not.toHaveProperty("passwordHash");
    expect(await rowOf(team.agent.id)).toMatchObject({
      name: "Renamed",
      email,
      profile: "supervisor",
      allTicket: "enabled",
    });
    expect(await queueIdsOf(team.agent.id)).toEqual([second.id]);
  });

  it("keeps the old password when the password is sent empty", async () => {
    const team = await buildTeam(ctx);
    const res = await updateUser(team.adminLogin, team.agent.id, { name: "Same Password", password: "" });
    expect(res.statusCode).toBe(200);
    expect(await canLogin(team.agent.email, TEST_PASSWORD)).toBe(true);
  });

  it("a new password works at the next login and the old one no longer does", async () => {
    const team = await buildTeam(ctx);
    expect((await updateUser(team.adminLogin, team.agent.id, { password: "BrandNew1" })).statusCode).toBe(
      200,
    );
    expect(await canLogin(team.agent.email, "BrandNew1")).toBe(true);
    expect(await canLogin(team.agent.email, TEST_PASSWORD)).toBe(false);
  });

  it("lets a plain user change their own name, email and password", async () => {
    const team = await buildTeam(ctx);
    const email = `self.${unique("s")}@test.local`;
    const res = await updateUser(team.agentLogin, team.agent.id, {
      name: "Me Myself",
      email,
      password: "MyOwnPass",
      oldPassword: TEST_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Me Myself", email, profile: "user" });
    expect(await canLogin(email, "MyOwnPass")).toBe(true);
  });

  it("lets a plain user resend their own profile, queues and allTicket unchanged (as the edit form does)", async () => {
    const team = await buildTeam(ctx);
    const res = await updateUser(team.agentLogin, team.agent.id, {
      name: "Unchanged Rest",
      profile: "user",
      queueIds: [team.queue.id],
      allTicket: "desabled",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Unchanged Rest" });
  });

  it("refuses a plain user changing their own profile, queues or allTicket with 403, and changes nothing", async () => {
    const team = await buildTeam(ctx);
    const other = await buildQueue(ctx.deps.db, team.company.id);
    for (const change of [
      { profile: "admin" },
      { queueIds: [team.queue.id, other.id] },
      { queueIds: [] },
      { allTicket: "enabled" },
    ]) {
      const res = await updateUser(team.agentLogin, team.agent.id, { name: "Sneaky", ...change });
      expectError(res, 403, "ERR_NO_PERMISSION");
    }
    expect(await rowOf(team.agent.id)).toMatchObject({
      name: "Agent",
      profile: "user",
      allTicket: "desabled",
    });
    expect(await queueIdsOf(team.agent.id)).toEqual([team.queue.id]);
  });

  it("refuses a plain user editing another user with 403, and changes nothing", async () => {
    const team = await buildTeam(ctx);
    const colleague = await buildUser(ctx.deps.db, team.company.id, { name: "Colleague" });
    expectError(
      await updateUser(team.agentLogin, colleague.id, { name: "Hijacked" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await updateUser(team.agentLogin, team.admin.id, { password: "Hijacked1" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expect((await rowOf(colleague.id))!.name).toBe("Colleague");
    expect(await canLogin(team.admin.email, TEST_PASSWORD)).toBe(true);
  });

  it("refuses demoting the last admin with 400 ERR_LAST_ADMIN; with a second admin it is allowed", async () => {
    const team = await buildTeam(ctx);
    expectError(await updateUser(team.adminLogin, team.admin.id, { profile: "user" }), 400, "ERR_LAST_ADMIN");
    expect((await rowOf(team.admin.id))!.profile).toBe("admin");

    const second = await buildUser(ctx.deps.db, team.company.id, { profile: "admin" });
    const res = await updateUser(team.adminLogin, second.id, { profile: "user" });
    expect(res.statusCode).toBe(200);
    expect((await rowOf(second.id))!.profile).toBe("user");
  });

  it("refuses an email used by another user with 409, and changes nothing", async () => {
    const team = await buildTeam(ctx);
    const res = await updateUser(team.adminLogin, team.agent.id, {
      name: "Clash",
      email: team.admin.email.toUpperCase(),
    });
    expectError(res, 409, "ERR_EMAIL_ALREADY_EXISTS");
    expect(await rowOf(team.agent.id)).toMatchObject({ name: "Agent", email: team.agent.email });
  });

  it("answers 400 ERR_VALIDATION with field messages for a bad body, and changes nothing", async () => {
    const team = await buildTeam(ctx);
    const cases = [
      { body: { name: "A" }, fields: { name: "Too Short!" } },
      { body: { name: "x".repeat(51) }, fields: { name: "Too Long!" } },
      { body: { email: "nope" }, fields: { email: "Invalid email" } },
      { body: { password: "1234" }, fields: { password: "Too Short!" } },
      { body: { password: "p".repeat(51) }, fields: { password: "Too Long!" } },
    ];
    for (const { body, fields } of cases) {
      const res = await updateUser(team.adminLogin, team.agent.id, { ...body, profile: "admin" });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_VALIDATION", fields });
    }
    expect(await rowOf(team.agent.id)).toMatchObject({
      name: "Agent",
      email: team.agent.email,
      profile: "user",
    });
    expect(await canLogin(team.agent.email, TEST_PASSWORD)).toBe(true);
  });
});

describe("a password change ends the user's other sessions", () => {
  /** A second live session of the user (another device), made as login makes one. */
  async function secondSession(companyId: number, userId: number) {
    const sessionId = crypto.randomUUID();
    const refreshToken = newRefreshToken();
    await ctx.deps.db.insert(refreshTokens).values({
      companyId,
      userId,
      sessionId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const token = await ctx.deps.tokens.sign({ userId, companyId, sessionId });
    return { token, cookie: `jrt=${refreshToken}`, auth: { authorization: `Bearer ${token}` } };
  }
  const me = (who: { auth: { authorization: string } }) => call("GET", "/auth/me", who);
  const refresh = (cookie: string) =>
    ctx.app.inject({ method: "POST", url: "/auth/refresh_token", headers: { cookie } });

  it("one's own password needs the current one: missing or wrong is 400 ERR_INVALID_CREDENTIALS and changes nothing", async () => {
    const team = await buildTeam(ctx);
    for (const body of [
      { name: "Taken Over", password: "Stolen123" },
      { name: "Taken Over", password: "Stolen123", oldPassword: "not-it" },
    ]) {
      const res = await updateUser(team.agentLogin, team.agent.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_INVALID_CREDENTIALS");
    }
    expect((await rowOf(team.agent.id))!.name).toBe("Agent");
    expect(await canLogin(team.agent.email, TEST_PASSWORD)).toBe(true);
  });

  it("a self-change keeps only the session that made it, with a fresh refresh token; the others end at once", async () => {
    const team = await buildTeam(ctx);
    const url = await ctx.url();
    const other = await secondSession(team.company.id, team.agent.id);
    const otherSocket = await connectSocket(url, other.token);
    const ownSocket = await connectSocket(url, team.agentLogin.token);
    try {
      const res = await updateUser(team.agentLogin, team.agent.id, {
        password: "Changed123",
        oldPassword: TEST_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      const fresh = res.cookies.find((c) => c.name === "jrt");
      expect(fresh?.value).toBeTruthy();
      expect(`jrt=${fresh!.value}`).not.toBe(team.agentLogin.cookie);

      // The other session: its token, refresh cookie and socket are dead at once.
      expect((await me(other)).statusCode).toBe(401);
      expect((await refresh(other.cookie)).statusCode).toBe(401);
      await waitFor(() => !otherSocket.connected, 1_000);
      // The session that changed it goes on: its access token, its socket, and the fresh cookie
      // (the old refresh cookie, a copy of which a thief may hold, is dead).
      expect((await me(team.agentLogin)).statusCode).toBe(200);
      expect((await refresh(team.agentLogin.cookie)).statusCode).toBe(401);
      expect((await refresh(`jrt=${fresh!.value}`)).statusCode).toBe(200);
      expect(ownSocket.connected).toBe(true);
      expect(await canLogin(team.agent.email, "Changed123")).toBe(true);
    } finally {
      otherSocket.close();
      ownSocket.close();
    }
  });

  it("an admin sets another user's password without the current one, and every session of that user ends", async () => {
    const team = await buildTeam(ctx);
    const agentSocket = await connectSocket(await ctx.url(), team.agentLogin.token);
    try {
      const res = await updateUser(team.adminLogin, team.agent.id, { password: "ByAdmin123" });
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === "jrt")).toBeUndefined();
      expect((await me(team.agentLogin)).statusCode).toBe(401);
      expect((await refresh(team.agentLogin.cookie)).statusCode).toBe(401);
      await waitFor(() => !agentSocket.connected, 1_000);
      // The admin's own session is untouched.
      expect((await me(team.adminLogin)).statusCode).toBe(200);
    } finally {
      agentSocket.close();
    }
  });

  it("a change without a new password ends no session", async () => {
    const team = await buildTeam(ctx);
    expect((await updateUser(team.agentLogin, team.agent.id, { name: "Just Renamed" })).statusCode).toBe(200);
    expect((await updateUser(team.adminLogin, team.agent.id, { name: "Renamed Again" })).statusCode).toBe(
      200,
    );
    expect((await me(team.agentLogin)).statusCode).toBe(200);
    expect((await refresh(team.agentLogin.cookie)).statusCode).toBe(200);
  });
});

describe("DELETE /users/:id", () => {
  it("lets an admin delete a user: 204, the row is gone and the user's session is dead", async () => {
    const team = await buildTeam(ctx);
    const res = await deleteUser(team.adminLogin, team.agent.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(await rowOf(team.agent.id)).toBeNull();
    expect(await queueIdsOf(team.agent.id)).toEqual([]);
    const me = await call("GET", "/auth/me", team.agentLogin);
    expectError(me, 401, "ERR_NO_SESSION");
    expect(await canLogin(team.agent.email, TEST_PASSWORD)).toBe(false);
    expectError(await getUser(team.adminLogin, team.agent.id), 404, "ERR_NO_USER_FOUND");
  });

  it("refuses an admin deleting themselves with 400 ERR_CANNOT_DELETE_SELF", async () => {
    const team = await buildTeam(ctx);
    expectError(await deleteUser(team.adminLogin, team.admin.id), 400, "ERR_CANNOT_DELETE_SELF");
    expect(await rowOf(team.admin.id)).not.toBeNull();
  });

  it("refuses a plain user with 403 ERR_NO_PERMISSION, for others and for themselves", async () => {
    const team = await buildTeam(ctx);
    expectError(await deleteUser(team.agentLogin, team.admin.id), 403, "ERR_NO_PERMISSION");
    expectError(await deleteUser(team.agentLogin, team.agent.id), 403, "ERR_NO_PERMISSION");
    expect(await rowOf(team.admin.id)).not.toBeNull();
    expect(await rowOf(team.agent.id)).not.toBeNull();
  });
});

describe("tenant isolation", () => {
  it("GET, PUT and DELETE /users/:id on another company's user answer 404 ERR_NO_USER_FOUND and change nothing", async () => {
    const a = await buildTeam(ctx);
    const b = await buildTeam(ctx);
    const before = await rowOf(b.agent.id);

    expectError(await getUser(a.adminLogin, b.agent.id), 404, "ERR_NO_USER_FOUND");
    expectError(await getUser(a.agentLogin, b.agent.id), 404, "ERR_NO_USER_FOUND");
    const put = await updateUser(a.adminLogin, b.agent.id, {
      name: "Taken Over",
      password: "Stolen123",
      profile: "admin",
      queueIds: [],
    });
    expectError(put, 404, "ERR_NO_USER_FOUND");
    expectError(await deleteUser(a.adminLogin, b.agent.id), 404, "ERR_NO_USER_FOUND");
    expectError(await deleteUser(a.adminLogin, b.admin.id), 404, "ERR_NO_USER_FOUND");

    expect(await rowOf(b.agent.id)).toEqual(before);
    expect(await rowOf(b.admin.id)).not.toBeNull();
    expect(await queueIdsOf(b.agent.id)).toEqual([b.queue.id]);
    expect(await canLogin(b.agent.email, TEST_PASSWORD)).toBe(true);
  });

  it("GET /users and GET /users/list never contain another company's users, whatever the query says", async () => {
    const a = await buildTeam(ctx);
    const b = await buildTeam(ctx);
    const bIds = [b.admin.id, b.agent.id];

    const page = (
      await listPage(a.adminLogin, `?searchParam=${encodeURIComponent(b.agent.email)}`)
    ).json<Page>();
    expect(page).toMatchObject({ users: [], count: 0 });
    const all = (await listPage(a.adminLogin)).json<Page>();
    expect(all.users.map((u) => u.id).sort()).toEqual([a.admin.id, a.agent.id].sort());
    for (const who of [a.adminLogin, a.agentLogin]) {
      const list = (await listAll(who, `?companyId=${b.company.id}`)).json<UserDTO[]>();
      expect(list.map((u) => u.id).sort()).toEqual([a.admin.id, a.agent.id].sort());
      expect(list.some((u) => bIds.includes(u.id))).toBe(false);
    }
  });

  it("a body carrying another company's companyId creates the user in the caller's company", async () => {
    const a = await buildTeam(ctx);
    const b = await buildTeam(ctx);
    const res = await createUser(a.adminLogin, newUserBody({ companyId: b.company.id }));
    expect(res.statusCode).toBe(201);
    expect(res.json().companyId).toBe(a.company.id);
    expect((await rowOf(res.json<UserDTO>().id))!.companyId).toBe(a.company.id);
    expect(await usersInCompany(b.company.id)).toBe(2);
    const bList = (await listAll(b.adminLogin)).json<UserDTO[]>();
    expect(bList.some((u) => u.id === res.json<UserDTO>().id)).toBe(false);
  });
});

describe("bad input never answers 500", () => {
  it("malformed or out-of-range ids answer 4xx on every /users/:id route", async () => {
    const team = await buildTeam(ctx);
    for (const id of ["abc", "0", "-1", "1.5", "99999999999", "1e400"]) {
      for (const res of [
        await getUser(team.adminLogin, id),
        await updateUser(team.adminLogin, id, { name: "Whatever" }),
        await deleteUser(team.adminLogin, id),
      ]) {
        expect(res.statusCode, `${res.raw.req.method} /users/${id}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${res.raw.req.method} /users/${id}: ${res.body}`).toBeLessThan(500);
      }
    }
  });

  it("an out-of-range queue id answers 4xx and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const body = newUserBody({ queueIds: [99999999999] });
    const res = await createUser(team.adminLogin, body);
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(await userWithEmail(body.email as string)).toBeNull();

    const put = await updateUser(team.adminLogin, team.agent.id, { queueIds: [99999999999] });
    expect(put.statusCode, put.body).toBeGreaterThanOrEqual(400);
    expect(put.statusCode, put.body).toBeLessThan(500);
    expect(await queueIdsOf(team.agent.id)).toEqual([team.queue.id]);
  });

  it("a name carrying a NUL byte answers 4xx and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const body = newUserBody({ name: "Bad\u0000Name" });
    const res = await createUser(team.adminLogin, body);
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(await userWithEmail(body.email as string)).toBeNull();
  });

  it("wrong types in the body answer 400, not 500", async () => {
    const team = await buildTeam(ctx);
    const before = await usersInCompany(team.company.id);
    for (const extra of [
      { name: 42 },
      { email: ["a@b.c"] },
      { password: { x: 1 } },
      { queueIds: "1,2" },
      { queueIds: [-1] },
      { allTicket: true },
    ]) {
      const res = await createUser(team.adminLogin, newUserBody(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      const put = await updateUser(team.adminLogin, team.agent.id, extra);
      expect(put.statusCode, JSON.stringify(extra)).toBe(400);
    }
    expect(await usersInCompany(team.company.id)).toBe(before);
    expect(await rowOf(team.agent.id)).toMatchObject({ name: "Agent", email: team.agent.email });
  });
});

describe("the platform's super user", () => {
  /** The platform's company: its super user, an admin who is not super, an agent, and a queue and connection. */
  async function platform() {
    const team = await buildTeam(ctx);
    const root = await buildUser(ctx.deps.db, team.company.id, { profile: "admin", super: true });
    const rootLogin = await login(ctx, root.email);
    return { ...team, root, rootLogin };
  }
  const me = (who: Caller) => call("GET", "/auth/me", who);

  it("an admin of its company who is not super gets 403 on every change to it; its login, email and session are unchanged", async () => {
    const p = await platform();
    const before = await rowOf(p.root.id);
    const queuesBefore = await queueIdsOf(p.root.id);
    const takeovers: Record<string, unknown>[] = [
      { email: `${unique("taken")}@test.local` },
      { password: "Stolen123" },
      { email: `${unique("taken")}@test.local`, password: "Stolen123" },
      { name: "Taken Over" },
      { profile: "user" },
      { allTicket: "enabled" },
      { queueIds: [p.queue.id] },
      { whatsappId: null },
      { super: false },
      {},
    ];
    for (const body of takeovers)
      expectError(await updateUser(p.adminLogin, p.root.id, body), 403, "ERR_NO_PERMISSION");
    expectError(await deleteUser(p.adminLogin, p.root.id), 403, "ERR_NO_PERMISSION");
    // An agent is refused too, and another company's admin does not find it.
    const stranger = await buildTeam(ctx);
    expectError(
      await updateUser(p.agentLogin, p.root.id, { password: "Stolen123" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await deleteUser(p.agentLogin, p.root.id), 403, "ERR_NO_PERMISSION");
    expectError(
      await updateUser(stranger.adminLogin, p.root.id, { password: "Stolen123" }),
      404,
      "ERR_NO_USER_FOUND",
    );
    expectError(await deleteUser(stranger.adminLogin, p.root.id), 404, "ERR_NO_USER_FOUND");
    // The admin ending their own session touches no other.
    expect((await call("DELETE", "/auth/logout", p.adminLogin)).statusCode).toBe(204);

    expect(await rowOf(p.root.id)).toEqual(before);
    expect(await queueIdsOf(p.root.id)).toEqual(queuesBefore);
    expect((await me(p.rootLogin)).statusCode).toBe(200);
    expect(await canLogin(p.root.email, TEST_PASSWORD)).toBe(true);
    expect(await canLogin(p.root.email, "Stolen123")).toBe(false);
  });

  it("no admin makes anyone super, themselves included", async () => {
    const p = await platform();
    for (const id of [p.admin.id, p.agent.id])
      expect((await updateUser(p.adminLogin, id, { super: true, name: "Still Plain" })).statusCode).toBe(200);
    const created = await createUser(p.adminLogin, newUserBody({ super: true }));
    expect(created.statusCode).toBe(201);
    for (const id of [p.admin.id, p.agent.id, created.json<UserDTO>().id])
      expect(await rowOf(id)).toMatchObject({ super: false });
    expectError(await call("GET", "/companies", p.adminLogin), 403, "ERR_NO_PERMISSION");
  });

  it("a super user edits, resets the password of, demotes and deletes another super user, and edits themselves", async () => {
    const p = await platform();
    const other = await buildUser(ctx.deps.db, p.company.id, { profile: "admin", super: true });
    const email = `${unique("moved")}@test.local`;
    const res = await updateUser(p.rootLogin, other.id, { email, password: "ByRoot123", profile: "user" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<UserDTO>()).toMatchObject({ email, profile: "user", super: true });
    expect(await canLogin(email, "ByRoot123")).toBe(true);
    expect((await updateUser(p.rootLogin, p.root.id, { name: "Root" })).json<UserDTO>().name).toBe("Root");
    expect((await deleteUser(p.rootLogin, other.id)).statusCode).toBe(204);
    expect(await rowOf(other.id)).toBeNull();
  });
});
