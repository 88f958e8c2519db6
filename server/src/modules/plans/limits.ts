import type { ErrorCode } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { AppError } from "../../http/errors.js";
import { lockCompany, planOfCompany } from "./queries.js";

/**
 * The plan's limits and the code each answers when reached (403). `campaigns` is the seam for the
 * campaigns module: its create calls `requirePlanRoom(tx, companyId, "campaigns", count)` as the
 * others do.
 */
export const PLAN_LIMIT_ERRORS = {
  users: "ERR_PLAN_USER_LIMIT",
  connections: "ERR_PLAN_CONNECTION_LIMIT",
  queues: "ERR_PLAN_QUEUE_LIMIT",
  campaigns: "ERR_PLAN_CAMPAIGN_LIMIT",
  schedules: "ERR_PLAN_SCHEDULE_LIMIT",
} as const satisfies Record<string, ErrorCode>;
export type PlanLimit = keyof typeof PLAN_LIMIT_ERRORS;

/**
 * Inside the transaction that creates one more `limit` row: locks the company's row (a second
 * creation waits here until the first commits, then counts it) and refuses with the limit's code
 * when `count()` already reaches the plan's limit. 0, or no plan, is no limit. The count is of what
 * exists now, so a downgrade keeps every row and refuses only new ones past the new limit.
 */
export async function requirePlanRoom(
  tx: Executor,
  companyId: number,
  limit: PlanLimit,
  count: () => Promise<number>,
): Promise<void> {
  await lockCompany(tx, companyId);
  const max = (await planOfCompany(tx, companyId))?.[limit] ?? 0;
  if (max > 0 && (await count()) >= max) throw new AppError(PLAN_LIMIT_ERRORS[limit]);
}
