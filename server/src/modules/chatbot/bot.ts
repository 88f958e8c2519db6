import { eq, sql } from "drizzle-orm";
import { DEFAULT_COMPANY_SETTINGS } from "@atende/contracts";
import type { ConnectionCache } from "../../channels/connectionCache.js";
import type { Db, Executor } from "../../db/client.js";
import { PreparedSql } from "../../db/prepared.js";
import { companies, queueOptions, ticketBotStates, tickets, userRatings } from "../../db/schema/index.js";
import { type EventBus, type Raise, inTransaction } from "../../events/bus.js";
import type { JobHandler } from "../../jobs/runner.js";
import { loadTicket } from "../tickets/present.js";
import {
  type ConnectionRow,
  type OptionRow,
  type QueueRow,
  type TicketRow,
  awaitingRating,
  botSays,
  type BotState,
  enabled,
  mediaOf,
  optionsUnder,
  ratingQuestion,
  saveBotState,
  stopRatingWait,
  turnContextOf,
} from "./context.js";
import { outOfHours } from "./hours.js";
import { track } from "./tracking.js";

export const CHATBOT_JOB = "chatbot-step";

export const RATING_RETRY = "Por favor, responda apenas com 1, 2 ou 3.";

export const INVALID_OPTION = "*Opção inválida!* Responda apenas com o número de uma das opções abaixo:";

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

const menuLines = (items: { n: string; title: string }[]) =>
  items.map((i) => `*[ ${i.n} ]* - ${i.title}`).join("\n");
const withMenu = (head: string, menu: string) => (head.trim() ? `${head}\n\n${menu}` : menu);

export function queuesMenu(connection: ConnectionRow, list: QueueRow[]): string {
  return withMenu(
    connection.greetingMessage,
    menuLines(list.map((q, i) => ({ n: String(i + 1), title: q.name }))),
  );
}

function optionsMenu(head: string, options: OptionRow[], nested: boolean, severalQueues: boolean) {
  const items = options.map((o) => ({ n: String(o.option), title: o.title }));
  if (nested) items.push({ n: "0", title: "Voltar" });
  if (nested || severalQueues) items.push({ n: "#", title: "Menu inicial" });
  return withMenu(head, menuLines(items));
}

/** The bot's turn on one customer message: rating answers, out of hours, the queues menu and the options tree. */
export function chatbotJob(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  poke: () => void;
  connections: Pick<ConnectionCache, "get">;
}): JobHandler<typeof CHATBOT_JOB> {
  const { db, bus, now, connections } = deps;

  return {
    async run(job) {
      const { ticketId, messageId } = job.payload;
      const companyId = job.companyId!;
      const turn = await turnContextOf(db, { companyId, ticketId, messageId });
      if (!turn) return;
      const { ticket, message, state } = turn;
      if (ticket.whatsappId === null || !message || message.fromMe) return;
      const connection = await connections.get(companyId, ticket.whatsappId);
      if (!connection) return;
      const body = message.body.trim();
      const at = now();

      // ---- A resolved ticket awaiting the customer's rating: this reply answers it.
      if (ticket.status === "closed") {
        if (!awaitingRating(state, at) || message.mediaType === "call_log") return;
        const rate = /^[1-3]$/.test(body) ? Number(body) : null;
        await inTransaction(db, bus, async (tx, raise) => {
          const [t] = await tx.select().from(tickets).where(eq(tickets.id, ticket.id)).for("update");
          // Reopened meanwhile, or another answer got there first.
          const [s] = await tx
            .select()
            .from(ticketBotStates)
            .where(eq(ticketBotStates.ticketId, ticket.id))
            .for("update");
          if (!t || t.status !== "closed" || !awaitingRating(s ?? null, at)) return;
          if (rate !== null) {
            await tx
              .insert(userRatings)
              .values({ companyId, ticketId: t.id, userId: t.userId, rate, createdAt: at })
              .onConflictDoNothing();
            await track(tx, t, { rating: rate, ratedAt: at }, at);
          } else if (s!.ratingAsks < 2) {
            await botSays(tx, raise, t, `${RATING_RETRY}\n\n${ratingQuestion(connection)}`);
            await saveBotState(tx, t, { ratingAsks: 2 }, at);
            return;
          }
          // Rated, or asked twice without a rating: the wait ends (the ticket is closed already).
          await stopRatingWait(tx, t.id, at);
          if (connection.complationMessage.trim() && !t.isGroup)
            await botSays(tx, raise, t, connection.complationMessage);
        });
        deps.poke();
        return;
      }
      const settings = turn.settings;

      // ---- The bot only serves a waiting ticket no agent took; it stops once one accepts.
      if (ticket.userId !== null || ticket.status !== "pending" || ticket.isGroup) return;
      if (message.mediaType === "call_log" || message.mediaType === "reactionMessage") return;
      const zone = settings.timezone!;
      const scheduleType = settings.scheduleType;
      const list = turn.queues;
      const queue = ticket.queueId !== null ? (list.find((q) => q.id === ticket.queueId) ?? null) : null;

      // ---- Finished with the ticket (botFinished): nothing to say, nor on the turns queued behind.
      if (
        queue !== null &&
        state?.stage === "done" &&
        scheduleType !== "company" &&
        scheduleType !== "queue"
      ) {
        await settleFinishedStatement.rows(db, { companyId, ticketId, jobId: job.id, at: at.toISOString() });
        return;
      }

      // ---- Out of hours: the company's, or the ticket's queue's hours, in the company's time zone.
      let closedPeriod: string | null = null;
      let closedText = connection.outOfHoursMessage;
      if (scheduleType === "company") {
        const [company] = await db
          .select({ schedules: companies.schedules })
          .from(companies)
          .where(eq(companies.id, companyId));
        const r = outOfHours(company?.schedules, at, zone);
        if (r.closed) closedPeriod = r.period;
      } else if (scheduleType === "queue" && queue) {
        const r = outOfHours(queue.schedules, at, zone);
        if (r.closed) {
          closedPeriod = `q${queue.id}:${r.period}`;
          closedText = queue.outOfHoursMessage || connection.outOfHoursMessage;
        }
      }
      if (closedPeriod !== null && closedText.trim()) {
        if (state?.outOfHoursKey === closedPeriod) return; // told once for this closed period
        await step(ticket, async (tx, raise, t) => {
          await botSays(tx, raise, t, closedText);
          await saveBotState(tx, t, { outOfHoursKey: closedPeriod }, at);
        });
        return;
      }

      const severalQueues = list.length > 1;
      const maxUse = connection.maxUseBotQueues;
      const mayRepeatMenu = maxUse <= 0 || ticket.amountUsedBotQueues < maxUse;

      // ---- No queue yet: the connection's greeting and the queues menu.
      if (queue === null) {
        if (list.length === 0) {
          if (!state && connection.greetingMessage.trim())
            await step(ticket, async (tx, raise, t) => {
              await botSays(tx, raise, t, connection.greetingMessage);
              await saveBotState(tx, t, { stage: "done" }, at);
            });
          return;
        }
        if (list.length === 1) return chooseQueue(ticket, connection, list[0]!, severalQueues, settings, at);
        if (state?.stage !== "menu") {
          if (!mayRepeatMenu) return;
          await step(ticket, async (tx, raise, t) => {
            await botSays(tx, raise, t, queuesMenu(connection, list));
            await tx
              .update(tickets)
              .set({ amountUsedBotQueues: t.amountUsedBotQueues + 1, chatbot: true })
              .where(eq(tickets.id, t.id));
            await saveBotState(
              tx,
              t,
              { stage: "menu", optionId: null, invalidSent: false, menuSentAt: at },
              at,
            );
          });
          return;
        }
        const n = /^\d+$/.test(body) ? Number(body) : 0;
        const chosen = n >= 1 && n <= list.length ? list[n - 1]! : null;
        if (chosen) return chooseQueue(ticket, connection, chosen, severalQueues, settings, at);
        await invalidChoice(ticket, connection, state, mayRepeatMenu, at, () =>
          menuLines(list.map((q, i) => ({ n: String(i + 1), title: q.name }))),
        );
        return;
      }

      // ---- In a queue: the first word from the bot (one queue), or the queue's options tree.
      if (!state || state.stage === null) {
        if (list.length === 1) return chooseQueue(ticket, connection, queue, severalQueues, settings, at);
        return;
      }
      if (state.stage !== "options") return;
      const current = state.optionId;
      if (body === "#") {
        if (severalQueues) return backToMainMenu(ticket, connection, list, at);
        return showOptions(ticket, queue, null, queue.greetingMessage, severalQueues, at);
      }
      if (body === "0" && current !== null) {
        const [node] = await db.select().from(queueOptions).where(eq(queueOptions.id, current));
        const parentId = node?.parentId ?? null;
        const [parent] = parentId
          ? await db.select().from(queueOptions).where(eq(queueOptions.id, parentId))
          : [];
        return showOptions(
          ticket,
          queue,
          parentId,
          parent?.message ?? queue.greetingMessage,
          severalQueues,
          at,
        );
      }
      if (body === "0" && current === null && severalQueues)
        return backToMainMenu(ticket, connection, list, at);
      const here = await optionsUnder(db, queue.id, current);
      const picked = /^\d+$/.test(body) ? here.find((o) => o.option === Number(body)) : undefined;
      if (picked) {
        const children = await optionsUnder(db, queue.id, picked.id);
        await step(ticket, async (tx, raise, t) => {
          const media = mediaOf(picked);
          if (children.length) {
            await botSays(
              tx,
              raise,
              t,
              optionsMenu(picked.message || picked.title, children, true, severalQueues),
              media,
            );
            await saveBotState(
              tx,
              t,
              { stage: "options", optionId: picked.id, invalidSent: false, menuSentAt: at },
              at,
            );
          } else {
            if (picked.message.trim() || media) await botSays(tx, raise, t, picked.message, media);
            await saveBotState(tx, t, { stage: "done", optionId: picked.id, invalidSent: false }, at);
          }
        });
        return;
      }
      await invalidChoice(ticket, connection, state, true, at, () =>
        optionsMenu("", here, current !== null, severalQueues),
      );
    },
  };

  /** Runs one bot step in a transaction, on the ticket as it is now (untouched by an agent meanwhile). */
  async function step(
    ticket: TicketRow,
    work: (
      tx: Parameters<Parameters<typeof inTransaction>[2]>[0],
      raise: Raise,
      t: TicketRow,
    ) => Promise<void>,
  ) {
    await inTransaction(db, bus, async (tx, raise) => {
      const [t] = await tx.select().from(tickets).where(eq(tickets.id, ticket.id)).for("update");
      if (!t || t.userId !== null || t.status !== "pending") return;
      await work(tx, raise, t);
    });
    deps.poke();
  }

  async function invalidChoice(
    ticket: TicketRow,
    connection: ConnectionRow,
    state: BotState,
    mayRepeat: boolean,
    at: Date,
    menu: () => string,
  ) {
    // Said once per menu; the menu comes again only after timeUseBotQueues minutes, within maxUseBotQueues.
    const waited =
      connection.timeUseBotQueues > 0 &&
      state.menuSentAt !== null &&
      at.getTime() - state.menuSentAt.getTime() >= connection.timeUseBotQueues * 60_000;
    if (state.invalidSent && !(waited && mayRepeat)) return;
    await step(ticket, async (tx, raise, t) => {
      await botSays(tx, raise, t, `${INVALID_OPTION}\n\n${menu()}`);
      if (state.invalidSent)
        await tx
          .update(tickets)
          .set({ amountUsedBotQueues: t.amountUsedBotQueues + 1 })
          .where(eq(tickets.id, t.id));
      await saveBotState(
        tx,
        t,
        { invalidSent: true, menuSentAt: state.invalidSent ? at : state.menuSentAt },
        at,
      );
    });
  }

  async function backToMainMenu(ticket: TicketRow, connection: ConnectionRow, list: QueueRow[], at: Date) {
    await step(ticket, async (tx, raise, t) => {
      await tx.update(tickets).set({ queueId: null, updatedAt: at }).where(eq(tickets.id, t.id));
      await botSays(tx, raise, t, queuesMenu(connection, list));
      await saveBotState(tx, t, { stage: "menu", optionId: null, invalidSent: false, menuSentAt: at }, at);
      raise({
        type: "ticket.saved",
        companyId: t.companyId,
        ticket: (await loadTicket(tx, t.companyId, t.id))!,
        previous: { queueId: t.queueId, userId: t.userId },
      });
    });
  }

  async function showOptions(
    ticket: TicketRow,
    queue: QueueRow,
    parentId: number | null,
    head: string,
    severalQueues: boolean,
    at: Date,
  ) {
    const options = await optionsUnder(db, queue.id, parentId);
    await step(ticket, async (tx, raise, t) => {
      await botSays(tx, raise, t, optionsMenu(head, options, parentId !== null, severalQueues));
      await saveBotState(
        tx,
        t,
        { stage: "options", optionId: parentId, invalidSent: false, menuSentAt: at },
        at,
      );
    });
  }

  /** The ticket joins the queue: its greeting (and media), its options when it has some. */
  async function chooseQueue(
    ticket: TicketRow,
    connection: ConnectionRow,
    queue: QueueRow,
    severalQueues: boolean,
    settings: Record<string, string>,
    at: Date,
  ) {
    const options = await optionsUnder(db, queue.id, null);
    const greet = severalQueues || enabled(settings, "sendGreetingMessageOneQueues");
    // Out of the queue's hours: its out-of-hours message instead of the greeting.
    let closedPeriod: string | null = null;
    if (settings.scheduleType === "queue") {
      const r = outOfHours(queue.schedules, at, settings.timezone!);
      if (r.closed && (queue.outOfHoursMessage || connection.outOfHoursMessage).trim())
        closedPeriod = `q${queue.id}:${r.period}`;
    }
    await step(ticket, async (tx, raise, t) => {
      const joined = t.queueId !== queue.id;
      if (joined)
        await tx.update(tickets).set({ queueId: queue.id, updatedAt: at }).where(eq(tickets.id, t.id));
      // Joined now, or (the connection's only queue) when the ticket was created in it.
      await track(
        tx,
        { ...t, queueId: queue.id },
        { queueId: queue.id, queuedAt: joined ? at : t.createdAt },
        at,
      );
      const joinedTicket = { ...t, queueId: queue.id };
      if (closedPeriod) {
        await botSays(tx, raise, joinedTicket, queue.outOfHoursMessage || connection.outOfHoursMessage);
        await saveBotState(tx, t, { stage: "done", outOfHoursKey: closedPeriod }, at);
      } else if (options.length) {
        const head = greet ? queue.greetingMessage : "";
        await botSays(
          tx,
          raise,
          joinedTicket,
          optionsMenu(head, options, false, severalQueues),
          mediaOf(queue),
        );
        await saveBotState(
          tx,
          t,
          { stage: "options", optionId: null, invalidSent: false, menuSentAt: at },
          at,
        );
      } else {
        const text = queue.greetingMessage;
        const media = mediaOf(queue);
        if (greet && (text.trim() || media)) await botSays(tx, raise, joinedTicket, text, media);
        await saveBotState(tx, t, { stage: "done", optionId: null, invalidSent: false }, at);
      }
      if (joined)
        raise({
          type: "ticket.saved",
          companyId: t.companyId,
          ticket: (await loadTicket(tx, t.companyId, t.id))!,
          previous: { queueId: t.queueId, userId: t.userId },
        });
    });
  }
}
