import { sql } from "drizzle-orm";
import { PLAN_FLAGS, type PlanFlag, type Profile } from "@atende/contracts";
import type { Db, Executor } from "../db/client.js";
import { plans } from "../db/schema/index.js";
import { PreparedSql } from "../db/prepared.js";

/** The statements every request runs: prepared (see PreparedSql), each scoped by the caller's company. */

const sessionStatement = new PreparedSql<
  { userId: number; companyId: number; sessionId: string },
  { profile: Profile; super: boolean; live: boolean }
>(
  "auth_session",
  sql`select u.profile, u.super,
        exists (select 1 from refresh_tokens r
                where r.session_id = ${sql.placeholder("sessionId")}::uuid and r.user_id = u.id
                  and r.revoked_at is null) as live
      from users u
      where u.id = ${sql.placeholder("userId")}::int and u.company_id = ${sql.placeholder("companyId")}::int`,
);

/** The user's profile and whether the session is still live; undefined when the user is not the company's. */
export async function findSession(
  db: Db,
  companyId: number,
  session: { userId: number; sessionId: string },
): Promise<{ profile: Profile; super: boolean; live: boolean } | undefined> {
  const [row] = await sessionStatement.rows(db, {
    companyId,
    userId: session.userId,
    sessionId: session.sessionId,
  });
  return row;
}

type StandingRow = { active: boolean; due_date: string | null; exempt: boolean; grace_days: number };
const standingStatement = new PreparedSql<{ companyId: number }, StandingRow>(
  "company_standing",
  sql`select c.status as active, c.due_date::text as due_date,
        exists (select 1 from users u where u.company_id = c.id and u.super) as exempt,
        coalesce((select case when s.value ~ '^[0-9]{1,3}$' then s.value::int else 0 end
                  from settings s
                  where s.key = 'billingGraceDays'
                    and s.company_id = (select company_id from users where super order by id limit 1)), 0) as grace_days
      from companies c
      where c.id = ${sql.placeholder("companyId")}::int`,
);

/**
 * The company's status, due date, whether it is the super user's own, and the platform's grace days
 * after a due date (billing's `billingGraceDays`); undefined when it is gone.
 */
export async function findCompanyStanding(db: Db, companyId: number): Promise<StandingRow | undefined> {
  const [row] = await standingStatement.rows(db, { companyId });
  return row;
}

/** The company's plan's use* flags, each false when the company has no plan. */
const planFlagsStatement = new PreparedSql<{ companyId: number }, Record<PlanFlag, boolean>>(
  "company_plan_flags",
  sql`select ${sql.join(
    PLAN_FLAGS.map(
      (flag) => sql`coalesce(p.${sql.identifier(plans[flag].name)}, false) as ${sql.identifier(flag)}`,
    ),
    sql`, `,
  )}
      from companies c left join plans p on p.id = c.plan_id
      where c.id = ${sql.placeholder("companyId")}::int`,
);

/** What the company's plan allows; undefined when the company is gone. Read on every call: a plan change applies at once. */
export async function findPlanFlags(
  db: Executor,
  companyId: number,
): Promise<Record<PlanFlag, boolean> | undefined> {
  const [row] = await planFlagsStatement.rows(db, { companyId });
  return row;
}
