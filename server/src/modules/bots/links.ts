import type { Executor } from "../../db/client.js";
import { AppError } from "../../http/errors.js";
import { findPrompt } from "./prompts/queries.js";
import { findIntegrationRow } from "./integrations/queries.js";

/**
 * A queue or a connection may point only at its own company's integration and prompt: another
 * company's (or a missing) one answers 404 as if it did not exist. Checked after the plan gate
 * (requirePlanForLinks), on every save that names one.
 */
export async function requireOwnBotLinks(
  db: Executor,
  companyId: number,
  next: { integrationId?: number | null; promptId?: number | null },
): Promise<void> {
  if (next.integrationId != null && !(await findIntegrationRow(db, companyId, next.integrationId)))
    throw new AppError("ERR_NO_QUEUE_INTEGRATION_FOUND");
  if (next.promptId != null && !(await findPrompt(db, companyId, next.promptId)))
    throw new AppError("ERR_NO_PROMPT_FOUND");
}
