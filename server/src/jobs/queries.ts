import { sql } from "drizzle-orm";
import type { Db, Executor } from "../db/client.js";
import { PreparedSql, columnList, intArray, tableRow, textArray } from "../db/prepared.js";
import { jobs } from "../db/schema/index.js";

/** The job runner's statements. Jobs are not a company's: the runner serves every company. */

export type JobRow = typeof jobs.$inferSelect;
export type NewJobRow = typeof jobs.$inferInsert;

/** Adds jobs in the caller's transaction (ids follow the list); a duplicate dedupeKey adds nothing. */
export async function insertJobs(db: Executor, rows: NewJobRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(jobs).values(rows).onConflictDoNothing().returning({ id: jobs.id });
  return inserted.map((r) => r.id);
}

/**
 * Claims what is due for this instance. The claimed rows come back whole: no read per job. A claim
 * never holds two jobs of one orderKey (the second waits for the first to finish), so the claimed
 * jobs may run side by side. A job whose runner died is claimed again once its lock expires.
 * Prepared (one text whatever the lanes: they go as one array): the runner claims after every burst
 * of work, and building this statement anew each time was a share of inbound's server time.
 */
const claimStatement = new PreparedSql<
  { instanceId: string; now: string; lockUntil: string; lanes: string; limit: number },
  Record<string, unknown>
>(
  "jobs_claim",
  sql`
    update jobs set status = 'running', locked_by = ${sql.placeholder("instanceId")}::text,
      locked_until = ${sql.placeholder("lockUntil")}::timestamptz,
      attempts = attempts + 1, updated_at = ${sql.placeholder("now")}::timestamptz
    where id in (
      select j.id from jobs j
      where ((j.status = 'pending' and j.run_at <= ${sql.placeholder("now")}::timestamptz)
             or (j.status = 'running' and j.locked_until < ${sql.placeholder("now")}::timestamptz))
        and (j.lane is null or j.lane = any(${sql.placeholder("lanes")}::text[]))
        and (j.order_key is null or not exists (
              select 1 from jobs e where e.order_key = j.order_key and e.id < j.id and e.status in ('pending', 'running')))
      order by j.run_at, j.id
      limit ${sql.placeholder("limit")}::int
      for update skip locked)
    returning ${columnList(jobs)}`,
);

export async function claimDueJobs(
  db: Db,
  claim: { instanceId: string; now: Date; lockUntil: Date; lanes: string[]; limit: number },
): Promise<JobRow[]> {
  const claimed = await claimStatement.rows(db, {
    instanceId: claim.instanceId,
    now: claim.now.toISOString(),
    lockUntil: claim.lockUntil.toISOString(),
    lanes: textArray(claim.lanes),
    limit: claim.limit,
  });
  return claimed.map((raw) => tableRow(jobs, raw)).sort((a, b) => a.id - b.id);
}

/**
 * Jobs done, in one UPDATE. The ids go as one array parameter (`id = any`: one statement text
 * whatever the batch's size), looked up through the primary key: joined with a set-returning
 * function instead, the plan read the whole jobs table, which keeps every job done.
 */
const doneStatement = new PreparedSql<{ ids: string; at: string }>(
  "jobs_done",
  sql`
    update jobs set status = 'done', last_error = null, locked_by = null, locked_until = null,
      updated_at = ${sql.placeholder("at")}::timestamptz
    where id = any(${sql.placeholder("ids")}::bigint[])`,
);

export async function markJobsDone(db: Db, ids: number[], at: Date): Promise<void> {
  await doneStatement.rows(db, { ids: intArray(ids), at: at.toISOString() });
}

/** A job's outcome (failed for good, or pending again later), its lock released. */
export async function finishJob(
  db: Db,
  id: number,
  values: Pick<NewJobRow, "status" | "lastError" | "runAt">,
  at: Date,
): Promise<void> {
  await db
    .update(jobs)
    .set({ ...values, lockedBy: null, lockedUntil: null, updatedAt: at })
    .where(sql`${jobs.id} = ${id}`);
}
