import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baileysKeys, whatsappLeases, whatsapps } from "../db/schema/index.js";
import { caller, expectError } from "../test/calls.js";
import { buildConnection, buildTeam } from "../test/factories.js";
import { type TestContext, createTestContext, openTestDatabase, waitFor } from "../test/harness.js";
import { logCapture } from "../test/logLeaks.js";
import { dbAuthStore } from "./authStore.js";
import { useDbAuthState } from "./baileys/authState.js";
import type { FakeSocket } from "./baileys/fixtures/fakeSocket.js";
import { closeWith, fakeSocketProvider, settle } from "./baileys/fixtures/harness.js";

/**
 * A WhatsApp Web session that cannot start, and one whose lease moved to another instance while its
 * socket lived on: two instances of one deployment on one database (both databases), Baileys on
 * fake sockets that open as soon as they are made (a paired phone), lease rounds run by the test.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: TestContext;
let b: TestContext;
const aSockets: FakeSocket[] = [];
const bSockets: FakeSocket[] = [];
const aLog = logCapture();
const call = caller(() => a);

/** Opens each socket as WhatsApp does for a paired phone. */
function opening(socket: FakeSocket) {
  setImmediate(() => {
    socket.user = { id: "5511987654321:4@s.whatsapp.net", name: "Loja" };
    socket.fire("connection.update", { connection: "open" });
  });
}

beforeAll(async () => {
  database = await openTestDatabase();
  a = await createTestContext(
    { SESSION_LEASE_SECONDS: 30 },
    { database, logger: aLog.logger, providers: { beta: fakeSocketProvider(aSockets, opening) } },
  );
  b = await createTestContext(
    { SESSION_LEASE_SECONDS: 30 },
    { database, providers: { beta: fakeSocketProvider(bSockets, opening) } },
  );
});
afterAll(async () => {
  await a.close();
  await b.close();
  await database.drop();
});

const rowOf = async (id: number) =>
  (await database.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0]!;

/** A paired "beta" connection that was CONNECTED before this instance started, its credentials stored. */
async function pairedConnection() {
  const team = await buildTeam(a);
  const connection = await buildConnection(database.db, team.company.id, {
    provider: "beta",
    status: "CONNECTED",
  });
  const auth = await useDbAuthState(dbAuthStore(database.db, team.company.id, connection.id), {
    cache: false,
  });
  await auth.saveCreds();
  return { team, connection };
}

describe("a session whose start fails", () => {
  it("shows it, answers requests that need it at once, and comes up on the retry once its credentials load", async () => {
    const { team, connection } = await pairedConnection();
    // The credentials cannot be read: a real database error (the table is away).
    await database.db.execute(sql`alter table baileys_keys rename to baileys_keys_away`);
    try {
      await a.built.channels.sessions.tick();
      expect(a.built.channels.sessions.session(connection.id)).toBeNull();
      // Not left CONNECTED: the connection shows it is trying.
      expect(await rowOf(connection.id)).toMatchObject({ status: "OPENING", retries: 1 });
      // A request that needs the session answers now that it is not running, instead of waiting.
      const res = await call("POST", `/whatsappsession/${connection.id}/pairing-code`, team.adminLogin, {
        number: "5511987654321",
      });
      expectError(res, 409, "ERR_WAPP_NOT_INITIALIZED");
      expect(aSockets).toHaveLength(0);
    } finally {
      await database.db.execute(sql`alter table baileys_keys_away rename to baileys_keys`);
    }
    // The retry (a closed socket's backoff, with no lease round in between) loads them and connects.
    await waitFor(async () => (await rowOf(connection.id)).status === "CONNECTED");
    expect(a.built.channels.sessions.session(connection.id)).not.toBeNull();
    expect(aSockets).toHaveLength(1);
    // Left DISCONNECTED, so no lease round of the next test claims it.
    await a.built.channels.sessions.disconnect(team.company.id, connection.id);
  });
});

describe("a session whose lease another instance took", () => {
  it("its replaced socket reconnects instead of staying DISCONNECTED, and nothing it reports makes the live owner let go", async () => {
    const { connection } = await pairedConnection();
    await a.built.channels.sessions.tick();
    await waitFor(async () => (await rowOf(connection.id)).status === "CONNECTED");
    const staleSocket = aSockets.at(-1)!;

    // A's renewals stop reaching the database: its lease runs out and B takes the connection over.
    await database.db
      .update(whatsappLeases)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(whatsappLeases.whatsappId, connection.id));
    const socketsOfB = bSockets.length;
    await b.built.channels.sessions.tick();
    await waitFor(() => bSockets.length === socketsOfB + 1);
    expect(b.built.channels.sessions.session(connection.id)).not.toBeNull();

    // WhatsApp replaces A's socket with B's (440): A reconnects later, it does not give up...
    const socketsOfA = aSockets.length;
    closeWith(staleSocket, 440);
    await waitFor(() => aSockets.length === socketsOfA + 1, 5_000);
    // ...and its new socket is logged out (401): A neither writes its state nor wipes the credentials.
    closeWith(aSockets.at(-1)!, 401);
    await waitFor(() => aLog.text.includes("asked to forget its credentials; kept"));
    await waitFor(() => aLog.text.includes("reported its state; ignored"));
    await settle();

    await b.built.channels.sessions.tick();
    expect(b.built.channels.sessions.session(connection.id)).not.toBeNull();
    expect((await rowOf(connection.id)).status).toBe("CONNECTED");
    expect(
      await database.db.select().from(baileysKeys).where(eq(baileysKeys.whatsappId, connection.id)),
    ).not.toHaveLength(0);
    // A's own lease round finds the lease gone and stops what it still ran.
    await a.built.channels.sessions.tick();
    expect(a.built.channels.sessions.session(connection.id)).toBeNull();
    expect(b.built.channels.sessions.session(connection.id)).not.toBeNull();
  });
});
