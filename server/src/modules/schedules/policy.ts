import { mayEditSchedule } from "@atende/contracts";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { ScheduleRow } from "./present.js";

export const schedulePolicy = {
  /** Its author edits or deletes a schedule; admin and supervisor any (the rule in contracts). */
  edit(actor: AuthContext, row: Pick<ScheduleRow, "userId">): void {
    if (!mayEditSchedule(actor, actor.userId, row)) throw new AppError("ERR_NO_PERMISSION");
  },
};
