import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { baileysKeys } from "../../db/schema/index.js";
import { failInserts } from "../../test/dbFailures.js";
import { buildCompany, buildConnection } from "../../test/factories.js";
import { openTestDatabase, waitFor } from "../../test/harness.js";
import { dbAuthStore } from "../authStore.js";
import { SAVE_CREDS_ATTEMPTS } from "./authState.js";
import { LOGOUT_AFTER_RESTART_GRACE_MS } from "./closes.js";
import { closeWith, startProvider, statuses } from "./fixtures/harness.js";
import type { BaileysLogger } from "./logger.js";

/**
 * How a Baileys connection lives through WhatsApp's closes, with its credentials in the database
 * (both databases): replaced sessions, a spurious logout after a restart, Baileys' caches across
 * reconnects, the chats it never decrypts, and the credentials' writes.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.drop());
afterEach(() => {
  vi.useRealTimers();
});

/** A "beta" connection's store in the database, and its stored keys. */
async function storedConnection() {
  const db = database.db;
  const company = await buildCompany(db);
  const connection = await buildConnection(db, company.id, { provider: "beta", status: "CONNECTED" });
  const store = dbAuthStore(db, company.id, connection.id);
  const keys = () => db.select().from(baileysKeys).where(eq(baileysKeys.whatsappId, connection.id));
  const creds = async () =>
    (
      await db
        .select()
        .from(baileysKeys)
        .where(and(eq(baileysKeys.whatsappId, connection.id), eq(baileysKeys.category, "creds")))
    ).length > 0;
  return { store, keys, creds, connection };
}

/** A logger that keeps what it was told at warn and error. */
function recordingLogger() {
  const lines: { level: "warn" | "error"; msg: string; obj: Record<string, unknown> }[] = [];
  const logger: BaileysLogger = {
    level: "warn",
    child: () => logger,
    trace: () => {},
    debug: () => {},
    info: () => {},
    warn: (obj: Record<string, unknown>, msg?: string) =>
      void lines.push({ level: "warn", msg: msg ?? "", obj }),
    error: (obj: Record<string, unknown>, msg?: string) =>
      void lines.push({ level: "error", msg: msg ?? "", obj }),
  };
  return { logger, lines };
}

describe("a session replaced by another client (440)", () => {
  it("reconnects, each replacement in a row waiting longer even when the socket opened in between; never DISCONNECTED, credentials kept", async () => {
    const stored = await storedConnection();
    const waits: number[] = [];
    const { current, connect, events, sockets } = await startProvider(
      { backoff: (attempt) => (waits.push(attempt), 5) },
      stored,
    );
    await connect();
    current().fire("creds.update", {});
    await waitFor(stored.creds);

    for (let i = 1; i <= 3; i++) {
      closeWith(current(), 440);
      await waitFor(() => sockets.length === i + 1);
      await connect(); // it opens again, and is taken over again
    }
    // A fight between two clients slows down: attempts 1, 2, 3, not 1 every time.
    expect(waits).toStrictEqual([1, 2, 3]);
    expect(statuses(events)).not.toContain("DISCONNECTED");
    expect(statuses(events).at(-1)).toBe("CONNECTED");
    expect(await stored.creds()).toBe(true);
  });
});

describe("a logout right after a restart", () => {
  it("a 401 within 30 s of a 515 is a drop: credentials kept, reconnected; a 401 later logs out for good", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    const stored = await storedConnection();
    const { current, connect, events, sockets } = await startProvider({ backoff: () => 5 }, stored);
    current().fire("connection.update", { qr: "QR-A" });
    current().fire("connection.update", { isNewLogin: true, qr: undefined });
    current().fire("creds.update", {});
    await waitFor(stored.creds);
    closeWith(current(), 515);
    await waitFor(() => sockets.length === 2);

    vi.setSystemTime(Date.now() + LOGOUT_AFTER_RESTART_GRACE_MS - 1_000);
    closeWith(current(), 401);
    await waitFor(() => sockets.length === 3);
    await connect();
    expect(await stored.creds()).toBe(true);
    expect(statuses(events)).not.toContain("loggedOut");

    // Past the window a logout is one: the credentials go, no reconnect.
    vi.setSystemTime(Date.now() + LOGOUT_AFTER_RESTART_GRACE_MS);
    closeWith(current(), 401);
    await waitFor(async () => !(await stored.creds()));
    await waitFor(() => statuses(events).includes("DISCONNECTED"));
    expect(statuses(events).slice(-2)).toStrictEqual(["loggedOut", "DISCONNECTED"]);
    expect(await stored.keys()).toHaveLength(0);
    expect(sockets).toHaveLength(3);
  });
});

describe("Baileys' caches", () => {
  it("the message retry counters and device lists outlive a reconnect, and expire as Baileys' own do", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    const stored = await storedConnection();
    const { current, connect, configs, sockets } = await startProvider({ backoff: () => 5 }, stored);
    await connect();
    const retries = configs[0]!.msgRetryCounterCache!;
    const devices = configs[0]!.userDevicesCache!;
    await retries.set("3EB0ABC", 2);
    await devices.set("5511912345678", [{ user: "5511912345678", device: 0 }]);

    closeWith(current(), 428);
    await waitFor(() => sockets.length === 2);
    await connect();
    expect(configs[1]!.msgRetryCounterCache).toBe(retries);
    expect(configs[1]!.userDevicesCache).toBe(devices);
    expect(await configs[1]!.msgRetryCounterCache!.get("3EB0ABC")).toBe(2);
    expect(await configs[1]!.userDevicesCache!.mget!(["5511912345678", "other"])).toStrictEqual({
      "5511912345678": [{ user: "5511912345678", device: 0 }],
      other: undefined,
    });

    vi.setSystemTime(Date.now() + 5 * 60_000 + 1); // devices: 5 minutes; retry counts: an hour
    expect(await devices.get("5511912345678")).toBeUndefined();
    expect(await retries.get("3EB0ABC")).toBe(2);
    vi.setSystemTime(Date.now() + 60 * 60_000);
    expect(await retries.get("3EB0ABC")).toBeUndefined();
  });
});

describe("chats Atende does not serve", () => {
  it("status updates and channels are ignored by the socket (never decrypted nor handed on); people and groups are not", async () => {
    const { configs } = await startProvider({}, await storedConnection());
    const ignore = configs[0]!.shouldIgnoreJid!;
    for (const jid of ["status@broadcast", "120363025246125486@newsletter"]) expect(ignore(jid)).toBe(true);
    for (const jid of [
      "5511912345678@s.whatsapp.net",
      "120363025246125486@g.us",
      "81234567890123@lid",
      "s.whatsapp.net",
    ])
      expect(ignore(jid)).toBe(false);
  });
});

describe("writing the credentials", () => {
  it("a failed write is tried again with backoff and lands once the database takes it", async () => {
    const stored = await storedConnection();
    const { logger, lines } = recordingLogger();
    const { current } = await startProvider({ backoff: () => 20, logger }, stored);
    const lift = await failInserts(database.db, {
      table: "baileys_keys",
      column: "whatsapp_id",
      value: stored.connection.id,
      sqlState: "57014",
    });
    try {
      current().fire("creds.update", {});
      await waitFor(() => lines.some((l) => l.msg.includes("saving creds failed; trying again")));
    } finally {
      await lift();
    }
    await waitFor(stored.creds);
    expect(lines.filter((l) => l.level === "error")).toStrictEqual([]);
  });

  it("a write that keeps failing is logged as an error after the last attempt, never dropped silently", async () => {
    const stored = await storedConnection();
    const { logger, lines } = recordingLogger();
    const { current } = await startProvider({ backoff: () => 5, logger }, stored);
    const lift = await failInserts(database.db, {
      table: "baileys_keys",
      column: "whatsapp_id",
      value: stored.connection.id,
      sqlState: "57014",
    });
    try {
      current().fire("creds.update", {});
      await waitFor(() => lines.some((l) => l.level === "error"));
    } finally {
      await lift();
    }
    const retried = lines.filter((l) => l.msg.includes("trying again"));
    expect(retried.map((l) => l.obj.attempt)).toStrictEqual([1, 2, 3]);
    expect(lines.filter((l) => l.level === "error")).toMatchObject([
      {
        msg: expect.stringContaining("saving creds failed for good"),
        obj: { attempts: SAVE_CREDS_ATTEMPTS },
      },
    ]);
    expect(await stored.creds()).toBe(false);
  });
});

describe("pairing by code", () => {
  it("the pairing request names a standard browser (Chrome on Mac OS), which WhatsApp accepts", async () => {
    const { session, current } = await startProvider({}, await storedConnection());
    current().fire("connection.update", { qr: "QR-A" });
    await session.requestPairingCode!("5511987654321");
    // companion_platform_id 1 is CHROME; a made-up name is OTHER_WEB_CLIENT (9), which WhatsApp refuses.
    expect(current().pairingCompanions).toStrictEqual([
      { platformId: "1", platformDisplay: "Chrome (Mac OS)" },
    ]);
  });
});
