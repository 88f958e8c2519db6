import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { hasError, isStaticPix, parsePix } from "pix-utils";
import {
  INVOICES_PAGE_SIZE,
  type InvoiceDTO,
  type InvoicesList,
  type InvoicesPage,
  type PixChargeDTO,
  addMonthsToDate,
  formatDateBR,
} from "@atende/contracts";
import { invoices } from "../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import { type LoggedIn, buildPlatformOperator } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import {
  CHECKOUT,
  buildBilledCompany,
  daysFromToday,
  dueDateOf,
  invoicesOf,
  saveSuperSetting,
} from "../../test/billing.js";
import { buildBrCode } from "./gateways/pixKey.js";
import { openDueInvoices } from "./invoices.js";

/**
 * Invoices on a real database: opened once per company and period by the invoicing job (however
 * many run at once), listed per company (every company's for the super user), another company's
 * answering 404; the plain Pix key gateway's BR Code, and the super user's confirmation by hand.
 */

let ctx: TestContext;
let root: LoggedIn;
const call = caller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  root = (await buildPlatformOperator(ctx)).login;
});
afterAll(() => ctx.close());

describe("the invoicing job", () => {
  it("opens one invoice per company and period, whatever runs at once; only within the days before", async () => {
    const due = await buildBilledCompany(ctx, {
      value: 50,
      recurrence: "TRIMESTRAL",
      dueDate: daysFromToday(7),
    });
    const later = await buildBilledCompany(ctx, { value: 50, dueDate: daysFromToday(30) });
    const runs = await Promise.all(Array.from({ length: 6 }, () => openDueInvoices(ctx.deps.db, new Date())));
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);

    const made = await invoicesOf(ctx, due.company.id);
    expect(made).toHaveLength(1);
    const dueDate = due.company.dueDate!;
    expect(made[0]).toMatchObject({ status: "open", dueDate, months: 3, value: 150, planId: due.plan.id });
    expect(made[0]!.detail).toBe(
      `${due.plan.name} (TRIMESTRAL): ${formatDateBR(dueDate)} a ${formatDateBR(addMonthsToDate(dueDate, 3))}`,
    );
    expect(await invoicesOf(ctx, later.company.id)).toHaveLength(0);
    // Again later: nothing new for the same period.
    await openDueInvoices(ctx.deps.db, new Date());
    expect(await invoicesOf(ctx, due.company.id)).toHaveLength(1);
  });

  it("follows the super user's days-before setting", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(20) });
    await openDueInvoices(ctx.deps.db, new Date());
    expect(await invoicesOf(ctx, team.company.id)).toHaveLength(0);
    await saveSuperSetting(ctx, root, "invoiceDaysBefore", "25");
    try {
      await openDueInvoices(ctx.deps.db, new Date());
      expect(await invoicesOf(ctx, team.company.id)).toHaveLength(1);
    } finally {
      await saveSuperSetting(ctx, root, "invoiceDaysBefore", "10");
    }
  });
});

describe("GET /invoices, /invoices/all and /invoices/{id}", () => {
  it("an admin reads the company's invoices; another company's id is 404; an agent is refused", async () => {
    const a = await buildBilledCompany(ctx, { dueDate: daysFromToday(3) });
    const b = await buildBilledCompany(ctx, { dueDate: daysFromToday(3) });
    await openDueInvoices(ctx.deps.db, new Date());
    const [invoiceA] = await invoicesOf(ctx, a.company.id);
    const [invoiceB] = await invoicesOf(ctx, b.company.id);

    const page = expectOk<InvoicesPage>(await call("GET", "/invoices", a.adminLogin));
    expect(page.invoices.map((i) => i.id)).toEqual([invoiceA!.id]);
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.invoices[0]).toMatchObject({ status: "open", value: 49.9, dueDate: a.company.dueDate });
    expect(page.invoices[0]!.company).toBeUndefined();

    expectOk(await call("GET", `/invoices/${invoiceA!.id}`, a.adminLogin));
    expectError(await call("GET", `/invoices/${invoiceB!.id}`, a.adminLogin), 404, "ERR_NO_INVOICE_FOUND");
    expectError(await call("GET", "/invoices", a.agentLogin), 403, "ERR_NO_PERMISSION");
    expectError(await call("GET", "/invoices/all", a.agentLogin), 403, "ERR_NO_PERMISSION");
    expectError(await call("GET", `/invoices/${invoiceA!.id}`, a.agentLogin), 403, "ERR_NO_PERMISSION");
    // A company admin cannot mark an invoice paid, not even the company's own.
    expectError(
      await call("PUT", `/invoices/${invoiceA!.id}`, a.adminLogin, { status: "paid" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expect((await invoicesOf(ctx, a.company.id))[0]!.status).toBe("open");
  });

  it("the super user reads every company's, with its name; search and pages", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(2), planName: "Plano Busca Única" });
    await openDueInvoices(ctx.deps.db, new Date());
    const found = expectOk<InvoicesPage>(
      await call("GET", `/invoices?searchParam=${encodeURIComponent("Busca Única")}`, root),
    );
    expect(found.invoices).toHaveLength(1);
    expect(found.invoices[0]!.company).toEqual({ id: team.company.id, name: team.company.name });
    const byCompany = expectOk<InvoicesPage>(
      await call("GET", `/invoices?searchParam=${encodeURIComponent(team.company.name)}`, root),
    );
    expect(byCompany.invoices.map((i) => i.companyId)).toEqual([team.company.id]);

    // Enough invoices for a second page.
    const [first] = await invoicesOf(ctx, team.company.id);
    await ctx.deps.db.insert(invoices).values(
      Array.from({ length: INVOICES_PAGE_SIZE }, (_, i) => ({
        companyId: team.company.id,
        detail: `Fatura antiga ${i}`,
        value: 10,
        dueDate: daysFromToday(-40 - i),
      })),
    );
    const p1 = expectOk<InvoicesPage>(await call("GET", "/invoices?pageNumber=1", team.adminLogin));
    const p2 = expectOk<InvoicesPage>(await call("GET", "/invoices?pageNumber=2", team.adminLogin));
    expect(p1).toMatchObject({ count: INVOICES_PAGE_SIZE + 1, hasMore: true });
    expect(p1.invoices).toHaveLength(INVOICES_PAGE_SIZE);
    expect(p1.invoices[0]!.id).toBe(first!.id);
    expect(p2).toMatchObject({ hasMore: false });
    expect(p2.invoices).toHaveLength(1);
  });

  it("answers /invoices/all as a plain array, the rows of GET /invoices, as the Whaticket SaaS /financeiro reads it", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(4), planName: "Plano Array" });
    await openDueInvoices(ctx.deps.db, new Date());
    await ctx.deps.db.insert(invoices).values(
      Array.from({ length: INVOICES_PAGE_SIZE }, (_, i) => ({
        companyId: team.company.id,
        detail: `Fatura velha ${i}`,
        value: 20,
        dueDate: daysFromToday(-60 - i),
      })),
    );
    // What that page sends, and what it reads: data.forEach(...) over the rows, data.hasMore.
    const res = await call("GET", "/invoices/all?searchParam=&pageNumber=1", team.adminLogin);
    const rows = expectOk<InvoicesList>(res);
    expect(Array.isArray(rows)).toBe(true);
    const enveloped = expectOk<InvoicesPage>(await call("GET", "/invoices?pageNumber=1", team.adminLogin));
    expect(rows).toEqual(enveloped.invoices);
    expect(rows).toHaveLength(INVOICES_PAGE_SIZE);
    expect(rows[0]).toMatchObject({ status: "open", value: 49.9, dueDate: team.company.dueDate });
    for (const row of rows)
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(["id", "detail", "value", "dueDate", "status"]),
      );
    // The next page and the search still apply.
    const next = expectOk<InvoicesList>(await call("GET", "/invoices/all?pageNumber=2", team.adminLogin));
    expect(next.map((i) => i.detail)).toEqual([`Fatura velha ${INVOICES_PAGE_SIZE - 1}`]);
    const searched = expectOk<InvoicesList>(
      await call("GET", `/invoices/all?searchParam=${encodeURIComponent("Fatura velha 3")}`, team.adminLogin),
    );
    expect(searched.map((i) => i.detail)).toEqual(["Fatura velha 3"]);
    // The super user's rows carry the company's name; another company's rows never reach an admin.
    const su = expectOk<InvoicesList>(
      await call("GET", `/invoices/all?searchParam=${encodeURIComponent("Plano Array")}`, root),
    );
    expect(su.map((i) => i.company)).toEqual([{ id: team.company.id, name: team.company.name }]);
    const other = await buildBilledCompany(ctx, { dueDate: daysFromToday(4) });
    expect(
      expectOk<InvoicesList>(await call("GET", "/invoices/all", other.adminLogin)).map((i) => i.companyId),
    ).not.toContain(team.company.id);
  });
});

describe("a plain Pix key", () => {
  it("builds a BR Code that pix-utils reads back with the key, the amount and the invoice as txid; its CRC checks", () => {
    const code = buildBrCode({
      pixKey: "financeiro@atende.test",
      merchantName: "Atende Plataforma Ltda",
      merchantCity: "São Paulo",
      amount: 149.7,
      txid: "FATURA42",
    });
    const parsed = parsePix(code);
    expect(hasError(parsed)).toBe(false);
    if (hasError(parsed) || !isStaticPix(parsed)) throw new Error("not a static Pix");
    expect(parsed).toMatchObject({
      pixKey: "financeiro@atende.test",
      transactionAmount: 149.7,
      txid: "FATURA42",
      merchantCity: "SAO PAULO",
    });
    // One character changed in the amount: the CRC no longer matches.
    const tampered = code.replace("149.70", "149.79");
    expect(tampered).not.toBe(code);
    const broken = parsePix(tampered);
    expect(hasError(broken)).toBe(true);
    expect(broken).toMatchObject({ message: "invalid crc" });
  });

  it("checkout answers the Pix data; the super user confirms by hand once, recorded with who and when", async () => {
    await saveSuperSetting(ctx, root, "paymentGateway", "pixKey");
    await saveSuperSetting(ctx, root, "pixKey", "12345678000195");
    await saveSuperSetting(ctx, root, "pixMerchantName", "Atende");
    await saveSuperSetting(ctx, root, "pixMerchantCity", "Curitiba");
    const team = await buildBilledCompany(ctx, { value: 89.9, dueDate: daysFromToday(4) });

    // Without any open invoice, checkout opens the one of the current period. No CPF needed here.
    const pix = expectOk<PixChargeDTO>(await call("POST", "/subscription", team.adminLogin, CHECKOUT));
    const [invoice] = await invoicesOf(ctx, team.company.id);
    expect(pix).toMatchObject({
      invoiceId: invoice!.id,
      gateway: "pixKey",
      status: "ATIVA",
      txid: `FATURA${invoice!.id}`,
      valor: { original: "89.90" },
    });
    expect(pix.qrcode.imagemQrcode).toMatch(/^data:image\/png;base64,/);
    expect(Date.parse(pix.expiresAt!)).toBeGreaterThan(Date.now());
    const parsed = parsePix(pix.qrcode.qrcode);
    if (hasError(parsed) || !isStaticPix(parsed)) throw new Error("not a static Pix");
    expect(parsed).toMatchObject({
      pixKey: "12345678000195",
      transactionAmount: 89.9,
      txid: `FATURA${invoice!.id}`,
    });
    // Opened again: the same code.
    const again = expectOk<PixChargeDTO>(await call("POST", "/subscription", team.adminLogin, CHECKOUT));
    expect(again.qrcode.qrcode).toBe(pix.qrcode.qrcode);

    const before = team.company.dueDate!;
    const paid = expectOk<InvoiceDTO>(
      await call("PUT", `/invoices/${invoice!.id}`, root, { status: "paid" }),
    );
    expect(paid).toMatchObject({ status: "paid", paidVia: "manual", paidBy: { id: expect.any(Number) } });
    expect(paid.paidAt).not.toBeNull();
    expect(await dueDateOf(ctx, team.company.id)).toBe(addMonthsToDate(before, 1));
    expectError(
      await call("PUT", `/invoices/${invoice!.id}`, root, { status: "paid" }),
      409,
      "ERR_INVOICE_ALREADY_PAID",
    );
    expect(await dueDateOf(ctx, team.company.id)).toBe(addMonthsToDate(before, 1));
    expectError(
      await call("POST", "/subscription", team.adminLogin, { ...CHECKOUT, invoiceId: invoice!.id }),
      409,
      "ERR_INVOICE_ALREADY_PAID",
    );
    const row = (await ctx.deps.db.select().from(invoices).where(eq(invoices.id, invoice!.id)))[0]!;
    expect(row.paidByUserId).not.toBeNull();
  });

  it("refuses a checkout missing the spec's fields with its messages, and another company's invoice", async () => {
    const team = await buildBilledCompany(ctx);
    const other = await buildBilledCompany(ctx, { dueDate: daysFromToday(1) });
    await openDueInvoices(ctx.deps.db, new Date());
    const res = await call("POST", "/subscription", team.adminLogin, {});
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toMatchObject({
      firstName: "O nome completo e obrigatorio",
      address2: "O Endereco e obrigatorio",
      city: "Cidade e obrigatoria",
      zipcode: "CEP e obrigatorio",
      country: "Pais e obrigatorio",
    });
    const [theirs] = await invoicesOf(ctx, other.company.id);
    expectError(
      await call("POST", "/subscription", team.adminLogin, { ...CHECKOUT, invoiceId: theirs!.id }),
      404,
      "ERR_NO_INVOICE_FOUND",
    );
    expectError(await call("POST", "/subscription", team.agentLogin, CHECKOUT), 403, "ERR_NO_PERMISSION");
  });
});
