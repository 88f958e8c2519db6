import { eq } from "drizzle-orm";
import { type InvoiceDTO, todayInZone } from "@atende/contracts";
import { companies, invoices, paymentEvents } from "../db/schema/index.js";
import { forgetCompanyStanding } from "../http/companyStanding.js";
import { caller, expectOk } from "./calls.js";
import { type LoggedIn, buildCompany, buildPlan, buildUser, login } from "./factories.js";
import type { TestContext } from "./harness.js";

/** Shared by billing's test files: a billed company, and the super user's settings saved through the API. */

/** A date `days` from today (São Paulo), YYYY-MM-DD. */
export function daysFromToday(days: number): string {
  const [y, m, d] = todayInZone(new Date()).split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export async function saveSuperSetting(ctx: TestContext, root: LoggedIn, key: string, value: string) {
  const res = await caller(() => ctx)("PUT", `/settings/${key}`, root, { key, value });
  expectOk(res);
}

/** A company on a plan of `value` per month, with an admin and an agent logged in. */
export async function buildBilledCompany(
  ctx: TestContext,
  v: { value?: number; recurrence?: string; dueDate?: string; planName?: string } = {},
) {
  const db = ctx.deps.db;
  const plan = await buildPlan(db, { value: v.value ?? 49.9, name: v.planName ?? `Plano ${Math.random()}` });
  const dueDate = v.dueDate ?? daysFromToday(5);
  // Logged in while in good standing; a due date already past is set right after (the agent's
  // token then meets the lock on every call).
  const company = await buildCompany(db, {
    planId: plan.id,
    recurrence: v.recurrence ?? "MENSAL",
    dueDate: daysFromToday(30),
  });
  const admin = await buildUser(db, company.id, { profile: "admin" });
  const agent = await buildUser(db, company.id, { profile: "user" });
  const adminLogin = await login(ctx, admin.email);
  const agentLogin = await login(ctx, agent.email);
  await db.update(companies).set({ dueDate }).where(eq(companies.id, company.id));
  forgetCompanyStanding(db, company.id);
  return { plan, company: { ...company, dueDate }, admin, agent, adminLogin, agentLogin };
}

export async function dueDateOf(ctx: TestContext, companyId: number): Promise<string | null> {
  const [row] = await ctx.deps.db
    .select({ dueDate: companies.dueDate })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.dueDate ?? null;
}

export async function invoicesOf(ctx: TestContext, companyId: number) {
  return ctx.deps.db.select().from(invoices).where(eq(invoices.companyId, companyId));
}

export async function eventsOf(ctx: TestContext, externalId: string) {
  return ctx.deps.db.select().from(paymentEvents).where(eq(paymentEvents.externalId, externalId));
}

export const CHECKOUT = {
  firstName: "Maria",
  lastName: "Silva",
  address2: "Rua das Flores, 10",
  city: "São Paulo",
  state: "SP",
  zipcode: "01310-100",
  country: "BR",
};

/** A valid CPF (check digits right). */
export const CPF = "529.982.247-25";

export type { InvoiceDTO };
