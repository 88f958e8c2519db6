import type { ConnectionCache } from "../../../channels/connectionCache.js";
import type { Db } from "../../../db/client.js";
import { type EventBus, type Raise, inTransaction } from "../../../events/bus.js";
import type { JobHandler } from "../../../jobs/runner.js";
import { findOptionRow } from "../../queues/queries.js";
import { loadTicket, track } from "../../tickets/queries.js";
import { awaitingRating, ratingQuestion } from "../../tickets/rating.js";
import { botSays, mediaOf } from "./botMessages.js";
import { enabled } from "../../settings/present.js";
import { companyHours } from "../../settings/queries.js";
import {
  type BotState,
  type ConnectionRow,
  type QueueRow,
  type TicketRow,
  type TurnContext,
  optionsUnder,
  saveBotState,
  stopRatingWait,
  turnContextOf,
} from "./queries.js";
import { outOfHours } from "./hours.js";
import {
  INVALID_OPTION,
  type MenuStyle,
  RATING_RETRY,
  menuStyleOf,
  optionsMenu,
  queuesMenu,
} from "./menuText.js";

export { INVALID_OPTION, RATING_RETRY } from "./menuText.js";
import * as q from "./queries.js";
import type { CHATBOT_JOB } from "./queries.js";

export { CHATBOT_JOB, enqueueBotSteps } from "./queries.js";

/**
 * What the menu asks of the external bots before it answers (bots/runtime's runner, handed in when
 * the app is put together): true when a bot serves the ticket, and the menu stays silent.
 */
export interface BotTurns {
  turn(turn: TurnContext, connection: ConnectionRow): Promise<boolean>;
}

/** The bot's turn on one customer message: rating answers, out of hours, the queues menu and the options tree. */
export function chatbotJob(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  poke: () => void;
  connections: Pick<ConnectionCache, "get">;
  /** The integrations and AI prompts (modules/bots): they serve a ticket before the queue menu. */
  bots?: BotTurns;
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
          const t = await q.lockTicket(tx, companyId, ticket.id);
          // Reopened meanwhile, or another answer got there first.
          const s = await q.lockBotState(tx, companyId, ticket.id);
          if (!t || t.status !== "closed" || !awaitingRating(s, at)) return;
          if (rate !== null) {
            await q.insertRating(tx, companyId, { ticketId: t.id, userId: t.userId, rate, at });
            await track(tx, t, { rating: rate, ratedAt: at }, at);
          } else if (s!.ratingAsks < 2) {
            await botSays(tx, raise, t, `${RATING_RETRY}\n\n${ratingQuestion(connection)}`);
            await saveBotState(tx, t, { ratingAsks: 2 }, at);
            return;
          }
          // Rated, or asked twice without a rating: the wait ends (the ticket is closed already).
          await stopRatingWait(tx, t.companyId, t.id, at);
          if (connection.complationMessage.trim() && !t.isGroup)
            await botSays(tx, raise, t, connection.complationMessage);
        });
        deps.poke();
        return;
      }
      const settings = turn.settings;
      const style = menuStyleOf(settings);

      // ---- The bot only serves a waiting ticket no agent took; it stops once one accepts.
      if (ticket.userId !== null || ticket.status !== "pending" || ticket.isGroup) return;
      if (message.mediaType === "call_log" || message.mediaType === "reactionMessage") return;
      const zone = settings.timezone!;
      const scheduleType = settings.scheduleType;
      const list = turn.queues;
      const queue = ticket.queueId !== null ? (list.find((q) => q.id === ticket.queueId) ?? null) : null;

      // ---- A bot (the queue's once chosen, else the connection's) serves the ticket until it hands
      // over: before the menus and the opening hours (a bot answers at any hour).
      if (deps.bots && (await deps.bots.turn(turn, connection))) return;

      // ---- Finished with the ticket (botFinished): nothing to say, nor on the turns queued behind.
      if (
        queue !== null &&
        state?.stage === "done" &&
        scheduleType !== "company" &&
        scheduleType !== "queue"
      ) {
        await q.settleFinishedTurns(db, companyId, ticketId, job.id, at);
        return;
      }

      // ---- Out of hours: the company's, or the ticket's queue's hours, in the company's time zone.
      let closedPeriod: string | null = null;
      let closedText = connection.outOfHoursMessage;
      if (scheduleType === "company") {
        const r = outOfHours(await companyHours(db, companyId), at, zone);
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
            await botSays(tx, raise, t, queuesMenu(connection, list, style));
            await q.updateTicketRow(tx, t.companyId, t.id, {
              amountUsedBotQueues: t.amountUsedBotQueues + 1,
              chatbot: true,
            });
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
          style(list.map((q, i) => ({ n: String(i + 1), title: q.name }))),
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
        if (severalQueues) return backToMainMenu(ticket, connection, list, style, at);
        return showOptions(ticket, queue, null, queue.greetingMessage, severalQueues, style, at);
      }
      if (body === "0" && current !== null) {
        const node = await findOptionRow(db, companyId, current);
        const parentId = node?.parentId ?? null;
        const parent = parentId ? await findOptionRow(db, companyId, parentId) : null;
        return showOptions(
          ticket,
          queue,
          parentId,
          parent?.message ?? queue.greetingMessage,
          severalQueues,
          style,
          at,
        );
      }
      if (body === "0" && current === null && severalQueues)
        return backToMainMenu(ticket, connection, list, style, at);
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
              optionsMenu(picked.message || picked.title, children, true, severalQueues, style),
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
        optionsMenu("", here, current !== null, severalQueues, style),
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
      const t = await q.lockTicket(tx, ticket.companyId, ticket.id);
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
        await q.updateTicketRow(tx, t.companyId, t.id, { amountUsedBotQueues: t.amountUsedBotQueues + 1 });
      await saveBotState(
        tx,
        t,
        { invalidSent: true, menuSentAt: state.invalidSent ? at : state.menuSentAt },
        at,
      );
    });
  }

  async function backToMainMenu(
    ticket: TicketRow,
    connection: ConnectionRow,
    list: QueueRow[],
    style: MenuStyle,
    at: Date,
  ) {
    await step(ticket, async (tx, raise, t) => {
      await q.updateTicketRow(tx, t.companyId, t.id, { queueId: null, updatedAt: at });
      await botSays(tx, raise, t, queuesMenu(connection, list, style));
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
    style: MenuStyle,
    at: Date,
  ) {
    const options = await optionsUnder(db, queue.id, parentId);
    await step(ticket, async (tx, raise, t) => {
      await botSays(tx, raise, t, optionsMenu(head, options, parentId !== null, severalQueues, style));
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
      if (joined) await q.updateTicketRow(tx, t.companyId, t.id, { queueId: queue.id, updatedAt: at });
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
          optionsMenu(head, options, false, severalQueues, menuStyleOf(settings)),
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
