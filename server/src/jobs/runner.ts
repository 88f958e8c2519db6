import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, type Executor, isDatabaseUnavailable, queryRows } from "../db/client.js";
import { GroupCommit } from "../db/groupCommit.js";
import { columnList, tableRow } from "../db/prepared.js";
import { jobs } from "../db/schema/index.js";

export type JobRow = typeof jobs.$inferSelect;

export interface EnqueueOptions {
  type: string;
  payload?: Record<string, unknown>;
  companyId?: number | null;
  runAt?: Date;
  orderKey?: string;
  lane?: string;
  dedupeKey?: string;
  maxAttempts?: number;
}

/** "As soon as possible": before any clock, so an immediate job is due whatever the runner's clock says. */
const IMMEDIATELY = new Date(0);

/** The row of a job to add: an immediate job is due at once, attempts 5 unless said. */
function jobRow(opts: EnqueueOptions): typeof jobs.$inferInsert {
  return {
    type: opts.type,
    payload: opts.payload ?? {},
    companyId: opts.companyId ?? null,
    runAt: opts.runAt ?? IMMEDIATELY,
    orderKey: opts.orderKey,
    lane: opts.lane,
    dedupeKey: opts.dedupeKey,
    maxAttempts: opts.maxAttempts ?? 5,
  };
}

/** Adds a job in the caller's transaction, so it exists exactly when the work that asked for it commits. */
export async function enqueueJob(db: Executor, opts: EnqueueOptions): Promise<number | null> {
  const rows = await db.insert(jobs).values(jobRow(opts)).onConflictDoNothing().returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}

/** Adds several jobs in one statement (a batch of them, in order: ids follow the list); answers how many were new. */
export async function enqueueJobs(db: Executor, list: EnqueueOptions[]): Promise<number> {
  if (list.length === 0) return 0;
  const rows = await db
    .insert(jobs)
    .values(list.map(jobRow))
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return rows.length;
}

/** Thrown by a handler to be tried again later (after `seconds`, or the runner's backoff). */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly seconds?: number,
  ) {
    super(message);
  }
}

/** Thrown by a handler when trying again cannot help. */
export class JobFailed extends Error {}

export interface JobContext {
  attempt: number;
  isLastAttempt: boolean;
  now: Date;
}

export interface JobHandler {
  run(job: JobRow, ctx: JobContext): Promise<void>;
  /** Called once when the job gives up for good (last attempt failed, or JobFailed). */
  onFailed?(job: JobRow, error: Error): Promise<void>;
}

export interface JobRunnerOptions {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The lanes this instance serves right now (the connections whose sessions it owns). */
  lanes?: () => string[];
  pollMs?: number;
  batch?: number;
  /** Claimed jobs run this many at a time (4 by default). */
  concurrency?: number;
  lockSeconds?: number;
  instanceId?: string;
}

/** Backoff for attempt n (1-based): 2, 4, 8 … seconds, capped at 5 minutes, with jitter. */
export function backoffSeconds(attempt: number): number {
  const base = Math.min(300, 2 ** attempt);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * Runs durable jobs from the database. Every instance runs one; claims use FOR UPDATE SKIP LOCKED,
 * jobs of one orderKey run one at a time in id order (those of different keys side by side, a few
 * at a time), and a job whose runner died is claimed again once its lock expires.
 */
export class JobRunner {
  readonly instanceId: string;
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = true;

  constructor(private readonly opts: JobRunnerOptions) {
    this.instanceId = opts.instanceId ?? crypto.randomUUID();
  }

  register(type: string, handler: JobHandler): void {
    this.handlers.set(type, handler);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(async () => {
      this.timer = null;
      if (this.stopped) return;
      let ran = 0;
      try {
        ran = await this.runDue();
      } catch (err) {
        this.opts.log.error({ err }, "job runner tick failed");
      }
      // Work begets work (the next send of a ticket): look again at once while there is some.
      if (!this.stopped && !this.timer) this.schedule(ran > 0 ? 0 : (this.opts.pollMs ?? 500));
    }, ms);
  }

  /** Asks for a run soon (after an enqueue), instead of waiting for the next poll. */
  poke(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Claims and runs what is due now; answers how many jobs ran. Serialised within the instance. */
  async runDue(): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.claimAndRun();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async claimAndRun(): Promise<number> {
    const now = this.opts.now();
    const lanes = this.opts.lanes?.() ?? [];
    const laneFilter = lanes.length
      ? sql`(j.lane is null or j.lane in (${sql.join(
          lanes.map((l) => sql`${l}`),
          sql`, `,
        )}))`
      : sql`j.lane is null`;
    const lockUntil = new Date(now.getTime() + (this.opts.lockSeconds ?? 120) * 1000);
    // The claimed rows come back whole: no read per job. A claim never holds two jobs of one
    // orderKey (the second waits for the first to finish), so the claimed jobs run side by side.
    const claimed = await queryRows<Record<string, unknown>>(
      this.opts.db,
      sql`
      update jobs set status = 'running', locked_by = ${this.instanceId}, locked_until = ${lockUntil.toISOString()},
        attempts = attempts + 1, updated_at = ${now.toISOString()}
      where id in (
        select j.id from jobs j
        where ((j.status = 'pending' and j.run_at <= ${now.toISOString()})
               or (j.status = 'running' and j.locked_until < ${now.toISOString()}))
          and ${laneFilter}
          and (j.order_key is null or not exists (
                select 1 from jobs e where e.order_key = j.order_key and e.id < j.id and e.status in ('pending', 'running')))
        order by j.run_at, j.id
        limit ${this.opts.batch ?? 20}
        for update skip locked)
      returning ${columnList(jobs)}`,
    );
    const queue = claimed.map((raw) => tableRow(jobs, raw)).sort((a, b) => a.id - b.id);
    const workers = Math.min(this.opts.concurrency ?? 4, queue.length);
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let job = queue.shift(); job; job = queue.shift())
          // execute() settles the job's outcome; only writing it back can fail (the lock then
          // expires and the job is claimed again). The other workers go on either way.
          await this.execute(job).catch((err: unknown) =>
            this.opts.log.error({ err, jobId: job!.id }, "job outcome could not be written"),
          );
      }),
    );
    return claimed.length;
  }

  /**
   * A job done: batched with the others finishing at the same time (one UPDATE). The ids go as one
   * array parameter (`id = any`: one statement text whatever the batch's size), looked up through the
   * primary key: joined with a set-returning function instead, the plan read the whole jobs table,
   * which keeps every job done.
   */
  private readonly done = new GroupCommit<number, void>(async (ids) => {
    await this.opts.db.execute(sql`
      update jobs set status = 'done', last_error = null, locked_by = null, locked_until = null,
        updated_at = ${this.opts.now().toISOString()}
      where id = any(${`{${ids.join(",")}}`}::bigint[])`);
    return ids.map(() => undefined);
  });

  /**
   * Writes a job's outcome, waiting for a database that went away meanwhile: left unwritten, the job
   * would hold its lock (and every later job of its orderKey) until the lock expires.
   */
  private async persist(write: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (err) {
        if (this.stopped || !isDatabaseUnavailable(err)) throw err;
        await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** (attempt - 1))));
      }
    }
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.type);
    const now = this.opts.now();
    const finish = (values: Partial<typeof jobs.$inferInsert>) =>
      this.persist(() =>
        this.opts.db
          .update(jobs)
          .set({ ...values, lockedBy: null, lockedUntil: null, updatedAt: this.opts.now() })
          .where(sql`${jobs.id} = ${job.id}`),
      );
    if (!handler) {
      await finish({ status: "failed", lastError: `no handler for job type ${job.type}` });
      return;
    }
    const isLastAttempt = job.attempts >= job.maxAttempts;
    try {
      await handler.run(job, { attempt: job.attempts, isLastAttempt, now });
      await this.persist(() => this.done.submit("done", job.id));
    } catch (raw) {
      const err = raw instanceof Error ? raw : new Error(String(raw));
      // A database that went away says nothing about the job: it is tried again, whatever its count.
      const giveUp = (err instanceof JobFailed || isLastAttempt) && !isDatabaseUnavailable(err);
      if (giveUp) {
        await finish({ status: "failed", lastError: err.message });
        await handler
          .onFailed?.(job, err)
          .catch((e) => this.opts.log.error({ err: e }, "job onFailed failed"));
        this.opts.log.warn({ jobId: job.id, type: job.type, err: err.message }, "job failed for good");
      } else {
        const seconds = isDatabaseUnavailable(err)
          ? 2
          : err instanceof RetryLater && err.seconds !== undefined
            ? err.seconds
            : backoffSeconds(job.attempts);
        await finish({
          status: "pending",
          lastError: err.message,
          runAt: new Date(now.getTime() + seconds * 1000),
        });
      }
    }
  }
}
