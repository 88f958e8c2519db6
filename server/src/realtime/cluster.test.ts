import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import {
  type TestContext,
  connectSocket,
  createTestContext,
  openTestDatabase,
  record,
  waitFor,
  TEST_REDIS_URL,
} from "../test/harness.js";
import { buildCompany, buildUser, login } from "../test/factories.js";
import { caughtUp } from "../test/settled.js";

/**
 * Two instances of the app on one database and one Redis: an event raised on instance B reaches
 * a socket connected to instance A, and stays within its company.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: TestContext;
let b: TestContext;
const sockets: Socket[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  a = await createTestContext({ REDIS_URL: TEST_REDIS_URL }, { database });
  b = await createTestContext({ REDIS_URL: TEST_REDIS_URL }, { database });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await a.close();
  await b.close();
  await database.drop();
});

describe("several instances through the Redis adapter", () => {
  it("a user created through instance B reaches an admin socket on instance A, not another company", async () => {
    const company = await buildCompany(database.db);
    const other = await buildCompany(database.db);
    const admin = await buildUser(database.db, company.id, { profile: "admin" });
    const outsider = await buildUser(database.db, other.id, { profile: "admin" });

    const adminOnB = await login(b, admin.email);
    const socketOnA = await connectSocket(await a.url(), (await login(a, outsider.email)).token);
    sockets.push(socketOnA);
    const outsiderEvents: string[] = [];
    socketOnA.onAny((name: string) => outsiderEvents.push(name));

    // The admin's own socket also lives on A, so the event must cross from B to A through Redis.
    const adminSocket = await connectSocket(await a.url(), adminOnB.token);
    sockets.push(adminSocket);
    const got = record<{ action: string; user: { email: string } }>(
      adminSocket,
      `company-${company.id}-user`,
    );

    const res = await b.app.inject({
      method: "POST",
      url: "/users",
      headers: adminOnB.auth,
      payload: { name: "Across", email: "across@cluster.test", password: "12345" },
    });
    expect(res.statusCode).toBe(201);
    await waitFor(() => got.some((e) => e.action === "create" && e.user.email === "across@cluster.test"));
    // Instance A handed the event to its sockets at once: the outsider's would have had it by now.
    await caughtUp(socketOnA);
    expect(outsiderEvents.filter((n) => n.startsWith(`company-${company.id}-`))).toEqual([]);
  });

  it("a logout through instance B cuts that session's socket on instance A within a second", async () => {
    const company = await buildCompany(database.db);
    const agent = await buildUser(database.db, company.id);
    const session = await login(b, agent.email);
    const socketOnA = await connectSocket(await a.url(), session.token);
    sockets.push(socketOnA);
    const out = await b.app.inject({
      method: "DELETE",
      url: "/auth/logout",
      headers: { ...session.auth, cookie: session.cookie },
    });
    expect(out.statusCode).toBe(204);
    await waitFor(() => !socketOnA.connected, 1_000);
  });

  it("a company made inactive through instance B: its socket on instance A is told and closed, its requests there refused", async () => {
    const platform = await buildCompany(database.db);
    const root = await buildUser(database.db, platform.id, { profile: "admin", super: true });
    const company = await buildCompany(database.db);
    const agent = await buildUser(database.db, company.id);
    const session = await login(a, agent.email);
    const socketOnA = await connectSocket(await a.url(), session.token);
    sockets.push(socketOnA);
    const told = record<{ error: string }>(socketOnA, `company-${company.id}-locked`);
    const res = await b.app.inject({
      method: "PUT",
      url: `/companies/${company.id}`,
      headers: (await login(b, root.email)).auth,
      payload: { status: false },
    });
    expect(res.statusCode).toBe(200);
    await waitFor(() => !socketOnA.connected, 1_000);
    expect(told).toEqual([{ error: "ERR_COMPANY_INACTIVE" }]);
    const refused = await a.app.inject({ method: "GET", url: "/auth/me", headers: session.auth });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("ERR_COMPANY_INACTIVE");
  });
});
