import { and, asc, count, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import {
  LIMITS,
  type SessionCompanyDTO,
  type SubscriptionStatus,
  daysBetween,
  todayInZone,
} from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { companies, plans, settings, users, whatsapps } from "../../db/schema/index.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { presentStoredSettings } from "../settings/sealing.js";
import { storedSettings } from "../settings/queries.js";
import { presentPlan } from "../plans/present.js";

export async function findCompany(db: Executor, companyId: number) {
  const [row] = await db
    .select({ company: companies, plan: plans })
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row ?? null;
}

export async function sessionCompany(
  db: Executor,
  companyId: number,
  secrets: SecretBox,
): Promise<SessionCompanyDTO | null> {
  const row = await findCompany(db, companyId);
  if (!row) return null;
  return {
    id: row.company.id,
    name: row.company.name,
    dueDate: row.company.dueDate,
    trialExpiration: row.company.trialExpiration,
    // Secrets only as hints: every user of the company gets this in the login answer.
    settings: presentStoredSettings(secrets, await storedSettings(db, companyId)),
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
  values: Partial<Omit<typeof companies.$inferInsert, "id" | "createdAt">>,
) {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
  return row ?? null;
}

// ---- The platform's companies (the super user's Empresas pages). These statements span companies
// by design: only the super user reaches them (the service checks it first).

export type CompanyRow = typeof companies.$inferSelect;
export interface CompanyWithPlan {
  company: CompanyRow;
  plan: { id: number; name: string } | null;
}

const withPlan = { company: companies, plan: { id: plans.id, name: plans.name } };

/** A page of companies by name, e-mail or phone (GET /companies). */
export async function pageCompanies(
  db: Executor,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: CompanyWithPlan[]; count: number }> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam
    ? or(ilike(companies.name, term), ilike(companies.email, term), ilike(companies.phone, term))
    : undefined;
  const [total] = await db.select({ n: count() }).from(companies).where(where);
  const rows = await db
    .select(withPlan)
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(where)
    .orderBy(asc(companies.name), asc(companies.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  return { rows: rows.map(fixPlan), count: total?.n ?? 0 };
}

/** Every company (GET /companies/list). */
export async function allCompanies(db: Executor): Promise<CompanyWithPlan[]> {
  const rows = await db
    .select(withPlan)
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .orderBy(asc(companies.name), asc(companies.id));
  return rows.map(fixPlan);
}

/** One company with its plan's name. */
export async function companyWithPlan(db: Executor, companyId: number): Promise<CompanyWithPlan | null> {
  const [row] = await db
    .select(withPlan)
    .from(companies)
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return row ? fixPlan(row) : null;
}

// A left join answers { id: null, name: null } for no plan.
function fixPlan(row: { company: CompanyRow; plan: { id: number | null; name: string | null } | null }) {
  return {
    company: row.company,
    plan: row.plan && row.plan.id !== null ? { id: row.plan.id, name: row.plan.name ?? "" } : null,
  };
}

/** The saved settings of several companies, by company (the Empresas table shows campaignsEnabled). */
export async function settingsOfCompanies(
  db: Executor,
  companyIds: number[],
): Promise<Map<number, { key: string; value: string }[]>> {
  const out = new Map<number, { key: string; value: string }[]>(companyIds.map((id) => [id, []]));
  if (companyIds.length === 0) return out;
  const rows = await db
    .select({ companyId: settings.companyId, key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.companyId, companyIds))
    .orderBy(asc(settings.key));
  for (const r of rows) out.get(r.companyId)?.push({ key: r.key, value: r.value });
  return out;
}

export async function planExists(db: Executor, planId: number): Promise<boolean> {
  const [row] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  return !!row;
}

export async function insertCompany(
  db: Executor,
  values: typeof companies.$inferInsert,
): Promise<CompanyRow> {
  const [row] = await db.insert(companies).values(values).returning();
  return row!;
}

/** Another company already has this name (case and spaces aside)? */
export async function companyNameTaken(db: Executor, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        sql`lower(trim(${companies.name})) = lower(trim(${name}))`,
        exceptId ? ne(companies.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

/** The company has a super user (the platform's own company). */
export async function hasSuperUser(db: Executor, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.super, true)))
    .limit(1);
  return !!row;
}

export async function companyUserIds(db: Executor, companyId: number): Promise<number[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId));
  return rows.map((r) => r.id);
}

export async function companyWhatsappIds(db: Executor, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId));
  return rows.map((r) => r.id);
}

/**
 * Every table with a company_id column, from the database's own catalogue: a deletion reaches a
 * table added later without anyone listing it here.
 */
export async function tablesWithCompanyId(db: Executor): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    db,
    sql`select distinct c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
        where c.column_name = 'company_id' and c.table_schema = current_schema()
          and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  return rows.map((r) => r.table_name);
}

/**
 * Removes a company and every row of it. The foreign keys to companies cascade; a table whose
 * company_id has no foreign key (jobs) is emptied of the company's rows by name first, so nothing of
 * it is left behind. Answers whether the company existed.
 */
export async function deleteCompanyRows(tx: Executor, companyId: number): Promise<boolean> {
  const unreferenced = await queryRows<{ table_name: string }>(
    tx,
    sql`select distinct c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
        where c.column_name = 'company_id' and c.table_schema = current_schema()
          and t.table_type = 'BASE TABLE'
          and not exists (
            select 1 from pg_constraint k
            join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
            where k.contype = 'f' and k.conrelid = (quote_ident(c.table_name))::regclass
              and k.confrelid = 'companies'::regclass and a.attname = 'company_id')`,
  );
  for (const { table_name } of unreferenced)
    await tx.execute(sql`delete from ${sql.identifier(table_name)} where company_id = ${companyId}`);
  const gone = await tx.delete(companies).where(eq(companies.id, companyId)).returning({ id: companies.id });
  return gone.length > 0;
}
