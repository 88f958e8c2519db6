import { eq, sql } from "drizzle-orm";
import {
  LIMITS,
  type PlanDTO,
  type SessionCompanyDTO,
  type SubscriptionStatus,
  daysBetween,
  todayInZone,
} from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { companies, plans } from "../../db/schema/index.js";
import { storedSettings } from "../settings/queries.js";

export function presentPlan(p: typeof plans.$inferSelect): PlanDTO {
  return {
    id: p.id,
    name: p.name,
    users: p.users,
    connections: p.connections,
    queues: p.queues,
    value: Number(p.value),
    useCampaigns: p.useCampaigns,
    useSchedules: p.useSchedules,
    useInternalChat: p.useInternalChat,
    useExternalApi: p.useExternalApi,
    useKanban: p.useKanban,
    useOpenAi: p.useOpenAi,
    useIntegrations: p.useIntegrations,
    useInternal: p.useInternal,
  };
}

export async function findCompany(db: Executor, companyId: number) {
  const [row] = await db
    .select({ company: companies, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row ?? null;
}

export async function sessionCompany(db: Executor, companyId: number): Promise<SessionCompanyDTO | null> {
  const row = await findCompany(db, companyId);
  if (!row) return null;
  return {
    id: row.company.id,
    name: row.company.name,
    dueDate: row.company.dueDate,
    settings: await storedSettings(db, companyId),
    plan: row.plan ? presentPlan(row.plan) : null,
  };
}

/** Days left on the subscription, counted in the company's time zone. */
export function subscriptionStatus(dueDate: string | null, now: Date, timeZone?: string): SubscriptionStatus {
  if (!dueDate) return { dueDate: null, daysLeft: null, expiresSoon: false };
  const daysLeft = daysBetween(todayInZone(now, timeZone), dueDate);
  return { dueDate, daysLeft, expiresSoon: daysLeft >= 0 && daysLeft < LIMITS.subscriptionWarningDays };
}

/**
 * Writes a company's own row by id: the platform's (the super user's) or its admins' change, after
 * the caller's right to that company was checked. The row, or null when there is none.
 */
export async function updateCompany(
  db: Executor,
  id: number,
  values: Partial<Pick<typeof companies.$inferInsert, "status" | "dueDate" | "schedules" | "updatedAt">>,
) {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
  return row ?? null;
}

/** Holds the company's row until the transaction ends: two writers cannot both pass a plan limit. */
export async function lockCompany(tx: Executor, companyId: number): Promise<void> {
  await tx.execute(sql`select id from companies where id = ${companyId} for update`);
}
