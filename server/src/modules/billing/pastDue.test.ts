import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import type {
  InvoicesList,
  InvoicesPage,
  JoinAck,
  LoginAnswer,
  PaymentEventPayload,
} from "@atende/contracts";
import { caller, expectError, expectOk } from "../../test/calls.js";
import { type LoggedIn, TEST_PASSWORD, buildPlatformOperator } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { buildBilledCompany, daysFromToday, invoicesOf, saveSuperSetting } from "../../test/billing.js";
import { openDueInvoices } from "./invoices.js";

/**
 * A past-due company can still pay: its admin logs in and reaches the payment routes only
 * (/invoices*, /subscription, /auth/me), its agents are refused everywhere with the spec's
 * 'Opss! Sua assinatura venceu', and once paid everything opens again, live. The super user's
 * grace days move the lock.
 */

let ctx: TestContext;
let url: string;
let root: LoggedIn;
const call = caller(() => ctx);
const open: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  url = await ctx.url();
  root = (await buildPlatformOperator(ctx)).login;
  await saveSuperSetting(ctx, root, "paymentGateway", "pixKey");
  await saveSuperSetting(ctx, root, "pixKey", "financeiro@atende.test");
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => ctx.close());

const loginAs = (email: string) => call("POST", "/auth/login", null, { email, password: TEST_PASSWORD }, {});

function joinTickets(socket: Socket): Promise<JoinAck> {
  return new Promise((resolve) => socket.emit("joinTickets", "open", resolve));
}

describe("a company past its due date", () => {
  it("refuses its agents everywhere with the spec's message", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(-1) });
    for (const path of ["/users/list", "/invoices/all", "/subscription", "/auth/me", "/tickets"]) {
      const res = await call("GET", path, team.agentLogin);
      expectError(res, 402, "ERR_SUBSCRIPTION_EXPIRED");
      expect(res.json().message).toContain("Opss! Sua assinatura venceu");
    }
    expectError(await loginAs(team.agent.email), 402, "ERR_SUBSCRIPTION_EXPIRED");
    await expect(connectSocket(url, team.agentLogin.token)).rejects.toThrow("ERR_SUBSCRIPTION_EXPIRED");
  });

  it("lets its admin log in to the payment routes only", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(-3) });
    await openDueInvoices(ctx.deps.db, new Date());
    const logged = await loginAs(team.admin.email);
    expect(logged.statusCode, logged.body).toBe(200);
    expect(logged.json<LoginAnswer>().subscription).toMatchObject({
      dueDate: team.company.dueDate,
      locked: true,
    });
    const admin = { auth: { authorization: `Bearer ${logged.json<LoginAnswer>().token}` } };

    const page = expectOk<InvoicesPage>(await call("GET", "/invoices", admin));
    expect(expectOk<InvoicesList>(await call("GET", "/invoices/all", admin))).toEqual(page.invoices);
    expect(page.invoices).toHaveLength(1);
    expectOk(await call("GET", `/invoices/${page.invoices[0]!.id}`, admin));
    expectOk(await call("GET", "/subscription", admin));
    expectOk(await call("GET", "/auth/me", admin));
    for (const path of ["/users/list", "/tickets", "/queue", "/settings", "/contacts"])
      expectError(await call("GET", path, admin), 402, "ERR_SUBSCRIPTION_EXPIRED");
    expectError(await call("POST", "/tags", admin, { name: "Locked tag" }), 402, "ERR_SUBSCRIPTION_EXPIRED");
  });

  it("the admin's socket hears only the payment; once paid, everything opens again at once", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(-2) });
    await openDueInvoices(ctx.deps.db, new Date());
    const [invoice] = await invoicesOf(ctx, team.company.id);
    const socket = await connectSocket(url, team.adminLogin.token);
    open.push(socket);
    expect(await joinTickets(socket)).toEqual({ ok: false, error: "ERR_SUBSCRIPTION_EXPIRED" });
    const heard = record<PaymentEventPayload>(socket, `company-${team.company.id}-payment`);

    expectOk(await call("PUT", `/invoices/${invoice!.id}`, root, { status: "paid" }));
    await waitFor(() => heard.length > 0);
    expect(heard[0]).toMatchObject({ action: "CONCLUIDA", company: { id: team.company.id } });
    expect(heard[0]!.company.dueDate! > daysFromToday(0)).toBe(true);

    // The same socket now joins like any other, and the agent works again.
    await waitFor(async () => (await joinTickets(socket)).ok);
    expect(socket.connected).toBe(true);
    expectOk(await call("GET", "/users/list", team.agentLogin));
    expectOk(await call("GET", "/users/list", team.adminLogin));
  });

  it("the super user's grace days keep the company open that many days after its due date", async () => {
    await saveSuperSetting(ctx, root, "billingGraceDays", "3");
    try {
      const within = await buildBilledCompany(ctx, { dueDate: daysFromToday(-3) });
      const beyond = await buildBilledCompany(ctx, { dueDate: daysFromToday(-4) });
      expectOk(await call("GET", "/users/list", within.agentLogin));
      expect((await loginAs(within.agent.email)).statusCode).toBe(200);
      expectError(await call("GET", "/users/list", beyond.agentLogin), 402, "ERR_SUBSCRIPTION_EXPIRED");
    } finally {
      await saveSuperSetting(ctx, root, "billingGraceDays", "0");
    }
  });
});
