import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { and, eq } from "drizzle-orm";
import { paymentCharges, settings } from "../../db/schema/index.js";
import { hasError, parsePix } from "pix-utils";
import { type PaymentEventPayload, type PixChargeDTO, addMonthsToDate } from "@atende/contracts";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import { type LoggedIn, buildPlatformOperator } from "../../test/factories.js";
import { type FakeAsaas, startFakeAsaas } from "../../test/fakes/asaas.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";
import {
  CHECKOUT,
  CPF,
  buildBilledCompany,
  daysFromToday,
  dueDateOf,
  eventsOf,
  invoicesOf,
  saveSuperSetting,
} from "../../test/billing.js";
import { secretBoxFor } from "../../lib/secretBox.js";
import { reconcileCharges } from "./reconciliation.js";

/**
 * The Asaas gateway against a local fake of its API: checkout makes a customer and a PIX charge and
 * answers its QR code; the webhook is refused without the right `asaas-access-token`; a payment
 * counts once however often (and by whichever path) it is told; a lost webhook is settled by
 * reconciliation; the company hears `company-{id}-payment`.
 */

const WEBHOOK_TOKEN = "whsec-asaas-token-0123456789abcdef0123";

let ctx: TestContext;
let url: string;
let asaas: FakeAsaas;
let root: LoggedIn;
const call = caller(() => ctx);
const open: Socket[] = [];

beforeAll(async () => {
  asaas = await startFakeAsaas();
  ctx = await createTestContext({
    LOGIN_MAX_PER_EMAIL: 1000,
    LOGIN_MAX_PER_IP: 100_000,
    ASAAS_API_URL: asaas.url,
  });
  url = await ctx.url();
  root = (await buildPlatformOperator(ctx)).login;
  await saveSuperSetting(ctx, root, "paymentGateway", "asaas");
  await saveSuperSetting(ctx, root, "asaas", asaas.apiKey);
  await saveSuperSetting(ctx, root, "asaasWebhookToken", WEBHOOK_TOKEN);
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  await ctx.close();
  await asaas.close();
});

const webhook = (body: unknown, token: string | null = WEBHOOK_TOKEN) =>
  call("POST", "/webhooks/asaas", null, body, token === null ? {} : { "asaas-access-token": token });

const chargesOf = (companyId: number) =>
  ctx.deps.db.select().from(paymentCharges).where(eq(paymentCharges.companyId, companyId));

/** A company with an open invoice, paid for by checkout: its Pix charge at the fake. */
async function checkedOut(v: { value?: number; recurrence?: string; dueDate?: string } = {}) {
  const team = await buildBilledCompany(ctx, { value: 50, ...v });
  const pix = expectOk<PixChargeDTO>(
    await call("POST", "/subscription", team.adminLogin, {
      ...CHECKOUT,
      cpfCnpj: CPF,
      email: "maria@test.local",
    }),
  );
  const paymentId = [...asaas.payments.values()].find(
    (p) => p.externalReference === `invoice-${pix.invoiceId}`,
  )!.id;
  return { ...team, pix, paymentId };
}

describe("checkout with Asaas", () => {
  it("asks for the payer's CPF or CNPJ, checked by its digits", async () => {
    const team = await buildBilledCompany(ctx);
    const info = expectOk<{ gateway: string; requiresCpfCnpj: boolean }>(
      await call("GET", "/subscription", team.adminLogin),
    );
    expect(info).toMatchObject({ gateway: "asaas", requiresCpfCnpj: true });
    const missing = await call("POST", "/subscription", team.adminLogin, CHECKOUT);
    expect(missing.statusCode).toBe(400);
    expect(fieldsOf(missing)).toEqual({ cpfCnpj: "Informe o CPF ou CNPJ do pagador" });
    const wrong = await call("POST", "/subscription", team.adminLogin, {
      ...CHECKOUT,
      cpfCnpj: "529.982.247-26",
    });
    expect(fieldsOf(wrong)).toEqual({ cpfCnpj: "CPF ou CNPJ inválido" });
    expect(asaas.requests.filter((r) => r.path === "/customers")).toHaveLength(0);
  });

  it("makes a customer and a PIX charge, and answers its QR code, amount and expiry", async () => {
    const { pix, paymentId, company } = await checkedOut({ value: 59.9, recurrence: "BIMESTRAL" });
    expect(pix).toMatchObject({
      gateway: "asaas",
      status: "ATIVA",
      txid: paymentId,
      valor: { original: "119.80" },
    });
    expect(pix.qrcode.qrcode).toBe(asaas.pixPayloadOf(paymentId));
    expect(hasError(parsePix(pix.qrcode.qrcode))).toBe(false);
    expect(pix.qrcode.imagemQrcode).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(pix.expiresAt).toBe(new Date(`${company.dueDate}T23:59:59-03:00`).toISOString());
    expect(pix.calendario.expiracao).toBeGreaterThan(0);
    const payment = asaas.payments.get(paymentId)!;
    expect(payment).toMatchObject({ billingType: "PIX", value: 119.8, dueDate: company.dueDate });
    const customer = asaas.requests.find((r) => r.path === "/customers" && r.json)!;
    expect(customer.json).toMatchObject({ name: "Maria Silva", cpfCnpj: "52998224725" });
  });

  it("a gateway failure answers ERR_PAYMENT_GATEWAY_FAILED and records no charge", async () => {
    const team = await buildBilledCompany(ctx);
    asaas.failNext({ status: 500, pathEndsWith: "/payments" });
    expectError(
      await call("POST", "/subscription", team.adminLogin, { ...CHECKOUT, cpfCnpj: CPF }),
      424,
      "ERR_PAYMENT_GATEWAY_FAILED",
    );
    expect(await chargesOf(team.company.id)).toHaveLength(0);
    // Tried again: works, reusing the customer made the first time.
    const customersBefore = asaas.requests.filter((r) => r.path === "/customers").length;
    expectOk(await call("POST", "/subscription", team.adminLogin, { ...CHECKOUT, cpfCnpj: CPF }));
    expect(asaas.requests.filter((r) => r.path === "/customers").length).toBe(customersBefore);
    expect(await chargesOf(team.company.id)).toHaveLength(1);
  });
});

describe("the Asaas webhook", () => {
  it("refuses a wrong or missing asaas-access-token with 401, and changes nothing", async () => {
    const { paymentId, company } = await checkedOut();
    asaas.pay(paymentId);
    const body = asaas.webhookBody(paymentId, "PAYMENT_RECEIVED");
    expectError(await webhook(body, "not-the-token"), 401, "ERR_PAYMENT_WEBHOOK_UNAUTHORIZED");
    expectError(await webhook(body, null), 401, "ERR_PAYMENT_WEBHOOK_UNAUTHORIZED");
    expectError(await webhook(body, `${WEBHOOK_TOKEN}x`), 401, "ERR_PAYMENT_WEBHOOK_UNAUTHORIZED");
    expect((await invoicesOf(ctx, company.id))[0]!.status).toBe("open");
    expect(await dueDateOf(ctx, company.id)).toBe(company.dueDate);
    expect(await eventsOf(ctx, paymentId)).toHaveLength(0);
  });

  it("PAYMENT_RECEIVED alone settles; the same event five times at once: one payment, one due-date move", async () => {
    const { paymentId, company, adminLogin } = await checkedOut({ recurrence: "TRIMESTRAL" });
    const socket = await connectSocket(url, adminLogin.token);
    open.push(socket);
    const heard = record<PaymentEventPayload>(socket, `company-${company.id}-payment`);
    asaas.pay(paymentId);
    const body = asaas.webhookBody(paymentId, "PAYMENT_RECEIVED");
    const answers = await Promise.all(Array.from({ length: 5 }, () => webhook(body)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);

    const expected = addMonthsToDate(company.dueDate!, 3);
    expect(await dueDateOf(ctx, company.id)).toBe(expected);
    const [invoice] = await invoicesOf(ctx, company.id);
    expect(invoice).toMatchObject({ status: "paid", paidVia: "asaas", paidByUserId: null });
    expect(await eventsOf(ctx, paymentId)).toHaveLength(1);

    await waitFor(() => heard.length > 0);
    expect(heard[0]).toMatchObject({
      action: "CONCLUIDA",
      company: { id: company.id, dueDate: expected },
      invoice: { id: invoice!.id, status: "paid" },
    });

    // PAYMENT_CONFIRMED later (another event of the same payment): stored, nothing moves again.
    expectOk(await webhook(asaas.webhookBody(paymentId, "PAYMENT_CONFIRMED")));
    expect(await dueDateOf(ctx, company.id)).toBe(expected);
    expect(await eventsOf(ctx, paymentId)).toHaveLength(2);
    await caughtUp(socket);
    expect(heard).toHaveLength(1);
  });

  it("PAYMENT_CONFIRMED settles too; an event for an unknown charge is accepted and ignored", async () => {
    const { paymentId, company } = await checkedOut();
    asaas.pay(paymentId, "CONFIRMED");
    expectOk(await webhook(asaas.webhookBody(paymentId, "PAYMENT_CONFIRMED")));
    expect((await invoicesOf(ctx, company.id))[0]!.status).toBe("paid");
    const unknown = {
      id: "evt_unknown&1",
      event: "PAYMENT_RECEIVED",
      payment: { object: "payment", id: "pay_nope" },
    };
    expectOk(await webhook(unknown));
  });

  it("a payment created but not paid (PAYMENT_CREATED) settles nothing", async () => {
    const { paymentId, company } = await checkedOut();
    expectOk(await webhook(asaas.webhookBody(paymentId, "PAYMENT_CREATED")));
    expect((await invoicesOf(ctx, company.id))[0]!.status).toBe("open");
    expect(await dueDateOf(ctx, company.id)).toBe(company.dueDate);
  });
});

describe("reconciliation", () => {
  it("settles a payment whose webhook was lost; the late webhook then changes nothing", async () => {
    const { paymentId, company } = await checkedOut();
    const other = await checkedOut();
    asaas.pay(paymentId);
    const deps = {
      ...ctx.deps,
      log: ctx.app.log,
      asaasUrl: asaas.url,
      secrets: secretBoxFor(ctx.deps.config),
    };
    // (Charges of the tests above paid without a webhook that counted settle too.)
    expect(await reconcileCharges(deps)).toBeGreaterThanOrEqual(1);
    const expected = addMonthsToDate(company.dueDate!, 1);
    expect(await dueDateOf(ctx, company.id)).toBe(expected);
    expect((await invoicesOf(ctx, company.id))[0]!.status).toBe("paid");
    // The unpaid one stays open; a second run settles nothing more.
    expect((await invoicesOf(ctx, other.company.id))[0]!.status).toBe("open");
    expect(await reconcileCharges(deps)).toBe(0);

    expectOk(await webhook(asaas.webhookBody(paymentId, "PAYMENT_RECEIVED")));
    expect(await dueDateOf(ctx, company.id)).toBe(expected);
  });

  it("the webhook racing the reconciliation moves the due date once", async () => {
    const { paymentId, company } = await checkedOut({ dueDate: daysFromToday(-2) });
    asaas.pay(paymentId);
    const deps = {
      ...ctx.deps,
      log: ctx.app.log,
      asaasUrl: asaas.url,
      secrets: secretBoxFor(ctx.deps.config),
    };
    const body = asaas.webhookBody(paymentId, "PAYMENT_RECEIVED");
    await Promise.all([reconcileCharges(deps), webhook(body), reconcileCharges(deps), webhook(body)]);
    // Past due: counted from today, not from the passed due date.
    expect(await dueDateOf(ctx, company.id)).toBe(addMonthsToDate(daysFromToday(0), 1));
  });
});

describe("the gateway's secrets at rest", () => {
  it("the key and the webhook token are stored sealed, and Asaas still gets the key whole", async () => {
    for (const [key, clear] of [
      ["asaas", asaas.apiKey],
      ["asaasWebhookToken", WEBHOOK_TOKEN],
    ] as const) {
      const [row] = await ctx.deps.db
        .select({ value: settings.value })
        .from(settings)
        .where(and(eq(settings.companyId, root.user.companyId), eq(settings.key, key)));
      expect(row!.value).toMatch(/^v1\./);
      expect(row!.value).not.toContain(clear);
    }
    const before = asaas.requests.length;
    const { paymentId } = await checkedOut();
    const calls = asaas.requests.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    for (const r of calls) expect(r.accessToken).toBe(asaas.apiKey);
    // And the webhook token still authenticates Asaas' calls.
    const body = asaas.webhookBody(paymentId, "PAYMENT_CREATED");
    expectError(await webhook(body, "not-the-token"), 401, "ERR_PAYMENT_WEBHOOK_UNAUTHORIZED");
    expectOk(await webhook(body));
  });
});
