import type { Executor } from "../../db/client.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { requirePlan } from "../../http/plan.js";

export const tagPolicy = {
  /** Making a tag a kanban lane, or no longer one: admin and supervisor only (tags:kanbanSwitch). */
  switchKanban(actor: AuthContext, from: 0 | 1, to: 0 | 1 | undefined): void {
    if (to !== undefined && to !== from) authorize(actor, "tags:kanbanSwitch");
  },
};

/**
 * Making a tag a kanban lane needs the plan flag useKanban (the board's routes declare it). Turning
 * it off, or saving a lane as it is, does not: a downgraded company keeps its tags and edits them.
 */
export async function requireKanbanPlanToSwitchOn(
  db: Executor,
  companyId: number,
  from: 0 | 1,
  to: 0 | 1 | undefined,
): Promise<void> {
  if (to === 1 && from !== 1) await requirePlan(db, companyId, "useKanban");
}
