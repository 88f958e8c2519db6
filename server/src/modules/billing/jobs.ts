import type { FastifyBaseLogger } from "fastify";
import type { Db, Executor } from "../../db/client.js";
import type { EventBus } from "../../events/bus.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { type JobHandler, type JobRunner, enqueueJob } from "../../jobs/runner.js";
import { openDueInvoices } from "./invoices.js";
import { reconcileCharges } from "./reconciliation.js";

export const INVOICES_JOB = "billing-invoices";
export const RECONCILE_JOB = "billing-reconcile";

/** Invoices are looked for every hour; pending charges asked about every 5 minutes. */
export const INVOICES_EVERY_MS = 60 * 60_000;
export const RECONCILE_EVERY_MS = 5 * 60_000;

type Periodic = typeof INVOICES_JOB | typeof RECONCILE_JOB;
const EVERY: Record<Periodic, number> = {
  [INVOICES_JOB]: INVOICES_EVERY_MS,
  [RECONCILE_JOB]: RECONCILE_EVERY_MS,
};

/**
 * Arms the run of a periodic job for the time slot `slot` (time / period). The dedupe key names the
 * slot, so every instance arming the same slot adds one job, and a running job (whose own key is the
 * slot before) can arm the next one.
 */
async function armSlot(db: Executor, type: Periodic, slot: number, runAt: Date) {
  await enqueueJob(db, { type, payload: {}, runAt, dedupeKey: `${type}:${slot}`, maxAttempts: 3 });
}

/** At start, on every instance: a run now and the next slot's, of each periodic job (once each, whatever the instances). */
export async function armBillingJobs(db: Executor, now: Date): Promise<void> {
  for (const type of [INVOICES_JOB, RECONCILE_JOB] as const) {
    const every = EVERY[type];
    const slot = Math.floor(now.getTime() / every);
    await armSlot(db, type, slot, now);
    await armSlot(db, type, slot + 1, new Date((slot + 1) * every));
  }
}

type JobDeps = {
  db: Db;
  bus: EventBus;
  now: () => Date;
  log: FastifyBaseLogger;
  asaasUrl: string;
  secrets: SecretBox;
};

/** Each run arms the next slot first, so a run that fails (or an instance that dies) keeps the chain. */
async function armNext(db: Db, type: Periodic, at: Date) {
  const every = EVERY[type];
  const next = Math.floor(at.getTime() / every) + 1;
  await armSlot(db, type, next, new Date(next * every));
}

export function invoicesJob(deps: JobDeps): JobHandler<typeof INVOICES_JOB> {
  return {
    async run(_job, ctx) {
      await armNext(deps.db, INVOICES_JOB, ctx.now);
      const opened = await openDueInvoices(deps.db, deps.now());
      if (opened > 0) deps.log.info({ opened }, "billing: invoices opened");
    },
  };
}

export function reconcileJob(deps: JobDeps): JobHandler<typeof RECONCILE_JOB> {
  return {
    async run(_job, ctx) {
      await armNext(deps.db, RECONCILE_JOB, ctx.now);
      const settled = await reconcileCharges(deps);
      if (settled > 0) deps.log.info({ settled }, "billing: charges settled by reconciliation");
    },
  };
}

/** Billing's durable jobs: the monthly invoices and the reconciliation with the payment gateway. */
export function registerBillingJobs(jobs: Pick<JobRunner, "register">, deps: JobDeps) {
  jobs.register(INVOICES_JOB, invoicesJob(deps));
  jobs.register(RECONCILE_JOB, reconcileJob(deps));
}
