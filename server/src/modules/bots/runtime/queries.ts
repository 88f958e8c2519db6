import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../../db/prepared.js";
import {
  aiTokenUsage,
  botSessions,
  companies,
  contacts,
  messages,
  prompts,
  queueIntegrations,
  queues,
  tickets,
  users,
} from "../../../db/schema/index.js";

/** The bots' statements; every helper takes the companyId first. */

export type BotSessionRow = typeof botSessions.$inferSelect;
export type IntegrationRow = typeof queueIntegrations.$inferSelect;
export type PromptRow = typeof prompts.$inferSelect;

export async function findIntegrationRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)));
  return row ?? null;
}

export async function findPromptRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)));
  return row ?? null;
}

/** A queue's bots (null when the queue is not the company's). */
export async function queueBots(db: Executor, companyId: number, queueId: number) {
  const [row] = await db
    .select({ id: queues.id, integrationId: queues.integrationId, promptId: queues.promptId })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  return row ?? null;
}

export async function queueExists(db: Executor, companyId: number, queueId: number) {
  return (await queueBots(db, companyId, queueId)) !== null;
}

export async function userExists(db: Executor, companyId: number, userId: number) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return Boolean(row);
}

export async function findSession(db: Executor, companyId: number, ticketId: number) {
  const [row] = await db
    .select()
    .from(botSessions)
    .where(and(eq(botSessions.companyId, companyId), eq(botSessions.ticketId, ticketId)));
  return row ?? null;
}

/**
 * The ticket's bot session, locked until the transaction ends (one turn claims it at a time).
 * This and the two reads below run in every bot turn's claim, so they are prepared.
 */
const lockSessionStatement = new PreparedSql<{ companyId: number; ticketId: number }>(
  "bot_session_lock",
  sql`select ${columnList(botSessions)} from bot_sessions
      where company_id = ${sql.placeholder("companyId")}::int and ticket_id = ${sql.placeholder("ticketId")}::int
      for update`,
);

export async function lockSession(db: Executor, companyId: number, ticketId: number) {
  const [raw] = await lockSessionStatement.rows(db, { companyId, ticketId });
  return raw ? tableRow(botSessions, raw) : null;
}

export async function saveSession(
  db: Executor,
  companyId: number,
  ticketId: number,
  values: Partial<Omit<BotSessionRow, "ticketId" | "companyId">> & { binding: string },
) {
  await db
    .insert(botSessions)
    .values({ ticketId, companyId, ...values })
    .onConflictDoUpdate({ target: botSessions.ticketId, set: values });
}

export async function updateSession(
  db: Executor,
  companyId: number,
  ticketId: number,
  values: Partial<Omit<BotSessionRow, "ticketId" | "companyId">>,
) {
  await db
    .update(botSessions)
    .set(values)
    .where(and(eq(botSessions.companyId, companyId), eq(botSessions.ticketId, ticketId)));
}

/** The customer's messages on the ticket after message `afterId`, oldest first (what a turn joins). */
const customerMessagesAfterStatement = new PreparedSql<{
  companyId: number;
  ticketId: number;
  afterId: number;
}>(
  "bot_customer_messages_after",
  sql`select ${columnList(messages)} from messages
      where company_id = ${sql.placeholder("companyId")}::int and ticket_id = ${sql.placeholder("ticketId")}::int
        and from_me = false and id > ${sql.placeholder("afterId")}::bigint
        and media_type not in ('call_log', 'reactionMessage')
      order by id
      limit 50`,
);

export async function customerMessagesAfter(
  db: Executor,
  companyId: number,
  ticketId: number,
  afterId: number,
) {
  const rows = await customerMessagesAfterStatement.rows(db, { companyId, ticketId, afterId });
  return rows.map((raw) => tableRow(messages, raw));
}

/** Whether an agent (not the bot) wrote on the ticket since `since`. */
const agentWroteSinceStatement = new PreparedSql<{ companyId: number; ticketId: number; since: string }>(
  "bot_agent_wrote_since",
  sql`select 1 as found from messages
      where company_id = ${sql.placeholder("companyId")}::int and ticket_id = ${sql.placeholder("ticketId")}::int
        and from_me = true and is_bot = false and user_id is not null
        and created_at >= ${sql.placeholder("since")}::timestamptz
      limit 1`,
);

export async function agentWroteSince(db: Executor, companyId: number, ticketId: number, since: Date) {
  const rows = await agentWroteSinceStatement.rows(db, { companyId, ticketId, since: since.toISOString() });
  return rows.length > 0;
}

/** The ticket's last `limit` messages before message `beforeId`, oldest first. */
export async function historyBefore(
  db: Executor,
  companyId: number,
  ticketId: number,
  beforeId: number,
  limit: number,
) {
  if (limit <= 0) return [];
  const rows = await db
    .select({ id: messages.id, fromMe: messages.fromMe, body: messages.body })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        lt(messages.id, beforeId),
        eq(messages.isDeleted, false),
        sql`${messages.mediaType} not in ('call_log', 'reactionMessage')`,
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit);
  return rows.reverse();
}

/** Who the bot talks with: the ticket's contact and the company's name. */
export async function partiesOf(db: Executor, companyId: number, ticketId: number) {
  const [row] = await db
    .select({
      uuid: tickets.uuid,
      contactId: contacts.id,
      contactName: contacts.name,
      contactNumber: contacts.number,
      companyName: companies.name,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
  return row ?? null;
}

/** An AI answer's tokens: on the prompt (its totals) and the company's day (what the provider bills). */
export async function recordTokens(
  db: Executor,
  companyId: number,
  promptId: number,
  usage: { promptTokens: number; completionTokens: number; totalTokens: number },
  at: Date,
) {
  await db
    .update(prompts)
    .set({
      promptTokens: sql`${prompts.promptTokens} + ${usage.promptTokens}`,
      completionTokens: sql`${prompts.completionTokens} + ${usage.completionTokens}`,
      totalTokens: sql`${prompts.totalTokens} + ${usage.totalTokens}`,
    })
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId)));
  await db
    .insert(aiTokenUsage)
    .values({ companyId, day: at.toISOString().slice(0, 10), ...usage, requests: 1 })
    .onConflictDoUpdate({
      target: [aiTokenUsage.companyId, aiTokenUsage.day],
      set: {
        promptTokens: sql`${aiTokenUsage.promptTokens} + ${usage.promptTokens}`,
        completionTokens: sql`${aiTokenUsage.completionTokens} + ${usage.completionTokens}`,
        totalTokens: sql`${aiTokenUsage.totalTokens} + ${usage.totalTokens}`,
        requests: sql`${aiTokenUsage.requests} + 1`,
      },
    });
}

/**
 * The ticket left the bot (an agent accepted it): its active session stops for good and the ticket
 * no longer shows a bot. Answers whether one was active.
 */
export async function stopActiveSession(
  db: Executor,
  companyId: number,
  ticketId: number,
  reason: string,
  at: Date,
): Promise<boolean> {
  const stopped = await db
    .update(botSessions)
    .set({
      status: "stopped",
      stopReason: reason,
      choices: null,
      version: sql`${botSessions.version} + 1`,
      updatedAt: at,
    })
    .where(
      and(
        eq(botSessions.companyId, companyId),
        eq(botSessions.ticketId, ticketId),
        eq(botSessions.status, "active"),
      ),
    )
    .returning({ ticketId: botSessions.ticketId });
  if (stopped.length === 0) return false;
  await db
    .update(tickets)
    .set({ useIntegration: false, integrationId: null, promptId: null })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
  return true;
}
