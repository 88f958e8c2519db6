import type { PlanFlag } from "@atende/contracts";
import type { Executor } from "../db/client.js";
import { AppError } from "./errors.js";
import { findPlanFlags } from "./queries.js";

/**
 * Plan gates. A route of a gated feature declares `plan: "useKanban"` (http/route.ts) and the route
 * guard calls `requirePlan` before its handler; a body field gated by a flag (a tag's `kanban`, a
 * queue's `promptId`...) is checked by its service with the same call. The flags are read on every
 * call, never cached, so a downgrade applies to the very next request. The caller's own company
 * decides, the super user's too (its plan is the seed's, with every flag).
 */
export async function planAllows(db: Executor, companyId: number, flag: PlanFlag): Promise<boolean> {
  return (await findPlanFlags(db, companyId))?.[flag] === true;
}

/** 403 ERR_PLAN_FEATURE_DISABLED unless the company's plan has `flag`. */
export async function requirePlan(db: Executor, companyId: number, flag: PlanFlag): Promise<void> {
  if (!(await planAllows(db, companyId, flag))) throw new AppError("ERR_PLAN_FEATURE_DISABLED");
}

/**
 * A reference a body sets to a gated feature's row (a prompt, an integration): refused without the
 * flag when it names one that is not already stored. Clearing it (null) or saving the stored value
 * again is always allowed, so a downgraded company keeps its data and can still save its forms.
 */
export async function requirePlanForReference(
  db: Executor,
  companyId: number,
  flag: PlanFlag,
  next: number | boolean | null | undefined,
  stored: number | boolean | null | undefined,
): Promise<void> {
  if (next === undefined || next === null || next === false || next === stored) return;
  await requirePlan(db, companyId, flag);
}

/** The fields by which a queue, a connection or a ticket points at a prompt or an integration. */
interface GatedLinks {
  promptId?: number | null;
  integrationId?: number | null;
  useIntegration?: boolean;
}

/**
 * A queue, connection or ticket pointing at a prompt needs useOpenAi; at an integration (or a ticket
 * switching `useIntegration` on), useIntegrations. `stored` is the row before the change (none on a
 * creation): what it already points at may be saved again.
 */
export async function requirePlanForLinks(
  db: Executor,
  companyId: number,
  next: GatedLinks,
  stored: GatedLinks = {},
): Promise<void> {
  await requirePlanForReference(db, companyId, "useOpenAi", next.promptId, stored.promptId);
  await requirePlanForReference(db, companyId, "useIntegrations", next.integrationId, stored.integrationId);
  await requirePlanForReference(db, companyId, "useIntegrations", next.useIntegration, stored.useIntegration);
}
