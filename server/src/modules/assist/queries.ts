import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { messages, prompts, queues } from "../../db/schema/index.js";

/** The AI help's reads; every helper takes the caller's companyId first. */

export type AssistPromptRow = typeof prompts.$inferSelect;

/** The prompt the queue's bot uses (queues.promptId), read within the company; null when none. */
export async function queueBotPrompt(
  db: Executor,
  companyId: number,
  queueId: number,
): Promise<AssistPromptRow | null> {
  const [row] = await db
    .select({ prompt: prompts })
    .from(queues)
    .innerJoin(prompts, and(eq(prompts.id, queues.promptId), eq(prompts.companyId, companyId)))
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  return row?.prompt ?? null;
}

/** The company's prompts, oldest first (a company has a handful; 100 at most are read). */
export async function companyPrompts(db: Executor, companyId: number): Promise<AssistPromptRow[]> {
  return db
    .select()
    .from(prompts)
    .where(eq(prompts.companyId, companyId))
    .orderBy(asc(prompts.id))
    .limit(100);
}

export interface ConversationLine {
  fromMe: boolean;
  body: string;
  mediaType: string;
}

/**
 * This ticket's last `limit` messages, oldest first: never another ticket's, not even the same
 * contact's earlier ones (they may belong to another queue). Deleted messages, reactions and call
 * logs are left out.
 */
export async function lastTicketMessages(
  db: Executor,
  companyId: number,
  ticketId: number,
  limit: number,
): Promise<ConversationLine[]> {
  const rows = await db
    .select({ fromMe: messages.fromMe, body: messages.body, mediaType: messages.mediaType })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        eq(messages.isDeleted, false),
        sql`${messages.mediaType} not in ('call_log', 'reactionMessage')`,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);
  return rows.reverse();
}
