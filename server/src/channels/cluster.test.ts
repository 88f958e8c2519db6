import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { whatsappLeases, whatsapps } from "../db/schema/index.js";
import { connectSimulator, phoneSends } from "../test/channels.js";
import { buildCompany, buildQueue, buildUser, login, buildConnection } from "../test/factories.js";
import {
  type TestContext,
  connectSocket,
  createTestContext,
  openTestDatabase,
  record,
  waitFor,
  TEST_REDIS_URL,
} from "../test/harness.js";

/**
 * Two instances of one deployment (one database, one Redis): a connection's session is owned by
 * one instance through its lease; events cross instances; when the owner stops, the other takes over.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: TestContext;
let b: TestContext;
const sockets: Socket[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  const config = { REDIS_URL: TEST_REDIS_URL, SESSION_LEASE_SECONDS: 3 };
  a = await createTestContext(config, { database });
  b = await createTestContext(config, { database });
  a.built.startBackground();
  b.built.startBackground();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await a.close().catch(() => undefined);
  await b.close();
  await database.drop();
});

async function leaseOwner(whatsappId: number) {
  const [row] = await database.db
    .select()
    .from(whatsappLeases)
    .where(eq(whatsappLeases.whatsappId, whatsappId));
  return row?.ownerId ?? null;
}

describe("a connection's session across instances", () => {
  it("one instance owns the session; a message through the other reaches an agent socket anywhere; the session moves when its owner stops", async () => {
    const company = await buildCompany(database.db);
    const queue = await buildQueue(database.db, company.id);
    const admin = await buildUser(database.db, company.id, { profile: "admin" });
    const agent = await buildUser(database.db, company.id, { queueIds: [queue.id] });
    const adminOnB = await login(b, admin.email);
    const connection = await connectSimulator(b, adminOnB, { queueIds: [queue.id] });

    const owners = [a.built.channels.sessions.instanceId, b.built.channels.sessions.instanceId];
    const owner = await leaseOwner(connection.id);
    expect(owners).toContain(owner);
    // Exactly one instance runs it.
    const running = [a, b].filter((x) => x.built.channels.sessions.session(connection.id) !== null);
    expect(running).toHaveLength(1);

    const agentSocket = await connectSocket(await a.url(), (await login(a, agent.email)).token);
    sockets.push(agentSocket);
    const got = record<{ action: string; message: { body: string } }>(
      agentSocket,
      `company-${company.id}-appMessage`,
    );
    const res = await phoneSends(b, adminOnB, connection.id, {
      from: "5511912345678",
      name: "Cliente",
      body: "via instância B",
    });
    expect(res.statusCode).toBe(201);
    await waitFor(() => got.some((e) => e.action === "create" && e.message.body === "via instância B"));

    // Stop the owner: the survivor claims the lease and runs the session, still paired.
    const [ownerCtx, survivor] = owner === owners[0] ? [a, b] : [b, a];
    await ownerCtx.close();
    await waitFor(
      async () => (await leaseOwner(connection.id)) === survivor.built.channels.sessions.instanceId,
      8_000,
    );
    await waitFor(() => survivor.built.channels.sessions.session(connection.id) !== null, 5_000);
    const [row] = await database.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id));
    await waitFor(
      async () =>
        (await database.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id)))[0]!.status ===
        "CONNECTED",
      5_000,
    );
    expect(row).toBeDefined();
  });
});

describe("a lease whose owner died", () => {
  it("is taken over once it expires, not before", async () => {
    const company = await buildCompany(database.db);
    const conn = await buildConnection(database.db, company.id, {
      name: "Órfã",
      provider: "simulator",
      status: "CONNECTED",
    });
    const alive = [a, b].find((x) => x.built.app.server.listening) ?? b;
    const survivor = alive.built.channels.sessions.instanceId;
    await database.db.insert(whatsappLeases).values({
      whatsappId: conn.id,
      companyId: company.id,
      ownerId: "dead-instance",
      expiresAt: new Date(Date.now() + 2_000),
    });
    await alive.built.channels.sessions.tick();
    expect(await leaseOwner(conn.id)).toBe("dead-instance");
    await waitFor(async () => (await leaseOwner(conn.id)) === survivor, 8_000);
  });
});
