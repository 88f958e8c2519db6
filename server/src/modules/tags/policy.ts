import type { Executor } from "../../db/client.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findCompany } from "../companies/queries.js";

export const tagPolicy = {
  /** Making a tag a kanban lane, or no longer one: admin and supervisor only (tags:kanbanSwitch). */
  switchKanban(actor: AuthContext, from: 0 | 1, to: 0 | 1 | undefined): void {
    if (to !== undefined && to !== from) authorize(actor, "tags:kanbanSwitch");
  },
};

/** The kanban board and its moves need the plan flag useKanban. */
export async function requireKanbanPlan(db: Executor, companyId: number): Promise<void> {
  const company = await findCompany(db, companyId);
  if (!company?.plan?.useKanban) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
}
