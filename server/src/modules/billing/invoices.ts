import {
  INVOICES_PAGE_SIZE,
  type InvoiceDTO,
  type InvoiceListQuery,
  type InvoicesPage,
  RECURRENCE_MONTHS,
  type Recurrence,
  addMonthsToDate,
  formatDateBR,
  todayInZone,
} from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { findCompany } from "../companies/queries.js";
import { billingSettings } from "./gateways/registry.js";
import { presentInvoice } from "./present.js";
import * as q from "./queries.js";
import { settleInvoice } from "./settle.js";

export type InvoicesDeps = Pick<Deps, "db" | "bus" | "now">;

function monthsOf(recurrence: string): number {
  return RECURRENCE_MONTHS[recurrence as Recurrence] ?? 1;
}

/** "Plano Ouro (MENSAL): 10/01/2027 a 10/02/2027": the plan and the period paid for. */
export function invoiceDetail(planName: string, recurrence: string, dueDate: string): string {
  const end = addMonthsToDate(dueDate, monthsOf(recurrence));
  const plan = /^plano\b/i.test(planName.trim()) ? planName.trim() : `Plano ${planName.trim()}`;
  return `${plan} (${recurrence}): ${formatDateBR(dueDate)} a ${formatDateBR(end)}`;
}

type BillableRow = NonNullable<Awaited<ReturnType<typeof findCompany>>>;

/**
 * The invoice of the company's current period (its due date; today when it has none), opened once:
 * a second opening, on any instance, finds the first. The plan's value times the recurrence's months.
 */
export async function openPeriodInvoice(db: Executor, row: BillableRow, at: Date) {
  const { company, plan } = row;
  if (!plan) throw new AppError("ERR_COMPANY_WITHOUT_PLAN");
  const dueDate = company.dueDate ?? todayInZone(at);
  const months = monthsOf(company.recurrence);
  return q.openInvoice(db, {
    companyId: company.id,
    planId: plan.id,
    detail: invoiceDetail(plan.name, company.recurrence, dueDate),
    value: Math.round(Number(plan.value) * months * 100) / 100,
    dueDate,
    months,
    status: "open",
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * The invoicing job's work: every active company with a plan whose due date is at most
 * `invoiceDaysBefore` days away gets the invoice of that period. Safe on every instance at once:
 * the unique (company, due date) keeps one. Answers how many invoices it opened.
 */
export async function openDueInvoices(db: Executor, at: Date): Promise<number> {
  const settings = await billingSettings(db);
  const today = todayInZone(at);
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const until = new Date(Date.UTC(y, m - 1, d + settings.invoiceDaysBefore)).toISOString().slice(0, 10);
  let opened = 0;
  // Each round sees only companies still without their invoice; a bound against a loop that cannot end.
  for (let round = 0; round < 100; round++) {
    const due = await q.companiesToInvoice(db, until, 200);
    if (due.length === 0) break;
    for (const row of due) if ((await openPeriodInvoice(db, row, at)).created) opened++;
    if (due.length < 200) break;
  }
  return opened;
}

/**
 * Invoices as /financeiro shows them: a company admin reads the company's, the super user every
 * company's (with the company's name); only the super user marks one paid by hand.
 */
export function createInvoicesService({ db, bus, now }: InvoicesDeps) {
  async function found(actor: AuthContext, id: number) {
    const row = await q.findInvoice(db, actor.super ? null : actor.companyId, id);
    if (!row) throw new AppError("ERR_NO_INVOICE_FOUND");
    return row;
  }

  return {
    async page(actor: AuthContext, query: InvoiceListQuery): Promise<InvoicesPage> {
      const offset = (query.pageNumber - 1) * INVOICES_PAGE_SIZE;
      const { rows, count } = await q.pageInvoices(db, actor.super ? null : actor.companyId, {
        searchParam: query.searchParam,
        limit: INVOICES_PAGE_SIZE,
        offset,
      });
      return {
        invoices: rows.map((r) => presentInvoice(r, actor.super)),
        count,
        hasMore: offset + rows.length < count,
      };
    },

    async get(actor: AuthContext, id: number): Promise<InvoiceDTO> {
      // Looked up first: another company's id is 404 before any 403 (routes with an id).
      const row = await found(actor, id);
      authorize(actor, "invoices:view");
      return presentInvoice(row, actor.super);
    },

    /** The super user confirms a payment by hand (a plain Pix key, a transfer): recorded with who and when. */
    async markPaid(actor: AuthContext, id: number): Promise<InvoiceDTO> {
      if (!actor.super) throw new AppError("ERR_NO_PERMISSION");
      const invoice = await found(actor, id);
      const outcome = await inTransaction(db, bus, (tx, raise) =>
        settleInvoice(tx, raise, invoice.companyId, invoice.id, {
          at: now(),
          paidVia: "manual",
          paidByUserId: actor.userId,
        }),
      );
      if (outcome === "alreadyPaid") throw new AppError("ERR_INVOICE_ALREADY_PAID");
      if (outcome === "missing") throw new AppError("ERR_NO_INVOICE_FOUND");
      return presentInvoice((await q.findInvoice(db, null, id))!, true);
    },
  };
}
export type InvoicesService = ReturnType<typeof createInvoicesService>;
