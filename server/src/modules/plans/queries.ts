import { asc, count, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { companies, plans } from "../../db/schema/index.js";

// Plans are the platform's, not a company's: these statements are not scoped by company. Who may
// read or write them is decided in the service (the super user; a company's users read their own).

export type PlanRow = typeof plans.$inferSelect;
export type PlanValues = Partial<Omit<typeof plans.$inferInsert, "id">>;

export function listPlans(db: Executor): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.name), asc(plans.id));
}

export async function findPlan(db: Executor, id: number): Promise<PlanRow | null> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row ?? null;
}

export async function insertPlan(db: Executor, values: PlanValues & { name: string }): Promise<PlanRow> {
  const [row] = await db.insert(plans).values(values).returning();
  return row!;
}

export async function updatePlan(db: Executor, id: number, values: PlanValues): Promise<PlanRow | null> {
  const [row] = await db.update(plans).set(values).where(eq(plans.id, id)).returning();
  return row ?? null;
}

export async function deletePlan(db: Executor, id: number): Promise<boolean> {
  const rows = await db.delete(plans).where(eq(plans.id, id)).returning({ id: plans.id });
  return rows.length > 0;
}

/** How many companies are on the plan (across the platform: a plan in use is not deleted). */
export async function companiesOnPlan(db: Executor, id: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(companies).where(eq(companies.planId, id));
  return row?.n ?? 0;
}

/** The plan a company is on, or null. */
export async function companyPlanId(db: Executor, companyId: number): Promise<number | null> {
  const [row] = await db
    .select({ planId: companies.planId })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.planId ?? null;
}

/** Holds the company's row until the transaction ends: two writers cannot both pass a plan limit. */
export async function lockCompany(tx: Executor, companyId: number): Promise<void> {
  await tx.execute(sql`select id from companies where id = ${companyId} for update`);
}

/** The plan the company is on (its row locked first by the caller, when counting for a limit), or null. */
export async function planOfCompany(db: Executor, companyId: number): Promise<PlanRow | null> {
  const [row] = await db
    .select({ plan: plans })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row?.plan ?? null;
}
