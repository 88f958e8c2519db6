import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PairingCodeDTO, WhatsappDetailDTO } from "@atende/contracts";
import type { FakeSocket } from "../../channels/baileys/fixtures/fakeSocket.js";
import { fakeSocketProvider } from "../../channels/baileys/fixtures/harness.js";
import { whatsapps } from "../../db/schema/index.js";
import { connectSimulator } from "../../test/channels.js";
import { type Caller, caller, expectError, fieldsOf } from "../../test/calls.js";
import { buildTeam } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";

/**
 * POST /whatsappsession/{id}/pairing-code: the QR dialog's alternative, a code typed on the phone.
 * "beta" runs Baileys on fake sockets that offer a QR code at once, as WhatsApp does.
 */
let ctx: TestContext;
const fakeSockets: FakeSocket[] = [];
const call = caller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    {
      providers: {
        beta: fakeSocketProvider(fakeSockets, (socket) => {
          const n = fakeSockets.length;
          setImmediate(() => socket.fire("connection.update", { qr: `QR-${n}` }));
        }),
      },
    },
  );
  ctx.built.startBackground();
});
afterAll(() => ctx.close());

const pairingCode = (who: Caller, id: number, body: unknown) =>
  call("POST", `/whatsappsession/${id}/pairing-code`, who, body);

async function statusOf(id: number) {
  return (await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0]!.status;
}

async function newConnection(who: Caller, provider: "beta" | "simulator") {
  const res = await call("POST", "/whatsapp", who, {
    name: `Pareamento ${provider} ${Date.now()}`,
    provider,
  });
  expect(res.statusCode, res.body).toBe(201);
  const w = res.json<WhatsappDetailDTO>();
  await waitFor(async () => (await statusOf(w.id)) === "qrcode", 10_000);
  return w;
}

describe("pairing a phone by code", () => {
  it("a WhatsApp Web connection waiting for a phone answers WhatsApp's code for the number, typed any way", async () => {
    const team = await buildTeam(ctx);
    const w = await newConnection(team.adminLogin, "beta");
    const res = await pairingCode(team.adminLogin, w.id, { number: "+55 (11) 98765-4321" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PairingCodeDTO>()).toStrictEqual({ code: "K7M2QX9P" });
    // Asked of the live socket with the digits only, as typed (no ninth digit added or removed).
    expect(fakeSockets.flatMap((s) => s.pairingRequests)).toStrictEqual(["5511987654321"]);
    expect(await statusOf(w.id)).toBe("qrcode");
  });

  it("the simulator gives a code in WhatsApp's shape, so the dialog can be tried without a phone", async () => {
    const team = await buildTeam(ctx);
    const w = await newConnection(team.adminLogin, "simulator");
    const res = await pairingCode(team.adminLogin, w.id, { number: "5511987654321" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PairingCodeDTO>().code).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
  });

  it("refuses a connection already paired (409 ERR_WAPP_PAIRING_NOT_WAITING)", async () => {
    const team = await buildTeam(ctx);
    const w = await connectSimulator(ctx, team.adminLogin);
    expectError(
      await pairingCode(team.adminLogin, w.id, { number: "5511987654321" }),
      409,
      "ERR_WAPP_PAIRING_NOT_WAITING",
    );
  });

  it("refuses a number that cannot be a phone's, naming the field", async () => {
    const team = await buildTeam(ctx);
    const w = await newConnection(team.adminLogin, "simulator");
    for (const number of ["", "11 9876", "0055119876543", "5511987654321987654"]) {
      const fields = fieldsOf(await pairingCode(team.adminLogin, w.id, { number }));
      expect(Object.keys(fields)).toStrictEqual(["number"]);
    }
  });

  it("is for admins of the connection's company: an agent gets 403, another company 404", async () => {
    const team = await buildTeam(ctx);
    const stranger = await buildTeam(ctx);
    const w = await newConnection(team.adminLogin, "simulator");
    const body = { number: "5511987654321" };
    expectError(await pairingCode(team.agentLogin, w.id, body), 403, "ERR_NO_PERMISSION");
    expectError(await pairingCode(stranger.adminLogin, w.id, body), 404, "ERR_NO_WAPP_FOUND");
    expectError(await pairingCode(null, w.id, body), 401, "ERR_NO_SESSION");
  });
});
