import { mayEditSchedule } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findCompany } from "../companies/queries.js";
import type { ScheduleRow } from "./present.js";

export const schedulePolicy = {
  /** Its author edits or deletes a schedule; admin and supervisor any (the rule in contracts). */
  edit(actor: AuthContext, row: Pick<ScheduleRow, "userId">): void {
    if (!mayEditSchedule(actor, actor.userId, row)) throw new AppError("ERR_NO_PERMISSION");
  },
};

/** Every schedules call needs the plan flag useSchedules. */
export async function requireSchedulesPlan(db: Executor, companyId: number) {
  const company = await findCompany(db, companyId);
  if (!company?.plan?.useSchedules) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
  return company.plan;
}
