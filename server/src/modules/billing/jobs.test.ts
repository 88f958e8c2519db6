import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { jobs } from "../../db/schema/index.js";
import { JobRunner } from "../../jobs/runner.js";
import { secretBoxFor } from "../../lib/secretBox.js";
import { buildPlatformOperator } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { buildBilledCompany, daysFromToday, invoicesOf } from "../../test/billing.js";
import {
  INVOICES_EVERY_MS,
  INVOICES_JOB,
  RECONCILE_EVERY_MS,
  RECONCILE_JOB,
  armBillingJobs,
  invoicesJob,
  reconcileJob,
} from "./jobs.js";

/**
 * Billing's periodic jobs are durable jobs: armed once per time slot however many instances start,
 * run by whichever instance claims them, and each run arms the next slot.
 */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await buildPlatformOperator(ctx);
});
afterAll(() => ctx.close());

async function pending(type: string) {
  return ctx.deps.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.type, type), inArray(jobs.status, ["pending", "running"])));
}

function instance() {
  const deps = {
    ...ctx.deps,
    log: ctx.app.log,
    asaasUrl: "http://127.0.0.1:9/v3",
    secrets: secretBoxFor(ctx.deps.config),
  };
  const runner = new JobRunner({ db: ctx.deps.db, now: () => new Date(), log: ctx.app.log });
  runner.register(INVOICES_JOB, invoicesJob(deps));
  runner.register(RECONCILE_JOB, reconcileJob(deps));
  return runner;
}

describe("billing's periodic jobs", () => {
  it("three instances starting at once arm one run now and one next per job; a run opens the invoices and arms the next slot", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(6) });
    const at = new Date();
    await Promise.all([
      armBillingJobs(ctx.deps.db, at),
      armBillingJobs(ctx.deps.db, at),
      armBillingJobs(ctx.deps.db, at),
    ]);
    const slot = Math.floor(at.getTime() / INVOICES_EVERY_MS);
    expect((await pending(INVOICES_JOB)).map((j) => j.dedupeKey).sort()).toEqual(
      [`${INVOICES_JOB}:${slot}`, `${INVOICES_JOB}:${slot + 1}`].sort(),
    );
    expect(await pending(RECONCILE_JOB)).toHaveLength(2);

    const runners = [instance(), instance()];
    await Promise.all(runners.map((r) => r.runDue()));
    expect(await invoicesOf(ctx, team.company.id)).toHaveLength(1);
    // The run now is done; the next slot's is still pending, once.
    const left = await pending(INVOICES_JOB);
    expect(left.map((j) => j.dedupeKey)).toEqual([`${INVOICES_JOB}:${slot + 1}`]);
    expect(left[0]!.runAt.getTime()).toBe((slot + 1) * INVOICES_EVERY_MS);
    const reconcileSlot = Math.floor(at.getTime() / RECONCILE_EVERY_MS);
    expect((await pending(RECONCILE_JOB)).map((j) => j.dedupeKey)).toEqual([
      `${RECONCILE_JOB}:${reconcileSlot + 1}`,
    ]);
    await Promise.all(runners.map((r) => r.stop()));
  });
});
