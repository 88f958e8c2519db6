import type { FastifyBaseLogger } from "fastify";
import type { ConnectionCache } from "../../../channels/connectionCache.js";
import type { Db, Executor } from "../../../db/client.js";
import type { DomainEvent, EventBus, Follower } from "../../../events/bus.js";
import type { JobRunner } from "../../../jobs/runner.js";
import { type BotTurns, CHATBOT_JOB, chatbotJob, enqueueBotSteps } from "./bot.js";
import { saveBotState, stopRatingWait } from "./queries.js";
import {
  AUTO_TRANSFER_JOB,
  EXPIRE_TICKET_JOB,
  armMissingTimers,
  armTimers,
  noTimersDue,
  autoTransferJob,
  expireTicketJob,
} from "./timers.js";

export interface Chatbot {
  /**
   * In the transaction that stores a customer's message: queues the bot's turn, so a message committed is never left unanswered by a crash right after the commit.
   */
  within: Follower;
  /** After a ticket's change commits: arms its timers (armed again at start if this is lost). */
  heard(event: DomainEvent): Promise<void> | void;
  /** Arms the timers of tickets that have none, when the background work starts. */
  start(): Promise<void>;
}

/**
 * The chatbot and the automatic timers: a customer's message queues the bot's turn (a durable job,
 * in order per ticket, run once across instances); a ticket's change arms its timers. Its jobs are registered here; listeners.ts wires `within`
 * and `heard` to the bus.
 */
export function createChatbot(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  jobs: Pick<JobRunner, "register" | "poke">;
  connections: ConnectionCache;
  log: FastifyBaseLogger;
  /** The integrations and AI prompts that serve a waiting ticket before the queue menu. */
  bots?: BotTurns;
}): Chatbot {
  const { db, bus, now, jobs, connections, log } = deps;
  const poke = () => jobs.poke();
  registerMenuJobs(jobs, { db, bus, now, poke, connections, bots: deps.bots });

  /**
   * A ticket command's rating question (on resolve) awaits the customer's answer; a ticket that
   * closes without one, or reopens, awaits none any more.
   */
  async function followRating(tx: Executor, event: Extract<DomainEvent, { type: "ticket.saved" }>) {
    const { ticket, previous } = event;
    const target = { id: ticket.id, companyId: event.companyId };
    if (event.automaticMessage?.asksRating) await saveBotState(tx, target, { ratingAsks: 1 }, now());
    else if (previous?.status && (previous.status === "closed") !== (ticket.status === "closed"))
      await stopRatingWait(tx, event.companyId, ticket.id, now());
  }

  return {
    async within(tx, events) {
      // The turns of a batch of customers' messages are queued in one statement, in publication
      // order (a ticket's turns keep their order). The runner is poked only when one was queued
      // (most messages of a desk in full swing queue none).
      const steps: Parameters<typeof enqueueBotSteps>[1] = [];
      let queued = false;
      for (const event of events) {
        if (event.type === "ticket.saved") {
          await followRating(tx, event);
          continue;
        }
        if (event.type !== "message.saved" || event.action !== "create" || event.message.fromMe) continue;
        // Its turn was queued by the statement that stored it (inbound's quiet statement: botTurnsOf).
        if (event.turnQueued) continue;
        const { ticket, message } = event;
        // A missed call is not the bot's: calls.ts declines it when calls are disabled.
        if (message.mediaType === "call_log") continue;
        // The bot only serves a waiting ticket no agent took (an agent's conversation never queues a
        // turn), and a closed one whose rating it awaits (the pipeline attaches a message to a closed
        // ticket only then; the turn checks the wait again).
        const botMayAct =
          !ticket.isGroup &&
          (ticket.status === "closed" || (ticket.status === "pending" && ticket.userId === null));
        if (botMayAct) steps.push({ companyId: event.companyId, ticketId: ticket.id, messageId: message.id });
      }
      if (steps.length > 0 && (await enqueueBotSteps(tx, steps)) > 0) queued = true;
      return queued ? poke : undefined;
    },
    heard(event) {
      if (event.type !== "ticket.saved") return;
      // Most tickets call for no timer, and their connection is cached: decided here, no promise.
      if (noTimersDue(connections, { ...event.ticket, companyId: event.companyId })) return;
      // Awaited: a timer is armed before the next event of the same publication is heard (a job
      // that closes its ticket must not see its own stale 'open' event re-arm it once it is done).
      // The connection is cached, so this costs no query unless the connection has timers.
      return armTimers({ db, now, connections }, { ...event.ticket, companyId: event.companyId }).then(
        (armed) => void (armed && poke()),
        (err: unknown) =>
          log.error({ err, ticketId: event.ticket.id }, "chatbot: could not arm a ticket's timers"),
      );
    },
    async start() {
      try {
        if ((await armMissingTimers(db)) > 0) poke();
      } catch (err) {
        log.error({ err }, "chatbot: could not arm the timers of existing tickets");
      }
    },
  };
}

export { CHATBOT_JOB, AUTO_TRANSFER_JOB, EXPIRE_TICKET_JOB };

/** The queue menu's durable jobs: the bot's turn on a customer's message, auto-close, auto-transfer. */
export function registerMenuJobs(
  jobs: Pick<JobRunner, "register">,
  deps: Parameters<typeof chatbotJob>[0] & Parameters<typeof expireTicketJob>[0],
) {
  jobs.register(CHATBOT_JOB, chatbotJob(deps));
  jobs.register(EXPIRE_TICKET_JOB, expireTicketJob(deps));
  jobs.register(AUTO_TRANSFER_JOB, autoTransferJob(deps));
}
