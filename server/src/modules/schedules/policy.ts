import type { Executor } from "../../db/client.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findCompany } from "../companies/queries.js";
import type { ScheduleRow } from "./present.js";

export const schedulePolicy = {
  /** Its author edits or deletes a schedule; admin and supervisor any (schedules:editAny). */
  edit(actor: AuthContext, row: Pick<ScheduleRow, "userId">): void {
    if (row.userId !== actor.userId) authorize(actor, "schedules:editAny");
  },
};

/** Every schedules call needs the plan flag useSchedules. */
export async function requireSchedulesPlan(db: Executor, companyId: number) {
  const company = await findCompany(db, companyId);
  if (!company?.plan?.useSchedules) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
  return company.plan;
}
