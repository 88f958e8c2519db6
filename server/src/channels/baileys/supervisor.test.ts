import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useDbAuthState } from "./authState.js";
import { closeWith, startProvider, statuses } from "./fixtures/harness.js";
import { memoryAuthStore } from "./fixtures/memoryAuthStore.js";
import { exponentialBackoff } from "./supervisor.js";

/**
 * Yields to the event loop until `check` holds: the session hands its events to the sink (and its
 * credentials to the store) asynchronously. setImmediate is not among the faked timers.
 */
async function until(check: () => boolean, timeoutMs = 2_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

describe("Baileys connection: connecting", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("builds the socket with the credentials stored in the database, not echoing its own sends", async () => {
    const auth = memoryAuthStore();
    const earlier = await useDbAuthState(auth.store, { cache: false });
    await earlier.saveCreds();
    const { configs } = await startProvider({}, auth);
    expect(configs).toHaveLength(1);
    expect(configs[0]).toMatchObject({
      emitOwnEvents: false,
      markOnlineOnConnect: false,
      // The history of a link is imported (history.test.ts).
      syncFullHistory: true,
    });
    expect(configs[0]!.auth.creds.registrationId).toBe(earlier.state.creds.registrationId);
  });

  it("announces the configured WhatsApp Web version (WA_WEB_VERSION), else leaves Baileys' bundled one", async () => {
    const configured = await startProvider({ version: [2, 3000, 1023223821] });
    expect(configured.configs[0]!.version).toStrictEqual([2, 3000, 1023223821]);
    const bundled = await startProvider();
    expect(bundled.configs[0]).not.toHaveProperty("version");
  });

  it("saves the credentials on creds.update", async () => {
    const { current, auth } = await startProvider();
    current().fire("creds.update", { nextPreKeyId: 5 });
    await until(() => auth.rows.has("creds/creds"));
  });

  it("offers QR codes with a retry counter, and gives up when nobody scans", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { current, events, sockets } = await startProvider({ maxQrRefreshes: 2 });
    current().fire("connection.update", { connection: "connecting", qr: undefined });
    for (const qr of ["QR-A", "QR-B", "QR-C", "QR-D"]) current().fire("connection.update", { qr });
    await until(() => statuses(events).includes("DISCONNECTED"));
    expect(events).toStrictEqual([
      { type: "connection", status: "OPENING", qrcode: "" },
      { type: "connection", status: "qrcode", qrcode: "QR-A", retries: 0 },
      { type: "connection", status: "qrcode", qrcode: "QR-B", retries: 1 },
      { type: "connection", status: "qrcode", qrcode: "QR-C", retries: 2 },
      { type: "connection", status: "DISCONNECTED", qrcode: "" },
    ]);
    expect(current().calls.end).toBe(1);
    // No reconnect, however long one waits.
    await vi.advanceTimersByTimeAsync(600_000);
    expect(sockets).toHaveLength(1);
  });

  it("reports CONNECTED with its own number once open, after the scan (pairing, then restart)", async () => {
    const { current, events, sockets, connect } = await startProvider({ backoff: () => 60_000 });
    current().fire("connection.update", { qr: "QR-A" });
    current().fire("connection.update", { isNewLogin: true, qr: undefined });
    // WhatsApp asks for a restart right after pairing: reconnect at once, whatever the backoff.
    closeWith(current(), 515);
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    await connect();
    expect(statuses(events)).toStrictEqual(["qrcode", "PAIRING", "CONNECTED"]);
    expect(events.at(-1)).toStrictEqual({
      type: "connection",
      status: "CONNECTED",
      qrcode: "",
      number: "5511987654321",
      retries: 0,
    });
  });
});

describe("Baileys connection: disconnects", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("logged out on the phone: clears the store, reports loggedOut then DISCONNECTED, never reconnects", async () => {
    const { current, connect, events, auth, sockets } = await startProvider();
    await connect();
    current().fire("creds.update", {});
    await until(() => auth.rows.size > 0);

    closeWith(current(), 401);
    await until(() => statuses(events).includes("DISCONNECTED"));
    expect(auth.rows.size).toBe(0);
    expect(statuses(events)).toStrictEqual(["CONNECTED", "loggedOut", "DISCONNECTED"]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
  });

  it("reconnects after a drop with growing backoff", async () => {
    const { current, sockets } = await startProvider();
    closeWith(current(), 428);
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);

    closeWith(current(), 408);
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);
  });

  it("never gives up on drops: past the threshold it reports TIMEOUT (with the attempts) and keeps retrying until one opens", async () => {
    // A one-minute outage at night: 408, 428, 500, 503, network errors, again and again.
    const { current, connect, events, sockets } = await startProvider({
      timeoutAfter: 3,
      backoff: () => 60_000,
    });
    const drops = [408, 428, 500, 503, undefined, 408, 503, 428];
    for (const [i, code] of drops.entries()) {
      current().fire("connection.update", { connection: "connecting" });
      if (code === undefined)
        current().fire("connection.update", {
          connection: "close",
          lastDisconnect: { error: new Error("getaddrinfo ENOTFOUND web.whatsapp.com"), date: new Date() },
        });
      else closeWith(current(), code);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sockets).toHaveLength(i + 2);
    }
    await until(() => statuses(events).length >= 9);
    // OPENING while it tries; from the third failure on, TIMEOUT stays shown (no OPENING flicker).
    expect(statuses(events)).toStrictEqual([
      "OPENING",
      "OPENING",
      "OPENING",
      "TIMEOUT",
      "TIMEOUT",
      "TIMEOUT",
      "TIMEOUT",
      "TIMEOUT",
      "TIMEOUT",
    ]);
    expect(
      events
        .filter((e) => e.type === "connection" && e.status === "TIMEOUT")
        .map((e) => e.type === "connection" && e.retries),
    ).toStrictEqual([3, 4, 5, 6, 7, 8]);

    await connect();
    expect(events.at(-1)).toMatchObject({ type: "connection", status: "CONNECTED", retries: 0 });
    // The count starts over: the next drop is attempt 1 again, not a TIMEOUT.
    closeWith(current(), 428);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(drops.length + 2);
    expect(statuses(events).at(-1)).toBe("CONNECTED");
  });

  it("waits at most five minutes between attempts, however long the outage", async () => {
    const { current, sockets } = await startProvider({ backoff: exponentialBackoff, timeoutAfter: 6 });
    for (let i = 0; i < 15; i++) {
      closeWith(current(), 503);
      await vi.advanceTimersByTimeAsync(300_000);
      expect(sockets).toHaveLength(i + 2);
    }
  });

  it("restart required (515) is no failure: it reconnects at once and never leads to TIMEOUT", async () => {
    const { current, events, sockets } = await startProvider({ timeoutAfter: 2, backoff: () => 60_000 });
    closeWith(current(), 428); // failure 1 of 2
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(2);
    closeWith(current(), 515);
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets).toHaveLength(3);
    // Asked to restart again before ever opening: still no failure, but no tight loop either.
    closeWith(current(), 515);
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(4);
    // The fourth socket starts connecting: OPENING, which a TIMEOUT would have replaced, and handed
    // over behind everything emitted before it.
    current().fire("connection.update", { connection: "connecting" });
    await until(() => statuses(events).length > 0);
    expect(statuses(events)).toStrictEqual(["OPENING"]);
  });

  it("WhatsApp refusing the session (403) stops without reconnecting", async () => {
    const { current, connect, events, sockets } = await startProvider();
    await connect();
    closeWith(current(), 403);
    await vi.advanceTimersByTimeAsync(600_000);
    await until(() => statuses(events).includes("DISCONNECTED"));
    expect(sockets).toHaveLength(1);
    expect(statuses(events)).toStrictEqual(["CONNECTED", "DISCONNECTED"]);
  });

  it("an open connection resets the failure count", async () => {
    const { current, connect, events, sockets } = await startProvider();
    for (let i = 0; i < 5; i++) {
      closeWith(current(), 428);
      await vi.advanceTimersByTimeAsync(1000);
      await connect();
    }
    expect(sockets).toHaveLength(6);
    expect(statuses(events)).not.toContain("TIMEOUT");
  });

  it("stop ends the socket without logging out, keeps the credentials, and never reconnects", async () => {
    const { session, current, connect, auth, sockets } = await startProvider();
    await connect();
    current().fire("creds.update", {});
    await session.stop();
    expect(current().calls).toStrictEqual({ end: 1, logout: 0 });
    expect(current().listenerCount()).toBe(0);
    expect(auth.rows.has("creds/creds")).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
  });

  it("logout logs out on WhatsApp and forgets the credentials", async () => {
    const { session, current, connect, auth, sockets } = await startProvider();
    await connect();
    current().fire("creds.update", {});
    await until(() => auth.rows.has("creds/creds"));
    await session.logout();
    expect(current().calls.logout).toBe(1);
    expect(auth.rows.size).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
  });
});

describe("exponentialBackoff", () => {
  it("doubles from 1 s up to 5 minutes, each wait jittered within its upper half", () => {
    for (const [attempt, ceiling] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
      [7, 64_000],
      [9, 256_000],
      [10, 300_000],
      [1000, 300_000],
    ] as const) {
      for (let i = 0; i < 20; i++) {
        const wait = exponentialBackoff(attempt);
        expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
        expect(wait).toBeLessThanOrEqual(ceiling);
      }
    }
  });
});
