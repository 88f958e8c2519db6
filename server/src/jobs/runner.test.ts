import { asc } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../db/schema/index.js";
import { openTestDatabase } from "../test/harness.js";
import { z } from "zod";
import { JobRunner, RetryLater, jobQueue } from "./runner.js";

/**
 * The durable job runner: jobs of one orderKey one at a time in id order, others side by side (a
 * few at a time), each job's outcome written back.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.drop());

const log = Fastify({ logger: false }).log;
/** The test's own job types, typed and validated as the app's are. */
const schemas = {
  work: z.object({ key: z.string(), n: z.number() }),
  flaky: z.object({ fail: z.boolean() }),
};
const { enqueueJobs } = jobQueue(schemas);

describe("JobRunner", () => {
  it("runs different orderKeys side by side (at most `concurrency`), one orderKey's jobs one at a time in id order", async () => {
    const db = database.db;
    await db.delete(jobs);
    const runner = new JobRunner({ db, now: () => new Date(), log, schemas, concurrency: 3 });
    const ran: string[] = [];
    let running = 0;
    let most = 0;
    const perKey = new Map<string, number>();
    let keyOverlap = false;
    runner.register("work", {
      async run(job) {
        const key = job.payload.key;
        running++;
        most = Math.max(most, running);
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
        if (perKey.get(key)! > 1) keyOverlap = true;
        // Real work that awaits: the runner starts the claim's other jobs meanwhile (no timing
        // needed, each worker starts its job before the first await).
        await db.select().from(jobs).limit(1);
        ran.push(`${key}:${job.payload.n}`);
        perKey.set(key, perKey.get(key)! - 1);
        running--;
      },
    });
    await enqueueJobs(
      db,
      ["a", "b", "c", "d", "e"].flatMap((key) =>
        [1, 2, 3].map((n) => ({ type: "work", payload: { key, n }, orderKey: `k:${key}` })),
      ),
    );
    while ((await runner.runDue()) > 0);

    expect(ran).toHaveLength(15);
    expect(most).toBe(3);
    expect(keyOverlap).toBe(false);
    for (const key of ["a", "b", "c", "d", "e"])
      expect(ran.filter((r) => r.startsWith(`${key}:`))).toEqual([`${key}:1`, `${key}:2`, `${key}:3`]);
    const rows = await db.select().from(jobs).orderBy(asc(jobs.id));
    expect(rows.every((j) => j.status === "done" && j.lockedBy === null && j.lockedUntil === null)).toBe(
      true,
    );
    expect(rows.every((j) => j.attempts === 1)).toBe(true);
  });

  it("lets the event loop turn between the jobs of a claim (PGlite answers without I/O)", async () => {
    const db = database.db;
    await db.delete(jobs);
    const runner = new JobRunner({ db, now: () => new Date(), log, schemas, concurrency: 1 });
    // Each job only reads the database: on PGlite a claim of 20 would otherwise run as one chain
    // of microtasks, no request answered until the last.
    runner.register("work", {
      async run() {
        for (let i = 0; i < 3; i++) await db.select().from(jobs).limit(1);
      },
    });
    await enqueueJobs(
      db,
      Array.from({ length: 20 }, (_, n) => ({ type: "work", payload: { key: "y", n } })),
    );
    // One count per turn of the loop (a timer fires at most once a millisecond: on PostgreSQL, 20
    // jobs could finish in fewer milliseconds, and counted 18 once).
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    try {
      expect(await runner.runDue()).toBe(20);
    } finally {
      counting = false;
    }
    expect(turns).toBeGreaterThanOrEqual(19);
  });

  it("a job that fails is tried again later with its error kept; the others of the claim are done", async () => {
    const db = database.db;
    await db.delete(jobs);
    const now = new Date("2026-01-01T12:00:00Z");
    const runner = new JobRunner({ db, now: () => now, log, schemas });
    runner.register("flaky", {
      async run(job) {
        if (job.payload.fail) throw new RetryLater("provider busy", 30);
      },
    });
    await enqueueJobs(db, [
      { type: "flaky", payload: { fail: false } },
      { type: "flaky", payload: { fail: true } },
      { type: "flaky", payload: { fail: false } },
    ]);
    expect(await runner.runDue()).toBe(3);
    const rows = await db.select().from(jobs).orderBy(asc(jobs.id));
    expect(rows.map((j) => j.status)).toEqual(["done", "pending", "done"]);
    expect(rows[1]).toMatchObject({ attempts: 1, lastError: "provider busy", lockedBy: null });
    expect(rows[1]!.runAt.getTime()).toBe(now.getTime() + 30_000);
    // Not due yet: nothing runs.
    expect(await runner.runDue()).toBe(0);
  });

  it("a stored row whose payload its type's schema refuses fails for good, its handler never called with it", async () => {
    const db = database.db;
    await db.delete(jobs);
    const runner = new JobRunner({ db, now: () => new Date(), log, schemas });
    const seen: unknown[] = [];
    runner.register("work", {
      async run(job) {
        seen.push(job.payload);
      },
      async onFailed(job) {
        seen.push(job.payload);
      },
    });
    // Written as JSON by hand (or an older version): the typed enqueue could not write it.
    await db.insert(jobs).values([
      { type: "work", payload: { key: "a", n: "one" }, runAt: new Date(0) },
      { type: "work", payload: { key: "b", n: 2 }, runAt: new Date(0) },
    ]);
    expect(await runner.runDue()).toBe(2);
    const rows = await db.select().from(jobs).orderBy(asc(jobs.id));
    expect(rows.map((j) => j.status)).toEqual(["failed", "done"]);
    expect(rows[0]!.lastError).toMatch(/^malformed work payload/);
    expect(seen).toEqual([{ key: "b", n: 2 }]);
  });
});
