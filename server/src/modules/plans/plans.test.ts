import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanRecordDTO, PublicPlanDTO } from "@atende/contracts";
import { expectError } from "../../test/calls.js";
import { type LoggedIn, buildPlan, buildTeam, buildPlatformOperator } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * The platform's plans: the super user creates, changes and deletes them; a visitor reads the
 * sign-up list (no token, no internal fields); a company's admin and agents change nothing and read
 * only their own plan.
 */
let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildTeam>>;
let b: Awaited<ReturnType<typeof buildTeam>>;
let superLogin: LoggedIn;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  a = await buildTeam(ctx);
  b = await buildTeam(ctx);
  superLogin = (await buildPlatformOperator(ctx)).login;
});
afterAll(() => ctx.close());

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, who?: LoggedIn, payload?: object) =>
  ctx.app.inject({ method, url, headers: who?.auth, payload });

const FULL = {
  name: "Ouro",
  users: 12,
  connections: 4,
  queues: 8,
  campaigns: 3,
  schedules: 50,
  value: 199.9,
  useCampaigns: true,
  useSchedules: false,
  useInternalChat: true,
  useExternalApi: false,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: true,
  useInternal: true,
};

describe("plans, as the super user", () => {
  it("creates, reads, lists, changes and deletes a plan with every field", async () => {
    const created = await call("POST", "/plans", superLogin, FULL);
    expect(created.statusCode, created.body).toBe(201);
    const plan = created.json<PlanRecordDTO>();
    expect(plan).toMatchObject({ id: expect.any(Number), ...FULL });

    const read = await call("GET", `/plans/${plan.id}`, superLogin);
    expect(read.json<PlanRecordDTO>()).toEqual(plan);

    const all = await call("GET", "/plans/all", superLogin);
    expect(all.statusCode).toBe(200);
    expect(all.json<PlanRecordDTO[]>()).toContainEqual(plan);

    const changed = await call("PUT", `/plans/${plan.id}`, superLogin, {
      name: "Ouro Plus",
      users: "20",
      value: "249.50",
      useInternal: false,
      useKanban: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<PlanRecordDTO>()).toMatchObject({
      ...FULL,
      name: "Ouro Plus",
      users: 20,
      value: 249.5,
      useInternal: false,
      useKanban: false,
    });

    expect((await call("DELETE", `/plans/${plan.id}`, superLogin)).statusCode).toBe(204);
    expectError(await call("GET", `/plans/${plan.id}`, superLogin), 404, "ERR_PLAN_NOT_FOUND");
    expectError(await call("PUT", `/plans/${plan.id}`, superLogin, { users: 1 }), 404, "ERR_PLAN_NOT_FOUND");
    expectError(await call("DELETE", `/plans/${plan.id}`, superLogin), 404, "ERR_PLAN_NOT_FOUND");
  });

  it("starts a plan created with only a name with no limits and every feature off", async () => {
    const res = await call("POST", "/plans", superLogin, { name: "Básico" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<PlanRecordDTO>()).toMatchObject({
      users: 0,
      connections: 0,
      queues: 0,
      value: 0,
      useCampaigns: false,
      useKanban: false,
      useInternal: false,
    });
  });

  it("refuses a second plan with a name in use, on create and on rename: 409 with the duplicate-name hint", async () => {
    await buildPlan(ctx.deps.db, { name: "Prata" });
    const dup = await call("POST", "/plans", superLogin, { name: "  Prata " });
    expectError(dup, 409, "ERR_PLAN_NAME_TAKEN");
    expect(dup.json<{ message: string }>().message).toMatch(/mesmo nome/);
    const other = await buildPlan(ctx.deps.db, { name: "Bronze" });
    expectError(
      await call("PUT", `/plans/${other.id}`, superLogin, { name: "Prata" }),
      409,
      "ERR_PLAN_NAME_TAKEN",
    );
  });

  it("refuses to delete a plan a company is on (4xx, not the foreign key's 500), and keeps it", async () => {
    expectError(await call("DELETE", `/plans/${a.company.planId}`, superLogin), 409, "ERR_PLAN_IN_USE");
    expect((await call("GET", `/plans/${a.company.planId}`, superLogin)).statusCode).toBe(200);
  });

  it("answers 400 ERR_VALIDATION to bad input", async () => {
    for (const payload of [
      {},
      { name: "" },
      { name: "x".repeat(101) },
      { name: "Neg", users: -1 },
      { name: "Frac", queues: 1.5 },
      { name: "Huge", connections: 10_000_000 },
      { name: "Flag", useKanban: "yes" },
      { name: "Price", value: "abc" },
    ])
      expectError(await call("POST", "/plans", superLogin, payload), 400, "ERR_VALIDATION");
    expectError(
      await call("PUT", `/plans/${a.company.planId}`, superLogin, { users: -5 }),
      400,
      "ERR_VALIDATION",
    );
    expectError(await call("GET", "/plans/abc", superLogin), 400, "ERR_VALIDATION");
  });
});

describe("plans, as a company's admin or agent", () => {
  it("gets 403 on every write and on /plans/all, and nothing changes", async () => {
    const plan = await buildPlan(ctx.deps.db, { name: "Diamante", users: 3 });
    for (const who of [a.adminLogin, a.agentLogin]) {
      expectError(
        await call("POST", "/plans", who, { name: `Mine ${who.user.id}` }),
        403,
        "ERR_NO_PERMISSION",
      );
      expectError(await call("PUT", `/plans/${plan.id}`, who, { users: 99 }), 403, "ERR_NO_PERMISSION");
      expectError(
        await call("PUT", `/plans/${a.company.planId}`, who, { users: 99 }),
        403,
        "ERR_NO_PERMISSION",
      );
      expectError(await call("DELETE", `/plans/${plan.id}`, who), 403, "ERR_NO_PERMISSION");
      expectError(await call("GET", "/plans/all", who), 403, "ERR_NO_PERMISSION");
    }
    const after = await call("GET", `/plans/${plan.id}`, superLogin);
    expect(after.json<PlanRecordDTO>()).toMatchObject({ name: "Diamante", users: 3 });
  });

  it("reads its own company's plan, and another plan (another company's) answers 404", async () => {
    const own = await call("GET", `/plans/${a.company.planId}`, a.agentLogin);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<PlanRecordDTO>().id).toBe(a.company.planId);
    expectError(await call("GET", `/plans/${b.company.planId}`, a.adminLogin), 404, "ERR_PLAN_NOT_FOUND");
  });
});

describe("plans, as a visitor", () => {
  it("lists the plans without a token, with only what the sign-up form shows", async () => {
    const plan = await buildPlan(ctx.deps.db, {
      name: "Visitante",
      users: 5,
      connections: 2,
      queues: 3,
      value: 59.9,
    });
    for (const url of ["/plans/list", "/plans/register"]) {
      const res = await call("GET", url);
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json<PublicPlanDTO[]>();
      expect(list).toContainEqual({
        id: plan.id,
        name: "Visitante",
        users: 5,
        connections: 2,
        queues: 3,
        value: 59.9,
      });
      for (const p of list)
        expect(Object.keys(p).sort()).toEqual(["connections", "id", "name", "queues", "users", "value"]);
    }
  });

  it("reads nothing else without a token", async () => {
    for (const [method, url] of [
      ["GET", "/plans/all"],
      ["GET", `/plans/${a.company.planId}`],
      ["POST", "/plans"],
      ["PUT", `/plans/${a.company.planId}`],
      ["DELETE", `/plans/${a.company.planId}`],
    ] as const)
      expectError(await call(method, url, undefined, { name: "Nope" }), 401, "ERR_NO_SESSION");
  });
});
