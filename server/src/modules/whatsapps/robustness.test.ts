import { describe, expect, it } from "vitest";

import { buildCompany, buildPlan, buildTeam } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupWhatsappsSuite,
  ctx,
  call,
  create,
  update,
  remove,
  rowOf,
  connectionsOf,
  defaultsOf,
  unique,
  created,
  dialogBody,
  adminOf,
  SCHEDULES,
} from "./testing.js";

/**
 * Calls at the same time (names, plan limit, defaults) and bad input (ids, bodies, hours) never break the
 * rules nor answer 500.
 */
setupWhatsappsSuite();

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
