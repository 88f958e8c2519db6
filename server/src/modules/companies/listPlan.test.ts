import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompanyPlanDTO } from "@atende/contracts";
import {
  type LoggedIn,
  buildCompany,
  buildPlan,
  buildTeam,
  buildUser,
  login,
  buildPlatformOperator,
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * GET /companies/listPlan/{companyId}: the company with its plan's limits and `use*` flags, as
 * clients of this API family read it on every page to build their menu. Its own users (agents
 * too) and the super user reach it; another company's answers 404.
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

const listPlan = (who: LoggedIn, id: number | string) =>
  ctx.app.inject({ method: "GET", url: `/companies/listPlan/${id}`, headers: who.auth });

describe("GET /companies/listPlan/{companyId}", () => {
  it("answers the company and its plan, with every use* flag and limit, to its admin and its agents", async () => {
    const plan = await buildPlan(ctx.deps.db, {
      name: `Pro ${a.company.id}`,
      users: 7,
      connections: 2,
      queues: 5,
      value: 149.9,
      useCampaigns: true,
      useSchedules: false,
      useInternalChat: true,
      useExternalApi: false,
      useKanban: true,
      useOpenAi: false,
      useIntegrations: true,
      useInternal: true,
    });
    const company = await buildCompany(ctx.deps.db, { planId: plan.id, phone: "5511999990000" });
    const admin = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const agent = await buildUser(ctx.deps.db, company.id, { profile: "user" });
    const expected = {
      id: company.id,
      name: company.name,
      email: company.email,
      phone: "5511999990000",
      status: true,
      dueDate: "2099-01-01",
      createdAt: company.createdAt.toISOString(),
      plan: {
        id: plan.id,
        name: plan.name,
        users: 7,
        connections: 2,
        queues: 5,
        value: 149.9,
        useCampaigns: true,
        useSchedules: false,
        useInternalChat: true,
        useExternalApi: false,
        useKanban: true,
        useOpenAi: false,
        useIntegrations: true,
        useInternal: true,
      },
    };
    for (const who of [admin, agent]) {
      const res = await listPlan(await login(ctx, who.email), company.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<CompanyPlanDTO>()).toEqual(expected);
    }
  });

  it("the super user reaches any company; anyone else gets 404 for another company's", async () => {
    const res = await listPlan(superLogin, b.company.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CompanyPlanDTO>()).toMatchObject({ id: b.company.id, plan: { id: b.company.planId } });
    for (const who of [a.adminLogin, a.agentLogin]) {
      const other = await listPlan(who, b.company.id);
      expect({ status: other.statusCode, error: other.json<{ error: string }>().error }).toEqual({
        status: 404,
        error: "ERR_NO_COMPANY_FOUND",
      });
      expect(other.body).not.toContain(b.company.name);
    }
    expect((await listPlan(superLogin, 2147483647)).statusCode).toBe(404);
    expect((await listPlan(a.adminLogin, "abc")).statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: "GET", url: `/companies/listPlan/${a.company.id}` })).statusCode,
    ).toBe(401);
  });

  it("a company without a plan: a stand-in plan as the server enforces it (no limits, every feature off)", async () => {
    const company = await buildCompany(ctx.deps.db, { planId: null });
    const admin = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const res = await listPlan(await login(ctx, admin.email), company.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CompanyPlanDTO>().plan).toEqual({
      id: null,
      name: null,
      users: 0,
      connections: 0,
      queues: 0,
      value: 0,
      useCampaigns: false,
      useSchedules: false,
      useInternalChat: false,
      useExternalApi: false,
      useKanban: false,
      useOpenAi: false,
      useIntegrations: false,
      useInternal: false,
    });
  });
});
