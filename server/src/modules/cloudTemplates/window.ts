import { CLOUD_WINDOW_HOURS, type ConversationWindowDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { lastInboundAt } from "./queries.js";

/**
 * The Cloud API's 24-hour customer-service window, the one rule every send path reads: the agent's
 * composer (GET /tickets/{id}/window), the public API, schedules and campaigns. On a Cloud API
 * connection a free-form message may go only within 24 hours of the customer's last message there;
 * other providers have no window.
 */
export async function conversationWindow(
  db: Executor,
  companyId: number,
  contactId: number,
  connection: { id: number; provider: string } | null,
  now: Date,
): Promise<ConversationWindowDTO> {
  if (!connection || connection.provider !== "cloud")
    return {
      applies: false,
      whatsappId: connection?.id ?? null,
      open: true,
      lastInboundAt: null,
      endsAt: null,
    };
  const last = await lastInboundAt(db, companyId, contactId, connection.id);
  const endsAt = last ? new Date(last.getTime() + CLOUD_WINDOW_HOURS * 3600_000) : null;
  return {
    applies: true,
    whatsappId: connection.id,
    open: endsAt !== null && endsAt.getTime() > now.getTime(),
    lastInboundAt: last?.toISOString() ?? null,
    endsAt: endsAt?.toISOString() ?? null,
  };
}

/** Whether only a template may go to this contact on this connection now (a Cloud API window closed). */
export async function onlyTemplateMayGo(
  db: Executor,
  companyId: number,
  contactId: number,
  connection: { id: number; provider: string } | null,
  now: Date,
): Promise<boolean> {
  const window = await conversationWindow(db, companyId, contactId, connection, now);
  return window.applies && !window.open;
}
