import { inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { jobs, whatsapps } from "../../db/schema/index.js";

// Across companies: the metrics are the deployment's, read by its operator, never by a tenant.

/** Jobs per type and status: waiting and running (the queue's depth) and failed for good. */
export async function jobCounts(db: Executor) {
  return db
    .select({ type: jobs.type, status: jobs.status, n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(inArray(jobs.status, ["pending", "running", "failed"]))
    .groupBy(jobs.type, jobs.status);
}

export async function connectionCounts(db: Executor) {
  return db
    .select({ status: whatsapps.status, provider: whatsapps.provider, n: sql<number>`count(*)::int` })
    .from(whatsapps)
    .groupBy(whatsapps.status, whatsapps.provider);
}
