import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../db/prepared.js";
import {
  messages,
  queueOptions,
  queues,
  settings,
  ticketBotStates,
  tickets,
  whatsappQueues,
  whatsapps,
} from "../../db/schema/index.js";
import { queueOrder, queueOrderSql } from "../queues/queries.js";
import { withDefaults } from "./companySettings.js";

// The chatbot's statements (what it reads before a turn, its state per ticket). Kept apart from
// chatbot/queries.ts (the bot's and the timers' writes) until the two are merged.

export type TicketRow = typeof tickets.$inferSelect;
export type ConnectionRow = typeof whatsapps.$inferSelect;
export type QueueRow = typeof queues.$inferSelect;
export type OptionRow = typeof queueOptions.$inferSelect;
export type BotState = typeof ticketBotStates.$inferSelect;

/** The company's settings with the spec's defaults for the keys never saved. */
export async function settingsOf(db: Executor, companyId: number): Promise<Record<string, string>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.companyId, companyId));
  return withDefaults(Object.fromEntries(rows.map((r) => [r.key, r.value])));
}

/**
 * Everything a bot turn reads before it decides, in one statement (a turn runs for every customer
 * message on a waiting ticket): the ticket, the message, the bot's state, the company's settings and
 * the ticket's connection's queues in menu order (orderQueue, then the unnumbered ones by id).
 * JSON columns, so a migration that adds a column cannot break a running instance's cached plan.
 */
const turnStatement = new PreparedSql<
  { companyId: number; ticketId: number; messageId: number },
  {
    ticket: Record<string, unknown>;
    message: Record<string, unknown> | null;
    state: Record<string, unknown> | null;
    settings: Record<string, string> | null;
    queues: Record<string, unknown>[] | null;
  }
>(
  "chatbot_turn_context",
  sql`select row_to_json(t) as ticket,
        (select row_to_json(m) from messages m
          where m.id = ${sql.placeholder("messageId")}::bigint and m.company_id = t.company_id) as message,
        (select row_to_json(b) from ticket_bot_states b where b.ticket_id = t.id) as state,
        (select json_object_agg(s.key, s.value) from settings s where s.company_id = t.company_id) as settings,
        (select json_agg(row_to_json(q) order by ${queueOrderSql("q")})
          from whatsapp_queues wq join queues q on q.id = wq.queue_id
          where wq.company_id = t.company_id and wq.whatsapp_id = t.whatsapp_id) as queues
      from tickets t
      where t.company_id = ${sql.placeholder("companyId")}::int and t.id = ${sql.placeholder("ticketId")}::int`,
);

export interface TurnContext {
  ticket: TicketRow;
  message: typeof messages.$inferSelect | null;
  state: BotState | null;
  settings: Record<string, string>;
  /** The ticket's connection's queues, in menu order. */
  queues: QueueRow[];
}

export async function turnContextOf(
  db: Executor,
  ids: { companyId: number; ticketId: number; messageId: number },
): Promise<TurnContext | null> {
  const [row] = await turnStatement.rows(db, ids);
  if (!row) return null;
  return {
    ticket: tableRow(tickets, row.ticket),
    message: row.message ? tableRow(messages, row.message) : null,
    state: row.state ? tableRow(ticketBotStates, row.state) : null,
    settings: withDefaults(row.settings ?? {}),
    queues: (row.queues ?? []).map((q) => tableRow(queues, q)),
  };
}

/** Every ticket.saved (each customer message) reads its connection: prepared (see PreparedSql). */
const connectionStatement = new PreparedSql<{ companyId: number; id: number }>(
  "chatbot_connection",
  sql`select ${columnList(whatsapps)} from whatsapps
      where company_id = ${sql.placeholder("companyId")}::int and id = ${sql.placeholder("id")}::int`,
);

export async function connectionOf(
  db: Executor,
  companyId: number,
  whatsappId: number | null,
): Promise<ConnectionRow | null> {
  if (whatsappId === null) return null;
  const [row] = await connectionStatement.rows(db, { companyId, id: whatsappId });
  return row ? tableRow(whatsapps, row) : null;
}

/** The connection's queues in menu order (`queueOrder`). */
export async function connectionQueues(db: Executor, companyId: number, whatsappId: number) {
  return db
    .select({ queue: queues })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, whatsappId)))
    .orderBy(...queueOrder())
    .then((rows) => rows.map((r) => r.queue));
}

/** A queue's menu options under `parentId`: the queue was read within the company (connectionQueues). */
export async function optionsUnder(db: Executor, queueId: number, parentId: number | null) {
  return db
    .select()
    .from(queueOptions)
    .where(
      and(
        eq(queueOptions.queueId, queueId),
        parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
      ),
    )
    .orderBy(asc(queueOptions.option), asc(queueOptions.id));
}

export async function saveBotState(
  tx: Executor,
  ticket: { id: number; companyId: number },
  patch: Partial<Omit<BotState, "ticketId" | "companyId">>,
  at: Date,
) {
  await tx
    .insert(ticketBotStates)
    .values({ ticketId: ticket.id, companyId: ticket.companyId, ...patch, updatedAt: at })
    .onConflictDoUpdate({ target: ticketBotStates.ticketId, set: { ...patch, updatedAt: at } });
}

/** The rating is no longer awaited (answered, given up, or the ticket reopened). */
export async function stopRatingWait(tx: Executor, companyId: number, ticketId: number, at: Date) {
  await tx
    .update(ticketBotStates)
    .set({ ratingAsks: 0, updatedAt: at })
    .where(
      and(
        eq(ticketBotStates.companyId, companyId),
        eq(ticketBotStates.ticketId, ticketId),
        sql`${ticketBotStates.ratingAsks} > 0`,
      ),
    );
}
