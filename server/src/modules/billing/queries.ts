import { type SQL, and, asc, count, desc, eq, ilike, inArray, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  companies,
  invoices,
  paymentCharges,
  paymentCustomers,
  paymentEvents,
  plans,
  users,
} from "../../db/schema/index.js";

/**
 * Every statement of billing. A company's rows are read with its companyId; the statements that
 * span companies say why (the super user's list, the invoicing and reconciliation jobs, the
 * gateway's webhook, which names a charge and no company).
 */

export type InvoiceRow = typeof invoices.$inferSelect;
export type ChargeRow = typeof paymentCharges.$inferSelect;
export type InvoiceListRow = InvoiceRow & { companyName: string; paidByName: string | null };

const listColumns = {
  invoice: invoices,
  companyName: companies.name,
  paidByName: users.name,
};

function searching(searchParam: string, withCompany: boolean): SQL | undefined {
  if (!searchParam) return undefined;
  const term = `%${searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const parts: (SQL | undefined)[] = [ilike(invoices.detail, term)];
  if (withCompany) parts.push(ilike(companies.name, term));
  if (/^\d{1,9}$/.test(searchParam)) parts.push(eq(invoices.id, Number(searchParam)));
  return or(...parts);
}

/**
 * A page of invoices, newest due date first: the company's (`companyId`), or every company's for the
 * super user (`companyId` null: the platform's list spans companies by design).
 */
export async function pageInvoices(
  db: Executor,
  companyId: number | null,
  query: { searchParam: string; limit: number; offset: number },
): Promise<{ rows: InvoiceListRow[]; count: number }> {
  const where = and(
    companyId === null ? undefined : eq(invoices.companyId, companyId),
    searching(query.searchParam, companyId === null),
  );
  const rows = await db
    .select(listColumns)
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .leftJoin(users, eq(users.id, invoices.paidByUserId))
    .where(where)
    .orderBy(desc(invoices.dueDate), desc(invoices.id))
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await db
    .select({ n: count() })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(where);
  return {
    rows: rows.map((r) => ({ ...r.invoice, companyName: r.companyName, paidByName: r.paidByName })),
    count: total?.n ?? 0,
  };
}

/** One invoice of the company (null for another company's), or any one for the super user (companyId null). */
export async function findInvoice(
  db: Executor,
  companyId: number | null,
  id: number,
): Promise<InvoiceListRow | null> {
  const [row] = await db
    .select(listColumns)
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .leftJoin(users, eq(users.id, invoices.paidByUserId))
    .where(and(eq(invoices.id, id), companyId === null ? undefined : eq(invoices.companyId, companyId)));
  return row ? { ...row.invoice, companyName: row.companyName, paidByName: row.paidByName } : null;
}

/** The company's oldest open invoice: what a checkout without invoiceId pays. */
export async function oldestOpenInvoice(db: Executor, companyId: number): Promise<InvoiceRow | null> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, "open")))
    .orderBy(asc(invoices.dueDate), asc(invoices.id))
    .limit(1);
  return row ?? null;
}

/**
 * Companies due for an invoice: active, with a plan and a due date on or before `until` (today plus
 * the days before), and no invoice yet for that due date. Across companies: the invoicing job's sweep.
 */
export async function companiesToInvoice(db: Executor, until: string, limit: number) {
  return db
    .select({ company: companies, plan: plans })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(
      and(
        eq(companies.status, true),
        lte(companies.dueDate, until),
        sql`not exists (select 1 from ${invoices} i where i.company_id = ${companies.id} and i.due_date = ${companies.dueDate})`,
        // The platform's own company (the super user's) is never billed.
        sql`not exists (select 1 from ${users} u where u.company_id = ${companies.id} and u.super)`,
      ),
    )
    .orderBy(asc(companies.id))
    .limit(limit);
}

/**
 * Opens the invoice of a company's period; the unique (company, due date) makes a second opening,
 * from any instance, a no-op. Answers the invoice of that period, new or already there.
 */
export async function openInvoice(
  db: Executor,
  values: typeof invoices.$inferInsert,
): Promise<{ row: InvoiceRow; created: boolean }> {
  const [inserted] = await db.insert(invoices).values(values).onConflictDoNothing().returning();
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, values.companyId), eq(invoices.dueDate, values.dueDate)));
  return { row: existing!, created: false };
}

/** Holds the company's row, then the invoice's, until the transaction ends (always in this order). */
export async function lockCompanyAndInvoice(tx: Executor, companyId: number, invoiceId: number) {
  const [company] = await tx.select().from(companies).where(eq(companies.id, companyId)).for("update");
  if (!company) return null;
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.companyId, companyId)))
    .for("update");
  return invoice ? { company, invoice } : null;
}

export async function markInvoicePaid(
  tx: Executor,
  companyId: number,
  invoiceId: number,
  values: { at: Date; paidVia: string; paidByUserId: number | null },
) {
  await tx
    .update(invoices)
    .set({
      status: "paid",
      paidAt: values.at,
      paidVia: values.paidVia,
      paidByUserId: values.paidByUserId,
      updatedAt: values.at,
    })
    .where(and(eq(invoices.id, invoiceId), eq(invoices.companyId, companyId)));
}

export async function setCompanyDueDate(tx: Executor, companyId: number, dueDate: string, at: Date) {
  const [row] = await tx
    .update(companies)
    .set({ dueDate, updatedAt: at })
    .where(eq(companies.id, companyId))
    .returning();
  return row!;
}

// ---------------------------------------------------------------- charges

/** A charge of the invoice still pending and valid after `validAfter`: a checkout again shows it. */
export async function reusableCharge(
  db: Executor,
  companyId: number,
  invoiceId: number,
  gateway: string,
  validAfter: Date,
): Promise<ChargeRow | null> {
  const [row] = await db
    .select()
    .from(paymentCharges)
    .where(
      and(
        eq(paymentCharges.companyId, companyId),
        eq(paymentCharges.invoiceId, invoiceId),
        eq(paymentCharges.gateway, gateway),
        eq(paymentCharges.status, "pending"),
        or(
          sql`${paymentCharges.expiresAt} is null`,
          sql`${paymentCharges.expiresAt} > ${validAfter.toISOString()}`,
        ),
      ),
    )
    .orderBy(desc(paymentCharges.id))
    .limit(1);
  return row ?? null;
}

/** Records a charge; the same gateway id again refreshes its code and expiry (a plain Pix key's txid is per invoice). */
export async function saveCharge(
  db: Executor,
  values: typeof paymentCharges.$inferInsert,
): Promise<ChargeRow> {
  const [row] = await db
    .insert(paymentCharges)
    .values(values)
    .onConflictDoUpdate({
      target: [paymentCharges.gateway, paymentCharges.externalId],
      set: {
        payload: values.payload,
        value: values.value,
        expiresAt: values.expiresAt,
        updatedAt: values.updatedAt ?? new Date(),
      },
    })
    .returning();
  return row!;
}

/** A charge by the gateway's id. Across companies: the webhook names a charge, no company. */
export async function findChargeByExternalId(db: Executor, gateway: string, externalId: string) {
  const [row] = await db
    .select()
    .from(paymentCharges)
    .where(and(eq(paymentCharges.gateway, gateway), eq(paymentCharges.externalId, externalId)));
  return row ?? null;
}

export async function markChargePaid(tx: Executor, companyId: number, chargeId: number, at: Date) {
  await tx
    .update(paymentCharges)
    .set({ status: "paid", paidAt: at, updatedAt: at })
    .where(
      and(
        eq(paymentCharges.id, chargeId),
        eq(paymentCharges.companyId, companyId),
        sql`${paymentCharges.status} <> 'paid'`,
      ),
    );
}

/** The invoice's other pending charges are void once it is paid. */
export async function closeOtherCharges(tx: Executor, companyId: number, invoiceId: number, at: Date) {
  await tx
    .update(paymentCharges)
    .set({ status: "expired", updatedAt: at })
    .where(
      and(
        eq(paymentCharges.companyId, companyId),
        eq(paymentCharges.invoiceId, invoiceId),
        eq(paymentCharges.status, "pending"),
      ),
    );
}

/** Pending charges of a gateway, oldest checked first. Across companies: the reconciliation's sweep. */
export async function pendingCharges(db: Executor, gateway: string, limit: number): Promise<ChargeRow[]> {
  return db
    .select()
    .from(paymentCharges)
    .where(and(eq(paymentCharges.gateway, gateway), eq(paymentCharges.status, "pending")))
    .orderBy(asc(paymentCharges.updatedAt), asc(paymentCharges.id))
    .limit(limit);
}

export async function touchCharges(db: Executor, ids: number[], at: Date) {
  if (ids.length === 0) return;
  await db.update(paymentCharges).set({ updatedAt: at }).where(inArray(paymentCharges.id, ids));
}

// ---------------------------------------------------------------- events and customers

/** Stores a gateway event once; false when that event was already stored (a replay). */
export async function storeEvent(tx: Executor, values: typeof paymentEvents.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(paymentEvents)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return rows.length > 0;
}

export async function findCustomer(db: Executor, companyId: number, gateway: string, cpfCnpj: string) {
  const [row] = await db
    .select()
    .from(paymentCustomers)
    .where(
      and(
        eq(paymentCustomers.companyId, companyId),
        eq(paymentCustomers.gateway, gateway),
        eq(paymentCustomers.cpfCnpj, cpfCnpj),
      ),
    );
  return row ?? null;
}

export async function saveCustomer(
  db: Executor,
  values: { companyId: number; gateway: string; cpfCnpj: string; externalId: string },
) {
  await db.insert(paymentCustomers).values(values).onConflictDoNothing();
}
