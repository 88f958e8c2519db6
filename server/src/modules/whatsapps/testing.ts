import crypto from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, expect } from "vitest";
import type { WhatsappDetailDTO, WhatsappTokenDTO } from "@atende/contracts";
import { baileysProvider } from "../../channels/baileys/provider.js";
import { FakeSocket } from "../../channels/baileys/fixtures/fakeSocket.js";
import { silent } from "../../channels/baileys/fixtures/harness.js";
import { cloudProvider } from "../../channels/cloud/provider.js";
import { whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { type LoggedIn, buildUser, login } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";
import { type Caller, caller } from "../../test/calls.js";
import { type FakeGraph, startFakeGraph } from "../../test/fakes/graph.js";

/**
 * What the connections API's test files share (read, create, update, delete, sessions, isolation,
 * robustness; spec back-office §2, §3, §5, §6, §7): each file gets its own database, and these
 * helpers. Teams are built per test.
 *
 * Provider "beta" is Baileys driven on fake WhatsApp sockets that never connect (no internet);
 * "simulator" is the real in-process stand-in; "cloud" talks to no Graph server here.
 */

export let ctx: TestContext;
export const sockets: Socket[] = [];

export const call = caller(() => ctx);
export const list = (who: Caller, path = "/whatsapp") => call("GET", path, who);
export const getOne = (who: Caller, id: number | string) => call("GET", `/whatsapp/${id}`, who);
export const create = (who: Caller, body: unknown) => call("POST", "/whatsapp", who, body);
export const update = (who: Caller, id: number | string, body: unknown) =>
  call("PUT", `/whatsapp/${id}`, who, body);
export const remove = (who: Caller, id: number | string) => call("DELETE", `/whatsapp/${id}`, who);

/** The connection's row, read straight from the database (of another suite's context when given). */
export async function rowOf(id: number, context: TestContext = ctx) {
  const [row] = await context.deps.db.select().from(whatsapps).where(eq(whatsapps.id, id));
  return row ?? null;
}

/**
 * POST /whatsapp/{id}/token, as the dialog's button calls it: the answer carries a new token (its
 * one showing) and its hint. A new connection has no token until this is called.
 */
export function rotateToken(context: TestContext, auth: LoggedIn["auth"], id: number | string) {
  return context.app.inject({ method: "POST", url: `/whatsapp/${id}/token`, headers: auth });
}

/** Generates the connection's token as its admin, and answers it. */
export async function tokenOf(who: LoggedIn, id: number): Promise<string> {
  const res = await rotateToken(ctx, who.auth, id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WhatsappTokenDTO>().token;
}
export async function connectionsOf(companyId: number) {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId));
  return row!.n;
}
export const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);
/** Waits (generously: CI machines are busy) until the connection's row shows the status. */
export async function untilStatus(id: number, status: string) {
  await waitFor(async () => (await rowOf(id))?.status === status, 10_000);
}
export async function defaultsOf(companyId: number) {
  const rows = await ctx.deps.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
  return rows.map((r) => r.id);
}
export async function queueIdsOf(whatsappId: number) {
  const rows = await ctx.deps.db
    .select({ id: whatsappQueues.queueId })
    .from(whatsappQueues)
    .where(eq(whatsappQueues.whatsappId, whatsappId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

let seq = 0;
export const unique = (prefix = "Conexão") => `${prefix} ${++seq} ${crypto.randomBytes(2).toString("hex")}`;

/** Creates a connection through the API and answers its detail. */
export async function created(who: LoggedIn, body: Record<string, unknown> = {}): Promise<WhatsappDetailDTO> {
  const res = await create(who, { name: unique(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WhatsappDetailDTO>();
}

/** The full body the connection dialog sends on save, from what GET /whatsapp/{id} answered. */
export function dialogBody(d: WhatsappDetailDTO, patch: Record<string, unknown> = {}) {
  return {
    name: d.name,
    provider: d.provider,
    isDefault: d.isDefault,
    greetingMessage: d.greetingMessage,
    complationMessage: d.complationMessage,
    outOfHoursMessage: d.outOfHoursMessage,
    ratingMessage: d.ratingMessage,
    expiresInactiveMessage: d.expiresInactiveMessage,
    token: d.token,
    expiresTicket: d.expiresTicket,
    timeUseBotQueues: d.timeUseBotQueues,
    maxUseBotQueues: d.maxUseBotQueues,
    queueIds: d.queues.map((q) => q.id),
    transferQueueId: d.transferQueueId,
    timeToTransfer: d.timeToTransfer,
    promptId: d.promptId,
    integrationId: d.integrationId,
    schedules: d.schedules,
    ...patch,
  };
}

export async function adminOf(companyId: number) {
  const admin = await buildUser(ctx.deps.db, companyId, { profile: "admin" });
  return login(ctx, admin.email);
}

export const LIST_KEYS = [
  "complationMessage",
  "createdAt",
  "expiresInactiveMessage",
  "expiresTicket",
  "greetingMessage",
  "id",
  "integrationId",
  "isDefault",
  "maxUseBotQueues",
  "name",
  "number",
  "outOfHoursMessage",
  "promptId",
  "provider",
  "qrcode",
  "queues",
  "ratingMessage",
  "retries",
  "schedules",
  "status",
  "timeToTransfer",
  "timeUseBotQueues",
  "transferQueueId",
  "updatedAt",
];

export const SCHEDULES = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "", endTime: "" },
];

/** Registers the suite's shared setup and teardown: call once at the top of each test file. */
/**
 * The Cloud API connections of these suites check their token against this fake Graph before they
 * say CONNECTED: the number "123" with the token "tok".
 */
let graph: FakeGraph;

export function setupWhatsappsSuite() {
  beforeAll(async () => {
    graph = await startFakeGraph({ accessToken: "tok" });
    graph.phoneNumbers.set("123", { display_phone_number: "+55 11 4000-1234", verified_name: "Atende" });
    ctx = await createTestContext(
      { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
      {
        providers: {
          beta: baileysProvider({ logger: silent, makeSocket: () => new FakeSocket() }),
          cloud: cloudProvider({ graphUrl: graph.url, timeoutMs: 2_000 }),
        },
      },
    );
    ctx.built.startBackground();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await ctx.close();
    await graph.close();
  });
}
