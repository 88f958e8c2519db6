import { and, eq, sql } from "drizzle-orm";
import { DEFAULT_COMPANY_SETTINGS } from "@atende/contracts";
import { type Db, type Executor, queryRows } from "../../db/client.js";
import { PreparedSql } from "../../db/prepared.js";
import { companies, messages, ticketBotStates, tickets, userRatings } from "../../db/schema/index.js";

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
 * when no opening hours apply. There a turn would read seven rows to say nothing (see chatbotJob: in
 * one of the connection's queues and stage 'done', only the out-of-hours notice can speak; in a
 * queue the connection does not serve, the bot offers the connection's queues again), and a desk in
 * full swing is exactly that: customers writing on tickets the bot has handed over.
 */
const botFinished = sql`(t.status = 'pending' and t.user_id is null and b.stage is not distinct from 'done'
        and exists (select 1 from whatsapp_queues wq
                    where wq.company_id = t.company_id and wq.whatsapp_id = t.whatsapp_id and wq.queue_id = t.queue_id)
        and coalesce((select s.value from settings s where s.company_id = t.company_id and s.key = 'scheduleType'),
                     ${DEFAULT_COMPANY_SETTINGS.scheduleType}) not in ('company', 'queue'))`;

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

/** The company's opening hours (setting scheduleType "company"). */
export async function companyHours(db: Executor, companyId: number) {
  const [row] = await db
    .select({ schedules: companies.schedules })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.schedules;
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
