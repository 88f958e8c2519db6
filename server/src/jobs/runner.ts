import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type Db, type Executor, isDatabaseUnavailable } from "../db/client.js";
import { GroupCommit } from "../db/groupCommit.js";
import { yieldToEventLoop } from "../lib/eventLoop.js";
import {
  type JobPayloads,
  type JobSchemas,
  type JobType,
  type PayloadsOf,
  jobPayloadSchemas,
} from "./payloads.js";
import { type JobRow, type NewJobRow, claimDueJobs, finishJob, insertJobs, markJobsDone } from "./queries.js";

export type { JobPayloads, JobType, JobRow };

/** A job of type `T` as its handler sees it: the stored row, its payload read through the type's schema. */
export type Job<P, T extends keyof P = keyof P> = Omit<JobRow, "type" | "payload"> & {
  type: T;
  payload: P[T];
};

/** What to enqueue: a job type of the map `P` and that type's payload. */
export type EnqueueOptions<P = JobPayloads> = {
  [T in keyof P & string]: {
    type: T;
    payload: P[T];
    companyId?: number | null;
    runAt?: Date;
    orderKey?: string;
    lane?: string;
    dedupeKey?: string;
    maxAttempts?: number;
  };
}[keyof P & string];

/** "As soon as possible": before any clock, so an immediate job is due whatever the runner's clock says. */
const IMMEDIATELY = new Date(0);

/** The row of a job to add: an immediate job is due at once, attempts 5 unless said. */
function jobRow(opts: EnqueueOptions<Record<string, Record<string, unknown>>>): NewJobRow {
  return {
    type: opts.type,
    payload: opts.payload,
    companyId: opts.companyId ?? null,
    runAt: opts.runAt ?? IMMEDIATELY,
    orderKey: opts.orderKey,
    lane: opts.lane,
    dedupeKey: opts.dedupeKey,
    maxAttempts: opts.maxAttempts ?? 5,
  };
}

/**
 * Enqueueing for a map of job types (the app's `jobPayloadSchemas`, or a test's own). Both take the
 * caller's executor: given the transaction of the work that asks for the job, the job exists exactly
 * when that work commits (a crash after the commit loses nothing).
 */
export function jobQueue<S extends JobSchemas>(_schemas: S) {
  type P = PayloadsOf<S>;
  return {
    /** Adds a job; answers its id, or null when its dedupeKey is already pending. */
    async enqueueJob(db: Executor, opts: EnqueueOptions<P>): Promise<number | null> {
      const [id] = await insertJobs(db, [jobRow(opts)]);
      return id ?? null;
    },
    /** Adds several jobs in one statement (ids follow the list); answers how many were new. */
    async enqueueJobs(db: Executor, list: EnqueueOptions<P>[]): Promise<number> {
      return (await insertJobs(db, list.map(jobRow))).length;
    },
  };
}

export const { enqueueJob, enqueueJobs } = jobQueue(jobPayloadSchemas);

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

/** Runs the jobs of type `T` of the payload map `P`. */
export interface HandlerOf<P, T extends keyof P> {
  run(job: Job<P, T>, ctx: JobContext): Promise<void>;
  /** Called once when the job gives up for good (last attempt failed, or JobFailed). */
  onFailed?(job: Job<P, T>, error: Error): Promise<void>;
}

/** Runs the app's jobs of type `T`: `job.payload` is that type's payload, already validated. */
export type JobHandler<T extends JobType> = HandlerOf<JobPayloads, T>;

export interface JobRunnerOptions<S extends JobSchemas = typeof jobPayloadSchemas> {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The payload schemas of the job types it runs: the app's unless a test brings its own. */
  schemas?: S;
  /** The lanes this instance serves right now (the connections whose sessions it owns). */
  lanes?: () => string[];
  pollMs?: number;
  batch?: number;
  /** Claimed jobs run this many at a time (4 by default). */
  concurrency?: number;
  lockSeconds?: number;
  instanceId?: string;
}

type AnyHandler = HandlerOf<Record<string, Record<string, unknown>>, string>;

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
export class JobRunner<S extends JobSchemas = typeof jobPayloadSchemas> {
  readonly instanceId: string;
  private readonly schemas: JobSchemas;
  // Handlers of any type of the map: each is called only with a job of its own type (see execute).
  private readonly handlers = new Map<string, AnyHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = true;

  constructor(private readonly opts: JobRunnerOptions<S>) {
    this.instanceId = opts.instanceId ?? crypto.randomUUID();
    this.schemas = opts.schemas ?? jobPayloadSchemas;
  }

  register<T extends keyof S & string>(type: T, handler: HandlerOf<PayloadsOf<S>, T>): void {
    this.handlers.set(type, handler as unknown as AnyHandler);
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
    const queue = await claimDueJobs(this.opts.db, {
      instanceId: this.instanceId,
      now,
      lockUntil: new Date(now.getTime() + (this.opts.lockSeconds ?? 120) * 1000),
      lanes: this.opts.lanes?.() ?? [],
      limit: this.opts.batch ?? 20,
    });
    const claimed = queue.length;
    const workers = Math.min(this.opts.concurrency ?? 4, queue.length);
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          // execute() settles the job's outcome; only writing it back can fail (the lock then
          // expires and the job is claimed again). The other workers go on either way.
          await this.execute(job).catch((err: unknown) =>
            this.opts.log.error({ err, jobId: job!.id }, "job outcome could not be written"),
          );
          // Requests get in between two jobs (on PGlite a claim would otherwise run unbroken).
          await yieldToEventLoop();
        }
      }),
    );
    return claimed;
  }

  /** A job done: batched with the others finishing at the same time (one UPDATE). */
  private readonly done = new GroupCommit<number, void>(async (ids) => {
    await markJobsDone(this.opts.db, ids, this.opts.now());
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

  private async execute(row: JobRow): Promise<void> {
    const handler = this.handlers.get(row.type);
    const now = this.opts.now();
    const finish = (values: Pick<NewJobRow, "status" | "lastError" | "runAt">) =>
      this.persist(() => finishJob(this.opts.db, row.id, values, this.opts.now()));
    if (!handler) {
      await finish({ status: "failed", lastError: `no handler for job type ${row.type}` });
      return;
    }
    // A stored payload is read through its type's schema: a malformed row can never succeed.
    const payload = this.schemas[row.type]?.safeParse(row.payload);
    if (!payload?.success) {
      const lastError = `malformed ${row.type} payload: ${payload?.error.message ?? "no schema"}`.slice(
        0,
        500,
      );
      await finish({ status: "failed", lastError });
      this.opts.log.warn(
        { jobId: row.id, type: row.type, companyId: row.companyId ?? undefined, err: lastError },
        "job failed for good",
      );
      return;
    }
    const job = { ...row, payload: payload.data };
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
        this.opts.log.warn(
          { jobId: job.id, type: job.type, companyId: job.companyId ?? undefined, err: err.message },
          "job failed for good",
        );
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
