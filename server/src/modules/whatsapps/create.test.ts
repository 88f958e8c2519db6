import crypto from "node:crypto";

import { describe, expect, it } from "vitest";
import type { WhatsappDetailDTO } from "@atende/contracts";

import { buildCompany, buildPlan, buildQueue, buildTeam } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupWhatsappsSuite,
  ctx,
  getOne,
  create,
  rowOf,
  connectionsOf,
  defaultsOf,
  queueIdsOf,
  unique,
  created,
  adminOf,
  tokenOf,
  SCHEDULES,
} from "./testing.js";

/**
 * Creating a connection (POST /whatsapp) with the spec's rules: defaults, validation, no token until
 * one is generated, unique name, greeting, queues, plan limit, admins only.
 */
setupWhatsappsSuite();

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

  it("creates no token: the answer has none, the row no hash; the admin's generate button makes one of 256 random bits", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin);
    const b = await created(team.adminLogin, { token: "" });
    const tokens: string[] = [];
    for (const w of [a, b]) {
      // No valid credential exists that nobody saw.
      expect(w).toMatchObject({ token: "", tokenHint: "" });
      expect(await rowOf(w.id)).toMatchObject({ tokenHash: null, tokenHint: "", legacyToken: null });
      expect((await getOne(team.adminLogin, w.id)).json<WhatsappDetailDTO>()).toMatchObject({
        token: "",
        tokenHint: "",
      });
      // Generated on demand, answered once; the row keeps only its keyed hash and hint.
      const token = await tokenOf(team.adminLogin, w.id);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const row = (await rowOf(w.id))!;
      expect(row).toMatchObject({ tokenHint: token.slice(-4), legacyToken: null });
      expect(row.tokenHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify(row)).not.toContain(token);
      // Afterwards only the hint: the detail, the list.
      const detail = (await getOne(team.adminLogin, w.id)).json<WhatsappDetailDTO>();
      expect(detail).toMatchObject({ token: "", tokenHint: token.slice(-4) });
      const list = await ctx.app.inject({ method: "GET", url: "/whatsapp", headers: team.adminLogin.auth });
      expect(list.body).not.toContain(token);
      tokens.push(token);
    }
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it("a client-chosen token is impossible: 400 ERR_WAPP_TOKEN_NOT_SETTABLE, and nothing is created", async () => {
    const team = await buildTeam(ctx);
    for (const token of ["1234", `my-token-${crypto.randomBytes(16).toString("hex")}`]) {
      expectError(
        await create(team.adminLogin, { name: unique(), token }),
        400,
        "ERR_WAPP_TOKEN_NOT_SETTABLE",
      );
    }
    expect(await connectionsOf(team.company.id)).toBe(0);
  });

  it("the same token wanted by two companies tells neither anything: both answers are the same refusal", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    // A's real token, typed by B (who somehow learned it), answers what any typed token answers.
    const a = await created(teamA.adminLogin);
    const asB = await create(teamB.adminLogin, {
      name: unique(),
      token: await tokenOf(teamA.adminLogin, a.id),
    });
    const guess = await create(teamB.adminLogin, { name: unique(), token: "token-que-ninguem-tem-1" });
    expectError(asB, 400, "ERR_WAPP_TOKEN_NOT_SETTABLE");
    expect(asB.body).toBe(guess.body);
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
