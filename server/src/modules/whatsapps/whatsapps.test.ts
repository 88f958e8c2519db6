import crypto from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WhatsappDTO, WhatsappDetailDTO, WhatsappSessionDTO } from "@atende/contracts";
import { baileysProvider } from "../../channels/baileys/provider.js";
import { FakeSocket } from "../../channels/baileys/fixtures/fakeSocket.js";
import { silent } from "../../channels/baileys/fixtures/harness.js";
import { simulatorNumber } from "../../channels/simulator/provider.js";
import { whatsappLeases, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { connectSimulator } from "../../test/channels.js";
import {
  type LoggedIn,
  buildCompany,
  buildPlan,
  buildQueue,
  buildTeam,
  buildUser,
  login,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { expectError, type Caller, caller } from "../../test/calls.js";

/**
 * The connections API (spec back-office §2, §3, §5, §6, §7): the list every user of the company
 * sees without secrets, the admin's dialog with the token, create/edit/delete with the spec's
 * rules, the session buttons and their live events, and 404 across companies.
 *
 * Provider "beta" is Baileys driven on fake WhatsApp sockets that never connect (no internet);
 * "simulator" is the real in-process stand-in; "cloud" talks to no Graph server here.
 */

let ctx: TestContext;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    { providers: { beta: baileysProvider({ logger: silent, makeSocket: () => new FakeSocket() }) } },
  );
  ctx.built.startBackground();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

const call = caller(() => ctx);
const list = (who: Caller, path = "/whatsapp") => call("GET", path, who);
const getOne = (who: Caller, id: number | string) => call("GET", `/whatsapp/${id}`, who);
const create = (who: Caller, body: unknown) => call("POST", "/whatsapp", who, body);
const update = (who: Caller, id: number | string, body: unknown) => call("PUT", `/whatsapp/${id}`, who, body);
const remove = (who: Caller, id: number | string) => call("DELETE", `/whatsapp/${id}`, who);

async function rowOf(id: number) {
  const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, id));
  return row ?? null;
}
async function connectionsOf(companyId: number) {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId));
  return row!.n;
}
const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);
/** Waits (generously: CI machines are busy) until the connection's row shows the status. */
async function untilStatus(id: number, status: string) {
  await waitFor(async () => (await rowOf(id))?.status === status, 10_000);
}
async function defaultsOf(companyId: number) {
  const rows = await ctx.deps.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
  return rows.map((r) => r.id);
}
async function queueIdsOf(whatsappId: number) {
  const rows = await ctx.deps.db
    .select({ id: whatsappQueues.queueId })
    .from(whatsappQueues)
    .where(eq(whatsappQueues.whatsappId, whatsappId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

let seq = 0;
const unique = (prefix = "Conexão") => `${prefix} ${++seq} ${crypto.randomBytes(2).toString("hex")}`;

/** Creates a connection through the API and answers its detail. */
async function created(who: LoggedIn, body: Record<string, unknown> = {}): Promise<WhatsappDetailDTO> {
  const res = await create(who, { name: unique(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WhatsappDetailDTO>();
}

/** The full body the connection dialog sends on save, from what GET /whatsapp/{id} answered. */
function dialogBody(d: WhatsappDetailDTO, patch: Record<string, unknown> = {}) {
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

async function adminOf(companyId: number) {
  const admin = await buildUser(ctx.deps.db, companyId, { profile: "admin" });
  return login(ctx, admin.email);
}

const LIST_KEYS = [
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

const SCHEDULES = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
  { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "", endTime: "" },
];

describe("GET /whatsapp", () => {
  it("answers a bare array to every user of the company, agents too, with no token and no provider secrets", async () => {
    const team = await buildTeam(ctx);
    const beta = await created(team.adminLogin, { name: "Beta principal", queueIds: [team.queue.id] });
    const cloud = await created(team.adminLogin, {
      name: "Oficial",
      provider: "cloud",
      token: "api-token-of-the-cloud-connection",
      cloud: {
        phoneNumberId: "106540352242922",
        wabaId: "102290129340398",
        verifyToken: "verify-token-value",
        accessToken: "EAAG-very-secret-access-token",
        appSecret: "very-secret-app-secret",
      },
    });
    for (const who of [team.adminLogin, team.agentLogin]) {
      for (const path of ["/whatsapp", "/whatsapp/", "/whatsapp?session=0", "/whatsapp/?session=0"]) {
        const res = await list(who, path);
        expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
        const body = res.json<WhatsappDTO[]>();
        expect(Array.isArray(body)).toBe(true);
        expect(body.map((w) => w.id).sort()).toEqual([beta.id, cloud.id].sort());
        for (const w of body) expect(Object.keys(w).sort()).toEqual(LIST_KEYS);
        expect(res.body).not.toContain(beta.token);
        for (const secret of [
          "api-token-of-the-cloud-connection",
          "EAAG-very-secret-access-token",
          "very-secret-app-secret",
          "verify-token-value",
          "providerConfig",
          "accessToken",
          "appSecret",
        ]) {
          expect(res.body).not.toContain(secret);
        }
      }
    }
    const agentView = (await list(team.agentLogin)).json<WhatsappDTO[]>();
    expect(agentView.find((w) => w.id === beta.id)).toMatchObject({
      name: "Beta principal",
      provider: "beta",
      isDefault: true,
      queues: [{ id: team.queue.id, name: team.queue.name, color: team.queue.color }],
    });
  });

  it("answers [] to a company without connections, and 401 without a session", async () => {
    const team = await buildTeam(ctx);
    const res = await list(team.agentLogin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect((await list(null)).statusCode).toBe(401);
  });
});

describe("GET /whatsapp/{id}", () => {
  it("gives the admin the detail: a non-empty token and the Cloud settings with secrets only as set/not set", async () => {
    const team = await buildTeam(ctx);
    const cloud = await created(team.adminLogin, {
      name: "Cloud detalhe",
      provider: "cloud",
      cloud: {
        phoneNumberId: "111",
        wabaId: "222",
        verifyToken: "vt-333",
        accessToken: "secret-access-444",
        appSecret: "",
      },
    });
    const res = await getOne(team.adminLogin, cloud.id);
    expect(res.statusCode).toBe(200);
    const body = res.json<WhatsappDetailDTO>();
    expect(Object.keys(body).sort()).toEqual([...LIST_KEYS, "cloud", "token"].sort());
    expect(body.token.length).toBeGreaterThanOrEqual(20);
    expect(body.cloud).toEqual({
      phoneNumberId: "111",
      wabaId: "222",
      verifyToken: "vt-333",
      accessTokenSet: true,
      appSecretSet: false,
      webhookUrl: expect.stringMatching(new RegExp(`/webhooks/cloud/${cloud.id}$`)),
    });
    expect(res.body).not.toContain("secret-access-444");
    expect(res.body).not.toContain("providerConfig");
    // Same on the POST answer.
    expect(JSON.stringify(cloud)).not.toContain("secret-access-444");
  });

  it("answers 403 ERR_NO_PERMISSION to an agent, and 404 ERR_NO_WAPP_FOUND for an id that does not exist", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin);
    const res = await getOne(team.agentLogin, w.id);
    expectError(res, 403, "ERR_NO_PERMISSION");
    expect(res.body).not.toContain(w.token);
    expectError(await getOne(team.adminLogin, 2_147_483_647), 404, "ERR_NO_WAPP_FOUND");
  });
});

describe("POST /whatsapp", () => {
  it("creates with 201: defaults provider beta and maxUseBotQueues 3; the first connection becomes the default", async () => {
    const team = await buildTeam(ctx);
    const res = await create(team.adminLogin, { name: "Primeira" });
    expect(res.statusCode, res.body).toBe(201);
    const first = res.json<WhatsappDetailDTO>();
    expect(first).toMatchObject({
      name: "Primeira",
      provider: "beta",
      maxUseBotQueues: 3,
      isDefault: true,
      expiresTicket: 0,
      timeUseBotQueues: 0,
      timeToTransfer: 0,
      transferQueueId: null,
      queues: [],
      schedules: [],
    });
    expect(["OPENING", "qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT"]).toContain(first.status);
    expect(await rowOf(first.id)).toMatchObject({
      companyId: team.company.id,
      provider: "beta",
      maxUseBotQueues: 3,
      isDefault: true,
    });

    const second = await created(team.adminLogin, { name: "Segunda" });
    expect(second.isDefault).toBe(false);
    expect(await defaultsOf(team.company.id)).toEqual([first.id]);

    // Asking for the default on a new one moves it.
    const third = await created(team.adminLogin, { name: "Terceira", isDefault: true });
    expect(third.isDefault).toBe(true);
    expect(await defaultsOf(team.company.id)).toEqual([third.id]);
  });

  it("validates the name: 'Too Short!', 'Too Long!', 'Required', and creates nothing", async () => {
    const team = await buildTeam(ctx);
    const cases: [unknown, string][] = [
      [{ name: "a" }, "Too Short!"],
      [{ name: "  a  " }, "Too Short!"],
      [{ name: "x".repeat(51) }, "Too Long!"],
      [{}, "Required"],
      [{ name: "" }, "Required"],
      [{ name: "   " }, "Required"],
    ];
    for (const [body, message] of cases) {
      const res = await create(team.adminLogin, body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().fields, JSON.stringify(body)).toMatchObject({ name: message });
    }
    expect(await connectionsOf(team.company.id)).toBe(0);
    // The bounds themselves are fine.
    expect((await create(team.adminLogin, { name: "ab" })).statusCode).toBe(201);
    expect((await create(team.adminLogin, { name: "y".repeat(50) })).statusCode).toBe(201);
  });

  it("generates a random token of at least 20 characters when none is given, different for each connection; keeps a given one", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin);
    const b = await created(team.adminLogin, { token: "" });
    expect(a.token.length).toBeGreaterThanOrEqual(20);
    expect(b.token.length).toBeGreaterThanOrEqual(20);
    expect(a.token).not.toBe(b.token);
    expect((await rowOf(a.id))!.token).toBe(a.token);

    const given = `my-token-${crypto.randomBytes(4).toString("hex")}`;
    const c = await created(team.adminLogin, { token: `  ${given}  ` });
    expect(c.token).toBe(given);
    expect((await rowOf(c.id))!.token).toBe(given);
  });

  it("refuses a token another connection uses, in this company or another, with 409 ERR_WAPP_TOKEN_TAKEN", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const token = `shared-${crypto.randomBytes(6).toString("hex")}`;
    await created(teamA.adminLogin, { token });
    expectError(await create(teamA.adminLogin, { name: unique(), token }), 409, "ERR_WAPP_TOKEN_TAKEN");
    expectError(await create(teamB.adminLogin, { name: unique(), token }), 409, "ERR_WAPP_TOKEN_TAKEN");
    expect(await connectionsOf(teamA.company.id)).toBe(1);
    expect(await connectionsOf(teamB.company.id)).toBe(0);
  });

  it("refuses a name already used in the company with 409 ERR_WAPP_NAME_TAKEN, but allows it in another company", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    await created(teamA.adminLogin, { name: "Atendimento" });
    expectError(await create(teamA.adminLogin, { name: "Atendimento" }), 409, "ERR_WAPP_NAME_TAKEN");
    expectError(await create(teamA.adminLogin, { name: "  Atendimento " }), 409, "ERR_WAPP_NAME_TAKEN");
    expect(await connectionsOf(teamA.company.id)).toBe(1);
    const other = await create(teamB.adminLogin, { name: "Atendimento" });
    expect(other.statusCode, other.body).toBe(201);
  });

  it("two queues need a greeting: 400 ERR_WAPP_GREETING_REQUIRED and nothing created; with one it saves both queues", async () => {
    const team = await buildTeam(ctx);
    const q2 = await buildQueue(ctx.deps.db, team.company.id);
    for (const greetingMessage of [undefined, "", "   "]) {
      const res = await create(team.adminLogin, {
        name: unique(),
        queueIds: [team.queue.id, q2.id],
        greetingMessage,
      });
      expectError(res, 400, "ERR_WAPP_GREETING_REQUIRED");
    }
    expect(await connectionsOf(team.company.id)).toBe(0);
    // One queue needs no greeting.
    const single = await created(team.adminLogin, { queueIds: [team.queue.id] });
    expect(single.queues.map((q) => q.id)).toEqual([team.queue.id]);
    const both = await created(team.adminLogin, {
      queueIds: [team.queue.id, q2.id, q2.id],
      greetingMessage: "Escolha uma opção",
    });
    expect(both.queues.map((q) => q.id).sort((a, b) => a - b)).toEqual(
      [team.queue.id, q2.id].sort((a, b) => a - b),
    );
    expect(await queueIdsOf(both.id)).toEqual([team.queue.id, q2.id].sort((a, b) => a - b));
  });

  it("refuses a queue (or transfer queue) of another company with 404 ERR_NO_QUEUE_FOUND", async () => {
    const team = await buildTeam(ctx);
    const other = await buildTeam(ctx);
    expectError(
      await create(team.adminLogin, { name: unique(), queueIds: [other.queue.id] }),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expectError(
      await create(team.adminLogin, { name: unique(), transferQueueId: other.queue.id }),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expectError(
      await create(team.adminLogin, { name: unique(), queueIds: [2_147_483_647] }),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expect(await connectionsOf(team.company.id)).toBe(0);
  });

  it("stops at the plan's connection limit with 403 ERR_PLAN_CONNECTION_LIMIT", async () => {
    const plan = await buildPlan(ctx.deps.db, { connections: 1 });
    const company = await buildCompany(ctx.deps.db, { planId: plan.id });
    const admin = await adminOf(company.id);
    await created(admin);
    expectError(await create(admin, { name: unique() }), 403, "ERR_PLAN_CONNECTION_LIMIT");
    expect(await connectionsOf(company.id)).toBe(1);
  });

  it("refuses an agent with 403 ERR_NO_PERMISSION and creates nothing", async () => {
    const team = await buildTeam(ctx);
    expectError(await create(team.agentLogin, { name: "Do agente" }), 403, "ERR_NO_PERMISSION");
    expect(await connectionsOf(team.company.id)).toBe(0);
  });

  it("keeps the opening hours and the other dialog fields", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, {
      greetingMessage: "Olá!",
      complationMessage: "Obrigado!",
      outOfHoursMessage: "Fora do horário",
      ratingMessage: "Avalie",
      expiresInactiveMessage: "Encerrado por inatividade",
      expiresTicket: 24,
      timeUseBotQueues: 5,
      maxUseBotQueues: 2,
      timeToTransfer: 10,
      transferQueueId: team.queue.id,
      schedules: SCHEDULES,
    });
    expect(w).toMatchObject({
      greetingMessage: "Olá!",
      complationMessage: "Obrigado!",
      outOfHoursMessage: "Fora do horário",
      ratingMessage: "Avalie",
      expiresInactiveMessage: "Encerrado por inatividade",
      expiresTicket: 24,
      timeUseBotQueues: 5,
      maxUseBotQueues: 2,
      timeToTransfer: 10,
      transferQueueId: team.queue.id,
      schedules: SCHEDULES,
    });
    expect((await getOne(team.adminLogin, w.id)).json()).toMatchObject({ schedules: SCHEDULES });
  });
});

describe("PUT /whatsapp/{id}", () => {
  it("edits the fields and the queues", async () => {
    const team = await buildTeam(ctx);
    const q2 = await buildQueue(ctx.deps.db, team.company.id);
    const w = await created(team.adminLogin, { queueIds: [team.queue.id] });
    const res = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, {
        name: "Renomeada",
        greetingMessage: "Bem-vindo",
        queueIds: [q2.id, team.queue.id],
        transferQueueId: q2.id,
        timeToTransfer: 15,
        maxUseBotQueues: 7,
        schedules: SCHEDULES,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<WhatsappDetailDTO>();
    expect(body).toMatchObject({
      id: w.id,
      name: "Renomeada",
      greetingMessage: "Bem-vindo",
      transferQueueId: q2.id,
      timeToTransfer: 15,
      maxUseBotQueues: 7,
      schedules: SCHEDULES,
      token: w.token,
      isDefault: true,
    });
    expect(body.queues.map((q) => q.id).sort((a, b) => a - b)).toEqual(
      [team.queue.id, q2.id].sort((a, b) => a - b),
    );
    expect(await rowOf(w.id)).toMatchObject({
      name: "Renomeada",
      greetingMessage: "Bem-vindo",
      token: w.token,
    });
    expect(await queueIdsOf(w.id)).toEqual([team.queue.id, q2.id].sort((a, b) => a - b));

    // Dropping the queues.
    const cleared = await update(team.adminLogin, w.id, dialogBody(body, { queueIds: [] }));
    expect(cleared.statusCode).toBe(200);
    expect(await queueIdsOf(w.id)).toEqual([]);
  });

  it("keeps the token when it is sent empty, replaces it with a given one, and refuses one taken elsewhere", async () => {
    const team = await buildTeam(ctx);
    const other = await buildTeam(ctx);
    const foreign = await created(other.adminLogin);
    const w = await created(team.adminLogin);
    const kept = await update(team.adminLogin, w.id, dialogBody(w, { token: "" }));
    expect(kept.json<WhatsappDetailDTO>().token).toBe(w.token);
    const replaced = await update(team.adminLogin, w.id, dialogBody(w, { token: "novo-token-da-api-123" }));
    expect(replaced.json<WhatsappDetailDTO>().token).toBe("novo-token-da-api-123");
    const res = await update(team.adminLogin, w.id, dialogBody(w, { token: foreign.token }));
    expectError(res, 409, "ERR_WAPP_TOKEN_TAKEN");
    expect((await rowOf(w.id))!.token).toBe("novo-token-da-api-123");
  });

  it("refuses the name of another connection of the company, and validates like create", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Loja A" });
    const b = await created(team.adminLogin, { name: "Loja B" });
    expectError(
      await update(team.adminLogin, b.id, dialogBody(b, { name: "Loja A" })),
      409,
      "ERR_WAPP_NAME_TAKEN",
    );
    // Saving with its own name is fine.
    expect((await update(team.adminLogin, a.id, dialogBody(a))).statusCode).toBe(200);
    const short = await update(team.adminLogin, b.id, dialogBody(b, { name: "B" }));
    expectError(short, 400, "ERR_VALIDATION");
    expect(short.json().fields).toMatchObject({ name: "Too Short!" });
    const q2 = await buildQueue(ctx.deps.db, team.company.id);
    expectError(
      await update(
        team.adminLogin,
        b.id,
        dialogBody(b, { queueIds: [team.queue.id, q2.id], greetingMessage: "" }),
      ),
      400,
      "ERR_WAPP_GREETING_REQUIRED",
    );
    expect(await rowOf(b.id)).toMatchObject({ name: "Loja B" });
    expect(await queueIdsOf(b.id)).toEqual([]);
  });

  it("setting isDefault on B unsets A; unsetting it on the only default answers 400 ERR_NO_OTHER_WHATSAPP", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Padrão A" });
    const b = await created(team.adminLogin, { name: "Outra B" });
    expect(await defaultsOf(team.company.id)).toEqual([a.id]);

    const res = await update(team.adminLogin, b.id, dialogBody(b, { isDefault: true }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WhatsappDetailDTO>().isDefault).toBe(true);
    expect(await defaultsOf(team.company.id)).toEqual([b.id]);
    expect((await getOne(team.adminLogin, a.id)).json<WhatsappDetailDTO>().isDefault).toBe(false);

    const refused = await update(team.adminLogin, b.id, dialogBody(b, { isDefault: false }));
    expectError(refused, 400, "ERR_NO_OTHER_WHATSAPP");
    expect(await defaultsOf(team.company.id)).toEqual([b.id]);
  });

  it("Cloud secrets: an empty accessToken keeps the stored one, a new one replaces it, and neither is ever answered", async () => {
    const team = await buildTeam(ctx);
    const cloud = {
      phoneNumberId: "555",
      wabaId: "666",
      verifyToken: "vt",
      accessToken: "first-access-token",
      appSecret: "first-app-secret",
    };
    const w = await created(team.adminLogin, { provider: "cloud", cloud });
    expect(w.cloud).toMatchObject({ accessTokenSet: true, appSecretSet: true });

    const kept = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { cloud: { ...cloud, accessToken: "", appSecret: "", wabaId: "777" } }),
    );
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<WhatsappDetailDTO>().cloud).toMatchObject({
      wabaId: "777",
      accessTokenSet: true,
      appSecretSet: true,
    });
    expect((await rowOf(w.id))!.providerConfig).toMatchObject({
      accessToken: "first-access-token",
      appSecret: "first-app-secret",
      wabaId: "777",
    });

    const replaced = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { cloud: { ...cloud, accessToken: "second-access-token", appSecret: "" } }),
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.body).not.toContain("second-access-token");
    expect(replaced.body).not.toContain("first-app-secret");
    expect((await rowOf(w.id))!.providerConfig).toMatchObject({
      accessToken: "second-access-token",
      appSecret: "first-app-secret",
    });

    // A save without the cloud block (the dialog of another provider) keeps the settings too.
    await update(team.adminLogin, w.id, dialogBody(w));
    expect((await rowOf(w.id))!.providerConfig).toMatchObject({ accessToken: "second-access-token" });
  });

  it("refuses an agent with 403 and an unknown id with 404, changing nothing", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, { name: "Intacta" });
    expectError(
      await update(team.agentLogin, w.id, dialogBody(w, { name: "Do agente" })),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await update(team.adminLogin, 2_147_483_647, dialogBody(w)), 404, "ERR_NO_WAPP_FOUND");
    expect((await rowOf(w.id))!.name).toBe("Intacta");
  });
});

describe("DELETE /whatsapp/{id}", () => {
  it("answers 204 and the connection is gone", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, { queueIds: [team.queue.id] });
    const res = await remove(team.adminLogin, w.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(await rowOf(w.id)).toBeNull();
    expect(await queueIdsOf(w.id)).toEqual([]);
    expectError(await getOne(team.adminLogin, w.id), 404, "ERR_NO_WAPP_FOUND");
    expectError(await remove(team.adminLogin, w.id), 404, "ERR_NO_WAPP_FOUND");
  });

  it("deleting the default promotes another connection to default", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Padrão" });
    const b = await created(team.adminLogin, { name: "Reserva 1" });
    const c = await created(team.adminLogin, { name: "Reserva 2" });
    expect((await remove(team.adminLogin, a.id)).statusCode).toBe(204);
    const defaults = await defaultsOf(team.company.id);
    expect(defaults).toHaveLength(1);
    expect([b.id, c.id]).toContain(defaults[0]);
    const listed = (await list(team.adminLogin)).json<WhatsappDTO[]>();
    expect(listed.filter((w) => w.isDefault).map((w) => w.id)).toEqual(defaults);
    // Deleting a non-default leaves the default alone.
    const nonDefault = defaults[0] === b.id ? c : b;
    expect((await remove(team.adminLogin, nonDefault.id)).statusCode).toBe(204);
    expect(await defaultsOf(team.company.id)).toEqual(defaults);
  });

  it("refuses an agent with 403 ERR_NO_PERMISSION and keeps the connection", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin);
    expectError(await remove(team.agentLogin, w.id), 403, "ERR_NO_PERMISSION");
    expect(await rowOf(w.id)).not.toBeNull();
  });
});

type SessionEvent = { action: "update"; session: WhatsappSessionDTO };
type WhatsappEvent = { action: "update"; whatsapp: WhatsappDTO } | { action: "delete"; whatsappId: number };

describe("sessions and their live events", () => {
  it("a simulator connection goes OPENING → qrcode → CONNECTED; disconnect, start, new QR and restart move it, live to the company only", async () => {
    const team = await buildTeam(ctx);
    const stranger = await buildTeam(ctx);
    const url = await ctx.url();
    const adminSocket = await connectSocket(url, team.adminLogin.token);
    const agentSocket = await connectSocket(url, team.agentLogin.token);
    const strangerSocket = await connectSocket(url, stranger.adminLogin.token);
    sockets.push(adminSocket, agentSocket, strangerSocket);
    const sessionEvents = record<SessionEvent>(adminSocket, `company-${team.company.id}-whatsappSession`);
    const whatsappEvents = record<WhatsappEvent>(adminSocket, `company-${team.company.id}-whatsapp`);
    const agentWhatsappEvents = record<WhatsappEvent>(agentSocket, `company-${team.company.id}-whatsapp`);
    const strangerGot: { event: string; payload: unknown }[] = [];
    strangerSocket.onAny((event: string, payload: unknown) => strangerGot.push({ event, payload }));

    const res = await create(team.adminLogin, { name: "Simulador", provider: "simulator" });
    expect(res.statusCode, res.body).toBe(201);
    const w = res.json<WhatsappDetailDTO>();
    expect(["OPENING", "qrcode"]).toContain(w.status);
    const statusesOf = () => sessionEvents.filter((e) => e.session.id === w.id).map((e) => e.session.status);

    // OPENING, then a QR code.
    await untilStatus(w.id, "qrcode");
    const qr1 = (await rowOf(w.id))!.qrcode;
    expect(qr1.length).toBeGreaterThan(0);
    await eventually(() => statusesOf().includes("qrcode"));
    expect(statusesOf().indexOf("OPENING")).toBeGreaterThanOrEqual(0);
    expect(statusesOf().indexOf("OPENING")).toBeLessThan(statusesOf().indexOf("qrcode"));
    const qrEvent = sessionEvents.find((e) => e.session.id === w.id && e.session.status === "qrcode")!;
    expect(qrEvent).toEqual({
      action: "update",
      session: {
        id: w.id,
        status: "qrcode",
        qrcode: qr1,
        retries: expect.any(Number),
        number: "",
        updatedAt: expect.any(String),
      },
    });
    await eventually(() =>
      whatsappEvents.some(
        (e) => e.action === "update" && e.whatsapp.id === w.id && e.whatsapp.status === "qrcode",
      ),
    );
    // The admin's GET shows it too.
    const shown = (await getOne(team.adminLogin, w.id)).json<WhatsappDetailDTO>();
    expect(shown).toMatchObject({ status: "qrcode", qrcode: qr1 });

    // The phone scans the QR: CONNECTED, with a number, QR cleared.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    expect(await rowOf(w.id)).toMatchObject({
      status: "CONNECTED",
      number: simulatorNumber(w.id),
      qrcode: "",
    });
    await eventually(() =>
      sessionEvents.some(
        (e) =>
          e.session.id === w.id &&
          e.session.status === "CONNECTED" &&
          e.session.number === simulatorNumber(w.id),
      ),
    );

    // Disconnect: DISCONNECTED, no QR.
    expect((await call("DELETE", `/whatsappsession/${w.id}`, team.adminLogin)).statusCode).toBe(204);
    expect(await rowOf(w.id)).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
    await eventually(() =>
      sessionEvents.some(
        (e) => e.session.id === w.id && e.session.status === "DISCONNECTED" && e.session.qrcode === "",
      ),
    );
    await eventually(() =>
      whatsappEvents.some(
        (e) => e.action === "update" && e.whatsapp.id === w.id && e.whatsapp.status === "DISCONNECTED",
      ),
    );

    // Try again: it was logged out, so it asks for a new scan.
    expect((await call("POST", `/whatsappsession/${w.id}`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "qrcode");
    const qr2 = (await rowOf(w.id))!.qrcode;
    expect(qr2).not.toBe("");
    expect(qr2).not.toBe(qr1);
    await new Promise((r) => setTimeout(r, 1_200)); // more than the simulator's pairing poll
    expect((await rowOf(w.id))!.status).toBe("qrcode");

    // Pair again, then ask for a new QR: the pairing is forgotten.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    expect((await call("PUT", `/whatsappsession/${w.id}`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "qrcode");
    const qr3 = (await rowOf(w.id))!.qrcode;
    expect(qr3).not.toBe("");
    expect([qr1, qr2]).not.toContain(qr3);
    await eventually(() => sessionEvents.some((e) => e.session.id === w.id && e.session.qrcode === qr3));

    // Restart all: a paired connection comes back CONNECTED through OPENING.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    // Events are emitted after commit: let the CONNECTED one arrive before counting.
    const connectedEvents = () =>
      sessionEvents.filter((e) => e.session.id === w.id && e.session.status === "CONNECTED").length;
    await waitFor(() => connectedEvents() >= 3, 10_000);
    const before = sessionEvents.length;
    const restart = await call("POST", "/whatsapp-restart/", team.adminLogin);
    expect(restart.statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    await eventually(() => sessionEvents.slice(before).some((e) => e.session.status === "CONNECTED"));
    expect(sessionEvents.slice(before).map((e) => e.session.status)[0]).toBe("OPENING");

    // Delete: the session ends, its lease is freed, and the list hears it.
    expect((await remove(team.adminLogin, w.id)).statusCode).toBe(204);
    expect(ctx.built.channels.sessions.session(w.id)).toBeNull();
    expect(
      await ctx.deps.db.select().from(whatsappLeases).where(eq(whatsappLeases.whatsappId, w.id)),
    ).toEqual([]);
    await eventually(() => whatsappEvents.some((e) => e.action === "delete" && e.whatsappId === w.id));
    await eventually(() => agentWhatsappEvents.some((e) => e.action === "delete" && e.whatsappId === w.id));

    // Whatever agents heard about the connection carried no token.
    expect(JSON.stringify(agentWhatsappEvents)).not.toContain(w.token);
    for (const e of agentWhatsappEvents)
      if (e.action === "update") expect(e.whatsapp).not.toHaveProperty("token");

    // The other company's socket heard nothing of this company.
    await new Promise((r) => setTimeout(r, 200));
    expect(strangerGot.filter((g) => g.event.startsWith(`company-${team.company.id}-`))).toEqual([]);
    expect(strangerGot.filter((g) => !g.event.startsWith(`company-${stranger.company.id}-`))).toEqual([]);
  });

  it("changing the provider restarts the session with the new one; a save that changes nothing about the session leaves it running", async () => {
    const team = await buildTeam(ctx);
    const url = await ctx.url();
    const adminSocket = await connectSocket(url, team.adminLogin.token);
    sockets.push(adminSocket);
    const sessionEvents = record<SessionEvent>(adminSocket, `company-${team.company.id}-whatsappSession`);

    // beta (never reaches WhatsApp here) → simulator: a simulator QR appears.
    const w = await created(team.adminLogin, { name: "Troca de provedor" });
    const res = await update(team.adminLogin, w.id, dialogBody(w, { provider: "simulator" }));
    expect(res.statusCode, res.body).toBe(200);
    await untilStatus(w.id, "qrcode");
    expect((await rowOf(w.id))!.qrcode).toMatch(/^atende-simulator:/);

    // A connected simulator renamed: still CONNECTED, no OPENING on the way.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    await waitFor(
      () => sessionEvents.some((e) => e.session.id === w.id && e.session.status === "CONNECTED"),
      10_000,
    );
    let mark = sessionEvents.length;
    const renamed = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { provider: "simulator", name: "Renomeada" }),
    );
    expect(renamed.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(sessionEvents.slice(mark).map((e) => e.session.status)).toEqual([]);
    expect((await rowOf(w.id))!.status).toBe("CONNECTED");

    // A Cloud connection saved again with the same settings (secrets left empty, as the dialog sends them).
    const cloud = {
      phoneNumberId: "123",
      wabaId: "456",
      verifyToken: "vt",
      accessToken: "tok",
      appSecret: "sec",
    };
    const c = await created(team.adminLogin, { name: "Cloud estável", provider: "cloud", cloud });
    await untilStatus(c.id, "CONNECTED");
    await waitFor(
      () => sessionEvents.some((e) => e.session.id === c.id && e.session.status === "CONNECTED"),
      10_000,
    );
    mark = sessionEvents.length;
    const saved = await update(
      team.adminLogin,
      c.id,
      dialogBody(c, { name: "Cloud renomeada", cloud: { ...cloud, accessToken: "", appSecret: "" } }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      sessionEvents
        .slice(mark)
        .filter((e) => e.session.id === c.id)
        .map((e) => e.session.status),
    ).toEqual([]);
  });

  it("the session buttons and restart are for admins: an agent gets 403 ERR_NO_PERMISSION and nothing moves", async () => {
    const team = await buildTeam(ctx);
    const w = await connectSimulator(ctx, team.adminLogin);
    const before = await rowOf(w.id);
    for (const [method, url] of [
      ["POST", `/whatsappsession/${w.id}`],
      ["PUT", `/whatsappsession/${w.id}`],
      ["DELETE", `/whatsappsession/${w.id}`],
      ["POST", "/whatsapp-restart/"],
      ["POST", "/whatsapp-restart"],
    ] as const) {
      expectError(await call(method, url, team.agentLogin), 403, "ERR_NO_PERMISSION");
    }
    expect(await rowOf(w.id)).toEqual(before);
  });
});

describe("tenant isolation", () => {
  it("an admin of company B gets 404 ERR_NO_WAPP_FOUND on every call about company A's connection, and nothing changes", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const w = await connectSimulator(ctx, teamA.adminLogin, {
      name: "Conexão de A",
      queueIds: [teamA.queue.id],
    });
    const own = await created(teamB.adminLogin, { name: "Conexão de B" });
    const before = await rowOf(w.id);
    expect(before!.status).toBe("CONNECTED");
    const queuesBefore = await queueIdsOf(w.id);

    const attempts = [
      await getOne(teamB.adminLogin, w.id),
      await update(teamB.adminLogin, w.id, { name: "Tomada por B", isDefault: true, queueIds: [] }),
      await update(teamB.adminLogin, w.id, dialogBody(own, { name: "Tomada por B" })),
      await call("POST", `/whatsappsession/${w.id}`, teamB.adminLogin),
      await call("PUT", `/whatsappsession/${w.id}`, teamB.adminLogin),
      await call("DELETE", `/whatsappsession/${w.id}`, teamB.adminLogin),
      await remove(teamB.adminLogin, w.id),
    ];
    for (const res of attempts) {
      expectError(res, 404, "ERR_NO_WAPP_FOUND");
      expect(res.body).not.toContain(w.token);
      expect(res.body).not.toContain("Conexão de A");
    }
    // An agent of B is told the same (not 403, which would confirm the id exists).
    expectError(await getOne(teamB.agentLogin, w.id), 404, "ERR_NO_WAPP_FOUND");

    // Restarting B's connections leaves A's session alone.
    expect((await call("POST", "/whatsapp-restart/", teamB.adminLogin)).statusCode).toBe(204);

    await new Promise((r) => setTimeout(r, 300));
    expect(await rowOf(w.id)).toEqual(before);
    expect(await queueIdsOf(w.id)).toEqual(queuesBefore);
    expect(ctx.built.channels.sessions.session(w.id)).not.toBeNull();

    for (const who of [teamB.adminLogin, teamB.agentLogin]) {
      const listed = (await list(who)).json<WhatsappDTO[]>();
      expect(listed.map((x) => x.id)).toEqual([own.id]);
    }
    const listedA = (await list(teamA.adminLogin)).json<WhatsappDTO[]>();
    expect(listedA.map((x) => x.id)).toEqual([w.id]);
  });

  it("a companyId in the query or the body is ignored: the caller's company decides", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const a = await created(teamA.adminLogin, { name: "Só de A" });
    for (const path of [
      `/whatsapp?companyId=${teamA.company.id}`,
      `/whatsapp/?companyId=${teamA.company.id}&session=0`,
    ]) {
      const res = await list(teamB.adminLogin, path);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    }
    const res = await create(teamB.adminLogin, { name: "Tentativa", companyId: teamA.company.id });
    expect(res.statusCode, res.body).toBe(201);
    expect((await rowOf(res.json<WhatsappDetailDTO>().id))!.companyId).toBe(teamB.company.id);
    expect((await list(teamA.adminLogin)).json<WhatsappDTO[]>().map((w) => w.id)).toEqual([a.id]);
  });

  it("a queue of company B cannot be attached to A's connection through PUT", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const w = await created(teamA.adminLogin, { queueIds: [teamA.queue.id] });
    expectError(
      await update(teamA.adminLogin, w.id, dialogBody(w, { queueIds: [teamB.queue.id] })),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expectError(
      await update(teamA.adminLogin, w.id, dialogBody(w, { transferQueueId: teamB.queue.id })),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expect(await queueIdsOf(w.id)).toEqual([teamA.queue.id]);
    expect((await rowOf(w.id))!.transferQueueId).toBeNull();
  });
});

describe("at the same time", () => {
  it("five creates with one name: one 201, the others 409 ERR_WAPP_NAME_TAKEN", async () => {
    const team = await buildTeam(ctx);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => create(team.adminLogin, { name: "Corrida" })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectError(r, 409, "ERR_WAPP_NAME_TAKEN");
    expect(await connectionsOf(team.company.id)).toBe(1);
  });

  it("six creates against a plan of two connections: two created, four 403 ERR_PLAN_CONNECTION_LIMIT, one default", async () => {
    const plan = await buildPlan(ctx.deps.db, { connections: 2 });
    const company = await buildCompany(ctx.deps.db, { planId: plan.id });
    const admin = await adminOf(company.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => create(admin, { name: unique() })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    for (const r of results.filter((x) => x.statusCode !== 201))
      expectError(r, 403, "ERR_PLAN_CONNECTION_LIMIT");
    expect(await connectionsOf(company.id)).toBe(2);
    expect(await defaultsOf(company.id)).toHaveLength(1);
  });

  it("two admins making two different connections the default at once: both saves succeed and one default remains", async () => {
    const team = await buildTeam(ctx);
    await created(team.adminLogin, { name: "Padrão atual" });
    const b = await created(team.adminLogin, { name: "Candidata B" });
    const c = await created(team.adminLogin, { name: "Candidata C" });
    const results = await Promise.all([
      update(team.adminLogin, b.id, dialogBody(b, { isDefault: true })),
      update(team.adminLogin, c.id, dialogBody(c, { isDefault: true })),
    ]);
    expect(results.map((r) => `${r.statusCode} ${r.statusCode === 200 ? "" : r.body}`)).toEqual([
      "200 ",
      "200 ",
    ]);
    const defaults = await defaultsOf(team.company.id);
    expect(defaults).toHaveLength(1);
    expect([b.id, c.id]).toContain(defaults[0]);
  });

  it("deleting the default and the next connection at once still leaves the company a default", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Padrão a apagar" });
    const b = await created(team.adminLogin, { name: "Próxima a apagar" });
    const c = await created(team.adminLogin, { name: "Sobrevivente" });
    const results = await Promise.all([remove(team.adminLogin, a.id), remove(team.adminLogin, b.id)]);
    expect(results.map((r) => r.statusCode)).toEqual([204, 204]);
    expect(await defaultsOf(team.company.id)).toEqual([c.id]);
  });
});

describe("bad input never answers 500", () => {
  it("ids like 0, -1, abc, 1.5, 99999999999 answer 400 ERR_VALIDATION on every route", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin);
    for (const id of ["0", "-1", "abc", "1.5", "99999999999", "1e3x", "%20"]) {
      for (const [method, url, body] of [
        ["GET", `/whatsapp/${id}`, undefined],
        ["PUT", `/whatsapp/${id}`, dialogBody(w)],
        ["DELETE", `/whatsapp/${id}`, undefined],
        ["POST", `/whatsappsession/${id}`, undefined],
        ["PUT", `/whatsappsession/${id}`, undefined],
        ["DELETE", `/whatsappsession/${id}`, undefined],
      ] as const) {
        const res = await call(method, url, team.adminLogin, body);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toBe("ERR_VALIDATION");
      }
    }
    expect(await rowOf(w.id)).not.toBeNull();
  });

  it("bodies of the wrong shape or type answer 400 and create nothing", async () => {
    const team = await buildTeam(ctx);
    const bodies: unknown[] = [
      "just a string",
      [],
      [{ name: "Array" }],
      42,
      null,
      { name: 123 },
      { name: ["Lista"] },
      { name: { first: "x" } },
      { name: "Válida", provider: "whatsapp-web" },
      { name: "Válida", isDefault: "yes" },
      { name: "Válida", queueIds: "1" },
      { name: "Válida", queueIds: ["a"] },
      { name: "Válida", queueIds: [0] },
      { name: "Válida", queueIds: [-1] },
      { name: "Válida", queueIds: [99_999_999_999] },
      { name: "Válida", queueIds: [1.5] },
      { name: "Válida", transferQueueId: "abc" },
      { name: "Válida", maxUseBotQueues: "3" },
      { name: "Válida", maxUseBotQueues: -1 },
      { name: "Válida", expiresTicket: 1e12 },
      { name: "Válida", timeToTransfer: 2.5 },
      { name: "Válida", token: "t".repeat(201) },
      { name: "Válida", token: 12345 },
      { name: "Válida", greetingMessage: { text: "oi" } },
      { name: "Válida", greetingMessage: "x".repeat(5000) },
      { name: "Nul\u0000no meio" },
      { name: "Válida", schedules: "segunda" },
      { name: "Válida", schedules: [{ weekday: "Segunda" }] },
      { name: "Válida", schedules: [{ ...SCHEDULES[0], startTime: "25:00" }] },
      { name: "Válida", schedules: [{ ...SCHEDULES[0], endTime: "18:60" }] },
      { name: "Válida", schedules: [{ ...SCHEDULES[0], startTime: "8:00" }] },
      { name: "Válida", cloud: "secret" },
      { name: "Válida", cloud: { accessToken: 123 } },
    ];
    for (const body of bodies) {
      const res = await create(team.adminLogin, body);
      expect(res.statusCode, `${JSON.stringify(body)?.slice(0, 80)}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    const hours = await create(team.adminLogin, {
      name: "Válida",
      schedules: [{ ...SCHEDULES[0], startTime: "25:00" }],
    });
    expect(hours.json().fields).toHaveProperty(["schedules.0.startTime"]);
    expect(await connectionsOf(team.company.id)).toBe(0);
  });

  it("raw bodies that are not JSON objects answer 4xx, never 500, on POST and PUT", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, { name: "Alvo" });
    const raws: { payload: string; type: string }[] = [
      { payload: '"a string"', type: "application/json" },
      { payload: "[1,2,3]", type: "application/json" },
      { payload: "{not json", type: "application/json" },
      { payload: "", type: "application/json" },
      { payload: "name=Texto", type: "application/x-www-form-urlencoded" },
      { payload: "name: Texto", type: "text/plain" },
    ];
    for (const { payload, type } of raws) {
      for (const [method, url] of [
        ["POST", "/whatsapp"],
        ["PUT", `/whatsapp/${w.id}`],
      ] as const) {
        const res = await ctx.app.inject({
          method,
          url,
          payload,
          headers: { ...team.adminLogin.auth, "content-type": type },
        });
        expect(res.statusCode, `${method} ${type} ${payload}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${type} ${payload}: ${res.body}`).toBeLessThan(500);
        expect(res.json().error).toMatch(/^ERR_/);
      }
    }
    expect(await connectionsOf(team.company.id)).toBe(1);
    expect((await rowOf(w.id))!.name).toBe("Alvo");
  });

  it("PUT with schedules of '25:00' answers 400 and keeps the saved hours", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, { schedules: SCHEDULES });
    const res = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { schedules: [{ ...SCHEDULES[0], startTime: "25:00" }] }),
    );
    expectError(res, 400, "ERR_VALIDATION");
    expect(res.json().fields).toHaveProperty(["schedules.0.startTime"]);
    expect((await rowOf(w.id))!.schedules).toEqual(SCHEDULES);
  });
});
