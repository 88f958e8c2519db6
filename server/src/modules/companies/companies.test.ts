import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import type { CompanyEventPayloads } from "@atende/contracts";
import { companies } from "../../db/schema/index.js";
import { COMPANY_STANDING_TTL_MS } from "../../http/companyStanding.js";
import { buildTeam, buildUser, login, buildPlatformOperator } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";

let ctx: TestContext;
let url: string;
let root: Awaited<ReturnType<typeof login>>;
let rootCompanyId: number;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  url = await ctx.url();
  const operator = await buildPlatformOperator(ctx);
  rootCompanyId = operator.companyId;
  root = operator.login;
});
afterAll(() => ctx.close());
const open: Socket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

type Who = { auth: { authorization: string } };
const get = (who: Who, path: string) => ctx.app.inject({ method: "GET", url: path, headers: who.auth });
const setStanding = (companyId: number, payload: { status?: boolean; dueDate?: string | null }) =>
  ctx.app.inject({ method: "PUT", url: `/companies/${companyId}`, headers: root.auth, payload });
const yesterday = () => new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);

async function socketOf(token: string) {
  const s = await connectSocket(url, token);
  open.push(s);
  return s;
}

describe("a company made inactive or past due is locked out at once", () => {
  it("made inactive: every request of its users answers 403 ERR_COMPANY_INACTIVE, sockets are told and closed; reactivated, they are let back in", async () => {
    const team = await buildTeam(ctx);
    expect((await get(team.agentLogin, "/users/list")).statusCode).toBe(200);
    const agentSocket = await socketOf(team.agentLogin.token);
    const told = record<CompanyEventPayloads["locked"]>(agentSocket, `company-${team.company.id}-locked`);

    const res = await setStanding(team.company.id, { status: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: team.company.id, status: false });

    for (const who of [team.agentLogin, team.adminLogin]) {
      const refused = await get(who, "/users/list");
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("ERR_COMPANY_INACTIVE");
    }
    await waitFor(() => !agentSocket.connected, 1_000);
    expect(told).toEqual([{ error: "ERR_COMPANY_INACTIVE" }]);
    await expect(connectSocket(url, team.adminLogin.token)).rejects.toThrow("ERR_COMPANY_INACTIVE");

    expect((await setStanding(team.company.id, { status: true })).statusCode).toBe(200);
    expect((await get(team.agentLogin, "/users/list")).statusCode).toBe(200);
    expect((await socketOf(team.agentLogin.token)).connected).toBe(true);
  });

  it("past its due date: 402 ERR_SUBSCRIPTION_EXPIRED with the date, on requests and the socket handshake", async () => {
    const team = await buildTeam(ctx);
    const adminSocket = await socketOf(team.adminLogin.token);
    const dueDate = yesterday();
    expect((await setStanding(team.company.id, { dueDate })).statusCode).toBe(200);
    // The agent: the admin still reaches the payment routes and /auth/me (billing/pastDue.test.ts).
    const refused = await get(team.agentLogin, "/auth/me");
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate });
    await waitFor(() => !adminSocket.connected, 1_000);
    await expect(connectSocket(url, team.agentLogin.token)).rejects.toThrow("ERR_SUBSCRIPTION_EXPIRED");
  });

  it("a change this instance did not make (another instance) is seen within the standing's lifetime", async () => {
    const team = await buildTeam(ctx);
    expect((await get(team.agentLogin, "/users/list")).statusCode).toBe(200);
    await ctx.deps.db.update(companies).set({ status: false }).where(eq(companies.id, team.company.id));
    // The standing is kept COMPANY_STANDING_TTL_MS by performance.now(), not the test clock: wait for
    // the refusal, allowing that lifetime and a margin for a busy machine.
    await waitFor(
      async () => (await get(team.agentLogin, "/users/list")).statusCode === 403,
      COMPANY_STANDING_TTL_MS + 2_000,
    );
  });

  it("other companies go on, and the super user's own company is never locked", async () => {
    const team = await buildTeam(ctx);
    const bystander = await buildTeam(ctx);
    expect((await setStanding(team.company.id, { status: false })).statusCode).toBe(200);
    expect((await get(bystander.agentLogin, "/users/list")).statusCode).toBe(200);

    const colleague = await buildUser(ctx.deps.db, rootCompanyId);
    const colleagueLogin = await login(ctx, colleague.email);
    expect((await setStanding(rootCompanyId, { status: false, dueDate: yesterday() })).statusCode).toBe(200);
    expect((await get(root, "/users/list")).statusCode).toBe(200);
    expect((await get(colleagueLogin, "/users/list")).statusCode).toBe(200);
    expect((await socketOf(root.token)).connected).toBe(true);
  });

  it("a due date that passes with no change (the clock moves) closes the company's sockets at the sweep", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const team = await buildTeam(ctx);
    await ctx.deps.db.update(companies).set({ dueDate: today }).where(eq(companies.id, team.company.id));
    const agentSocket = await socketOf(team.agentLogin.token);
    const bystander = await buildTeam(ctx);
    const bystanderSocket = await socketOf(bystander.agentLogin.token);
    const told = record<CompanyEventPayloads["locked"]>(agentSocket, `company-${team.company.id}-locked`);
    try {
      ctx.clock.now = new Date(Date.now() + 3 * 86_400_000);
      expect(await ctx.built.realtime.sweepLocked()).toBe(1);
      await waitFor(() => !agentSocket.connected, 1_000);
      expect(told).toEqual([{ error: "ERR_SUBSCRIPTION_EXPIRED" }]);
      expect(bystanderSocket.connected).toBe(true);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("only the super user changes a company's standing", async () => {
    const team = await buildTeam(ctx);
    const res = await ctx.app.inject({
      method: "PUT",
      url: `/companies/${team.company.id}`,
      headers: team.adminLogin.auth,
      payload: { dueDate: "2100-01-01" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
  });
});
