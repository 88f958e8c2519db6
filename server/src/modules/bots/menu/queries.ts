import { type SQL, and, asc, eq, isNull, sql } from "drizzle-orm";
import { DEFAULT_COMPANY_SETTINGS } from "@atende/contracts";
import { type Db, type Executor, queryRows } from "../../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../../db/prepared.js";
import {
  messages,
  queueOptions,
  queues,
  ticketBotStates,
  tickets,
  userRatings,
  whatsappQueues,
  whatsapps,
} from "../../../db/schema/index.js";
import { queueOrder, queueOrderSql } from "../../queues/queries.js";
import { settingsWithDefaults } from "../../settings/present.js";

/**
 * The bot's and the timers' statements. Every helper takes the companyId first, except the ones that
 * work across companies by design (the batched enqueue of turns, the startup arming of timers).
 */

export const CHATBOT_JOB = "chatbot-step";
export const EXPIRE_TICKET_JOB = "ticket-expire";
export const AUTO_TRANSFER_JOB = "ticket-auto-transfer";

/**
 * Whether the bot is done with the ticket `t` (its state `b`, left-joined) for good: a waiting ticket
 * no agent took, in one of its connection's queues, whose options tree has ended (stage 'done'),
 * when no opening hours apply and no bot serves it (modules/bots: one is running, `use_integration`,
 * or its queue has one that has not stopped on it). There a turn would read seven rows to say nothing (see chatbotJob: in
 * one of the connection's queues and stage 'done', only the out-of-hours notice can speak; in a
 * queue the connection does not serve, the bot offers the connection's queues again), and a desk in
 * full swing is exactly that: customers writing on tickets the bot has handed over.
 */
const botFinished = sql`(t.status = 'pending' and t.user_id is null and b.stage is not distinct from 'done'
        and exists (select 1 from whatsapp_queues wq
                    where wq.company_id = t.company_id and wq.whatsapp_id = t.whatsapp_id and wq.queue_id = t.queue_id)
        and coalesce((select s.value from settings s where s.company_id = t.company_id and s.key = 'scheduleType'),
                     ${DEFAULT_COMPANY_SETTINGS.scheduleType}) not in ('company', 'queue')
        and not t.use_integration
        and not exists (select 1 from queues bq where bq.id = t.queue_id
                        and (bq.integration_id is not null or bq.prompt_id is not null)
                        and not exists (select 1 from bot_sessions bs where bs.ticket_id = t.id and bs.status = 'stopped'
                                          and bs.binding in ('integration:' || bq.integration_id, 'prompt:' || bq.prompt_id))))`;

/**
 * The bot's turns on customers' messages, queued in one statement, in the list's order (a ticket's
 * turns keep their order: ids follow it), except where the bot is finished with the ticket
 * (botFinished). Anything else, including a closed ticket whose rating the bot awaits, is queued and
 * decided by the turn itself. Answers how many were queued.
 */
const enqueueStatement = new PreparedSql<{ rows: string }, { id: string }>(
  "chatbot_enqueue_steps",
  sql`insert into jobs (type, company_id, payload, run_at, order_key, dedupe_key, max_attempts)
      select ${CHATBOT_JOB}, i.company_id, jsonb_build_object('ticketId', i.ticket_id, 'messageId', i.message_id),
        'epoch'::timestamptz, 'chatbot:ticket:' || i.ticket_id, 'chatbot:message:' || i.message_id, 5
      from jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as i(idx int, company_id int, ticket_id int, message_id int)
        join tickets t on t.id = i.ticket_id and t.company_id = i.company_id
        left join ticket_bot_states b on b.ticket_id = t.id
      where not ${botFinished}
      order by i.idx
      on conflict do nothing
      returning id`,
);

/**
 * The turns still queued behind turn `jobId` on its ticket, settled without running, when the bot is
 * finished with the ticket (botFinished, checked again here): the turns the enqueue would not queue
 * now. Customers who write several messages before the bot's first turn has run (it hands the ticket
 * over) queue a turn each; one of them finds the bot finished and settles the others in one update,
 * instead of each being claimed, reading its context and finishing in turn to say nothing. They are
 * judged by the ticket as it is now, as the enqueue judges a new turn: a later change (another queue,
 * opening hours switched on) is heard on the customer's next message.
 */
const settleFinishedStatement = new PreparedSql<{
  companyId: number;
  ticketId: number;
  jobId: number;
  at: string;
}>(
  "chatbot_settle_finished",
  sql`update jobs set status = 'done', updated_at = ${sql.placeholder("at")}::timestamptz
      where type = ${CHATBOT_JOB} and status = 'pending'
        and order_key = 'chatbot:ticket:' || ${sql.placeholder("ticketId")}::int
        and id > ${sql.placeholder("jobId")}::bigint
        and exists (select 1 from tickets t left join ticket_bot_states b on b.ticket_id = t.id
                    where t.id = ${sql.placeholder("ticketId")}::int
                      and t.company_id = ${sql.placeholder("companyId")}::int and ${botFinished})`,
);

/**
 * The bot's turns on the customers' messages of a statement's own rows (`messages` and the `tickets`
 * they went to, relations with the tables' columns): the enqueue above, as a data-modifying CTE of
 * the inbound quiet statement (inbound/batchQueries.ts), so the turns commit with their messages in
 * that one statement. The same rule as the chatbot's follower (index.ts: a waiting ticket no agent
 * took, or a closed one awaiting its rating; never a group, a call or the phone's own message) and
 * as the enqueue (botFinished). Answers the jobs' ids.
 */
export function botTurnsOf(messages: SQL, ticketRows: SQL): SQL {
  return sql`insert into jobs (type, company_id, payload, run_at, order_key, dedupe_key, max_attempts)
      select ${CHATBOT_JOB}, m.company_id, jsonb_build_object('ticketId', m.ticket_id, 'messageId', m.id),
        'epoch'::timestamptz, 'chatbot:ticket:' || m.ticket_id, 'chatbot:message:' || m.id, 5
      from ${messages} m join ${ticketRows} t on t.id = m.ticket_id
        left join ticket_bot_states b on b.ticket_id = t.id
      where not m.from_me and m.media_type <> 'call_log' and not t.is_group
        and (t.status = 'closed' or (t.status = 'pending' and t.user_id is null))
        and not ${botFinished}
      order by m.id
      on conflict do nothing
      returning id`;
}

/** Each step names its company: one batch (a group commit of inbound messages) spans companies. */
export async function enqueueBotSteps(
  db: Executor,
  steps: { companyId: number; ticketId: number; messageId: number }[],
): Promise<number> {
  if (steps.length === 0) return 0;
  const rows = steps.map((m, idx) => ({
    idx,
    company_id: m.companyId,
    ticket_id: m.ticketId,
    message_id: m.messageId,
  }));
  return (await enqueueStatement.rows(db, { rows: JSON.stringify(rows) })).length;
}

export async function settleFinishedTurns(
  db: Executor,
  companyId: number,
  ticketId: number,
  jobId: number,
  at: Date,
) {
  await settleFinishedStatement.rows(db, { companyId, ticketId, jobId, at: at.toISOString() });
}

/** The ticket, locked until the transaction ends (a bot step or a timer acts on it as it is now). */
export async function lockTicket(db: Executor, companyId: number, ticketId: number) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
    .for("update");
  return row ?? null;
}

export async function updateTicketRow(
  db: Executor,
  companyId: number,
  ticketId: number,
  values: Partial<typeof tickets.$inferInsert>,
) {
  await db
    .update(tickets)
    .set(values)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
}

/** The bot's state on the ticket, locked until the transaction ends (one answer to a rating question). */
export async function lockBotState(db: Executor, companyId: number, ticketId: number) {
  const [row] = await db
    .select()
    .from(ticketBotStates)
    .where(and(eq(ticketBotStates.companyId, companyId), eq(ticketBotStates.ticketId, ticketId)))
    .for("update");
  return row ?? null;
}

/** The customer's rating of the ticket's agent; the first answer stays. */
export async function insertRating(
  db: Executor,
  companyId: number,
  rating: { ticketId: number; userId: number | null; rate: number; at: Date },
) {
  await db
    .insert(userRatings)
    .values({
      companyId,
      ticketId: rating.ticketId,
      userId: rating.userId,
      rate: rating.rate,
      createdAt: rating.at,
    })
    .onConflictDoNothing();
}

/** When the ticket's last message was written, null without messages. */
export async function lastMessageAt(db: Executor, companyId: number, ticketId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | null>`max(${messages.createdAt})` })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.ticketId, ticketId)));
  return row?.at ? new Date(row.at) : null;
}

/**
 * Arms the timers of tickets that have none, every company's at once (at startup); answers how many.
 * The jobs' unique dedupeKey keeps one per ticket however many instances run this together.
 */
export async function armMissingTimerJobs(db: Db): Promise<number> {
  const expiring = await queryRows<{ id: number }>(
    db,
    sql`insert into jobs (type, company_id, payload, run_at, dedupe_key)
        select ${EXPIRE_TICKET_JOB}, t.company_id, jsonb_build_object('ticketId', t.id),
               t.updated_at + make_interval(hours => w.expires_ticket), 'expire:' || t.id
        from tickets t
        join whatsapps w on w.id = t.whatsapp_id and w.company_id = t.company_id
        where t.status = 'open' and w.expires_ticket > 0
          and not exists (select 1 from jobs j where j.dedupe_key = 'expire:' || t.id
                            and j.status in ('pending', 'running'))
        on conflict do nothing
        returning id`,
  );
  const transferring = await queryRows<{ id: number }>(
    db,
    sql`insert into jobs (type, company_id, payload, run_at, dedupe_key)
        select ${AUTO_TRANSFER_JOB}, t.company_id,
               jsonb_build_object('ticketId', t.id, 'fromQueueId', t.queue_id),
               t.updated_at + make_interval(mins => w.time_to_transfer), 'transfer:' || t.id
        from tickets t
        join whatsapps w on w.id = t.whatsapp_id and w.company_id = t.company_id
        join queues q on q.id = w.transfer_queue_id and q.company_id = t.company_id
        where t.status = 'pending' and t.user_id is null and w.time_to_transfer > 0
          and t.queue_id is distinct from w.transfer_queue_id
          and not exists (select 1 from jobs j where j.dedupe_key = 'transfer:' || t.id
                            and j.status in ('pending', 'running'))
        on conflict do nothing
        returning id`,
  );
  return expiring.length + transferring.length;
}

// What a bot turn reads before it decides, and the bot's state per ticket.

export type TicketRow = typeof tickets.$inferSelect;
export type ConnectionRow = typeof whatsapps.$inferSelect;
export type QueueRow = typeof queues.$inferSelect;
export type OptionRow = typeof queueOptions.$inferSelect;
export type BotState = typeof ticketBotStates.$inferSelect;

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
    settings: settingsWithDefaults(row.settings ?? {}),
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
