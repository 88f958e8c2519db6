import { afterEach, describe, expect, it, vi } from "vitest";
import { ChannelError } from "../provider.js";
import { boom } from "./fixtures/fakeSocket.js";
import { settle, startProvider, statuses } from "./fixtures/harness.js";
import { PAIRING_WAIT_MS } from "./supervisor.js";

/** Pairing a phone by code instead of the QR (WhatsApp → Linked devices → Link with phone number). */
describe("Baileys pairing code", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks WhatsApp for the number's code once a QR is offered, and gives the person fresh QR refreshes to type it", async () => {
    const { session, current, events } = await startProvider({ maxQrRefreshes: 2 });
    current().fire("connection.update", { qr: "QR-A" });
    current().fire("connection.update", { qr: "QR-B" });
    await expect(session.requestPairingCode!("5511987654321")).resolves.toBe("K7M2QX9P");
    expect(current().pairingRequests).toStrictEqual(["5511987654321"]);
    // Without the code two more refreshes would have ended the session; now it keeps waiting.
    for (const qr of ["QR-C", "QR-D", "QR-E"]) current().fire("connection.update", { qr });
    await settle();
    expect(statuses(events)).not.toContain("DISCONNECTED");
  });

  it("a request made while the socket still opens waits for it to offer a QR", async () => {
    const { session, current } = await startProvider();
    current().fire("connection.update", { connection: "connecting" });
    const code = session.requestPairingCode!("5511987654321");
    await settle();
    expect(current().pairingRequests).toHaveLength(0);
    current().fire("connection.update", { qr: "QR-A" });
    await expect(code).resolves.toBe("K7M2QX9P");
  });

  it("refuses once the phone is paired (ERR_WAPP_PAIRING_NOT_WAITING), asking WhatsApp nothing", async () => {
    const { session, current, connect } = await startProvider();
    await connect();
    const refused = await session.requestPairingCode!("5511987654321").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChannelError);
    expect(refused).toMatchObject({ code: "ERR_WAPP_PAIRING_NOT_WAITING", retryable: false });
    expect(current().pairingRequests).toHaveLength(0);
  });

  it("WhatsApp refusing the number is ERR_WAPP_PAIRING_FAILED", async () => {
    const { session, current } = await startProvider();
    current().fire("connection.update", { qr: "QR-A" });
    current().failPairing = boom("bad-request", 400);
    await expect(session.requestPairingCode!("123")).rejects.toMatchObject({
      code: "ERR_WAPP_PAIRING_FAILED",
      retryable: false,
    });
  });

  it("gives up with ERR_WAPP_PAIRING_FAILED when the socket never becomes ready to pair", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { session } = await startProvider();
    const code = session.requestPairingCode!("5511987654321").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(PAIRING_WAIT_MS);
    expect(await code).toMatchObject({ code: "ERR_WAPP_PAIRING_FAILED", retryable: true });
  });

  it("a code is never asked of a socket that closed: the request waits for the next one's QR", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { session, current, sockets } = await startProvider();
    current().fire("connection.update", { qr: "QR-A" });
    current().fire("connection.update", {
      connection: "close",
      lastDisconnect: { error: boom("closed", 428), date: new Date() },
    });
    const code = session.requestPairingCode!("5511987654321");
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.pairingRequests).toHaveLength(0);
    current().fire("connection.update", { qr: "QR-B" });
    await expect(code).resolves.toBe("K7M2QX9P");
    expect(sockets[1]!.pairingRequests).toStrictEqual(["5511987654321"]);
  });
});
