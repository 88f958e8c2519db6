import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../db/client.js";
import { whatsappLeases, whatsapps } from "../db/schema/index.js";
import { connectSimulator } from "../test/channels.js";
import { buildCompany, buildConnection, buildUser, login } from "../test/factories.js";
import { type TestContext, clonePostgresTemplate, createTestContext, waitFor } from "../test/harness.js";
import { type TcpProxy, startTcpProxy } from "../test/tcpProxy.js";

/**
 * A session lease while its owner cannot reach PostgreSQL: instance A reaches the database through
 * a proxy the test cuts, instance B directly. A's lease runs out, B takes the connection over, A
 * stops its session: never two owners at once, and when A is back it leaves the session to B.
 */

const pgUrl = new URL(process.env.TEST_DATABASE_URL!);
let clone: Awaited<ReturnType<typeof clonePostgresTemplate>>;
let direct: ReturnType<typeof openPostgres>;
let throughProxy: ReturnType<typeof openPostgres>;
let proxy: TcpProxy;
let a: TestContext;
let b: TestContext;

beforeAll(async () => {
  clone = await clonePostgresTemplate();
  direct = openPostgres(clone.url, 5);
  proxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
  throughProxy = openPostgres(proxy.urlFor(clone.url), 5, { warn: () => undefined });
  a = await createTestContext({ SESSION_LEASE_SECONDS: 2 }, { database: throughProxy });
  b = await createTestContext({ SESSION_LEASE_SECONDS: 2 }, { database: direct });
});
afterAll(async () => {
  proxy.restore();
  await a?.close();
  await b?.close();
  await throughProxy.close();
  await direct.close();
  await proxy.close();
  await clone.drop();
});

const owner = async (whatsappId: number) =>
  (await direct.db.select().from(whatsappLeases).where(eq(whatsappLeases.whatsappId, whatsappId)))[0]
    ?.ownerId ?? null;

describe("a session lease while its owner loses the database", () => {
  it("moves to the other instance cleanly and is not taken back twice", async () => {
    a.built.startBackground();
    const company = await buildCompany(direct.db);
    const admin = await buildUser(direct.db, company.id, { profile: "admin" });
    const connection = await connectSimulator(a, await login(a, admin.email));
    expect(await owner(connection.id)).toBe(a.built.channels.sessions.instanceId);
    b.built.startBackground();

    const runners = () =>
      [a, b].filter((x) => x.built.channels.sessions.session(connection.id) !== null).length;
    let most = 0;
    const sample = setInterval(() => (most = Math.max(most, runners())), 20);
    try {
      proxy.cut();
      await waitFor(
        () =>
          b.built.channels.sessions.session(connection.id) !== null &&
          a.built.channels.sessions.session(connection.id) === null,
        10_000,
      );
      expect(await owner(connection.id)).toBe(b.built.channels.sessions.instanceId);

      proxy.restore();
      // A's lease round reaches the database again (a round run here waits for the loop's own).
      await waitFor(async () => {
        try {
          await a.built.channels.sessions.tick();
          return true;
        } catch {
          return false;
        }
      }, 10_000);
      expect(a.built.channels.sessions.session(connection.id)).toBeNull();
      expect(b.built.channels.sessions.session(connection.id)).not.toBeNull();
      expect(await owner(connection.id)).toBe(b.built.channels.sessions.instanceId);
    } finally {
      clearInterval(sample);
    }
    expect(most).toBe(1);
  }, 60_000);
});

describe("a session start whose credentials read does not answer", () => {
  it("counts as failed after one lease round, shown, without holding the lease rounds up; the retry starts it once the read answers", async () => {
    const company = await buildCompany(direct.db);
    let unlock = () => {};
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another connection holds the keys' table: the read of the credentials waits, unanswered.
    const holder = direct.db.transaction(async (tx) => {
      await tx.execute(sql`lock table baileys_keys in access exclusive mode`);
      locked();
      await unlocked;
    });
    await isLocked;
    let connection;
    try {
      connection = await buildConnection(direct.db, company.id, { provider: "beta", status: "CONNECTED" });
      const id = connection.id;
      const row = async () => (await direct.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0]!;
      const lease = async () =>
        (await direct.db.select().from(whatsappLeases).where(eq(whatsappLeases.whatsappId, id)))[0];
      // The instances' lease rounds claim it; its start gives up after one round (2 s lease: 1 s).
      await waitFor(async () => (await row()).retries >= 1, 10_000);
      expect((await row()).status).toBe("OPENING");
      // The lease rounds go on meanwhile: the lease keeps being renewed.
      const first = (await lease())!.expiresAt.getTime();
      await waitFor(async () => (await lease())!.expiresAt.getTime() > first, 5_000);
      expect(runnersOf(id)).toBe(0);
    } finally {
      unlock();
      await holder;
    }
    await waitFor(() => runnersOf(connection.id) === 1, 15_000);
  }, 60_000);
});

const runnersOf = (id: number) => [a, b].filter((x) => x.built.channels.sessions.session(id) !== null).length;
