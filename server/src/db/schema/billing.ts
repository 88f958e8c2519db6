import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  date,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { plans } from "./plans.js";
import { users } from "./users.js";

/**
 * A company's invoice for one billing period (back-office §3 Invoice). The period is named by the
 * due date it covers: `invoices_company_period_uq` keeps one invoice per company and period, so the
 * invoicing job can run on every instance at once (`insert ... on conflict do nothing`).
 */
export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** The plan billed, kept for the record; the value is copied, a later plan change does not alter it. */
    planId: integer("plan_id").references(() => plans.id, { onDelete: "set null" }),
    detail: text("detail").notNull(),
    value: numeric("value", { precision: 12, scale: 2, mode: "number" }).notNull(),
    /** The due date of the period (YYYY-MM-DD): the company's dueDate when the invoice was opened. */
    dueDate: date("due_date", { mode: "string" }).notNull(),
    /** The months this invoice pays for (the company's recurrence when it was opened). */
    months: integer("months").notNull().default(1),
    /** "open" or "paid". */
    status: text("status").notNull().default("open"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** The super user who marked it paid by hand; null when a gateway confirmed it. */
    paidByUserId: integer("paid_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** How it was settled: "asaas", "pixKey" (confirmed by hand) or "manual". */
    paidVia: text("paid_via"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_company_period_uq").on(t.companyId, t.dueDate),
    index("invoices_company_idx").on(t.companyId, t.id),
  ],
);

/**
 * A Pix charge opened for an invoice at a gateway. `externalId` is the gateway's own id (Asaas'
 * `pay_...`, or the txid for a plain Pix key); reconciliation polls the pending ones.
 */
export const paymentCharges = pgTable(
  "payment_charges",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** "asaas" or "pixKey". */
    gateway: text("gateway").notNull(),
    externalId: text("external_id").notNull(),
    txid: text("txid").notNull(),
    /** The EMV BR Code (copia e cola). */
    payload: text("payload").notNull(),
    value: numeric("value", { precision: 12, scale: 2, mode: "number" }).notNull(),
    /** "pending", "paid" or "expired". */
    status: text("status").notNull().default("pending"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_charges_gateway_external_uq").on(t.gateway, t.externalId),
    index("payment_charges_invoice_idx").on(t.invoiceId),
    index("payment_charges_status_idx").on(t.status, t.gateway),
  ],
);

/**
 * Every gateway notification received, once: `payment_events_key_uq` makes a replayed webhook (or the
 * reconciliation seeing the same payment) a no-op.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: serial("id").primaryKey(),
    gateway: text("gateway").notNull(),
    /** The gateway's event id, else `<event>:<charge id>`. */
    eventKey: text("event_key").notNull(),
    eventType: text("event_type").notNull(),
    externalId: text("external_id"),
    payload: jsonb("payload").$type<unknown>(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_events_key_uq").on(t.gateway, t.eventKey)],
);

/** The gateway's customer made for a company (Asaas `cus_...`), reused on the next checkout. */
export const paymentCustomers = pgTable(
  "payment_customers",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    gateway: text("gateway").notNull(),
    externalId: text("external_id").notNull(),
    cpfCnpj: text("cpf_cnpj").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("payment_customers_company_uq").on(t.companyId, t.gateway, t.cpfCnpj)],
);
