import type { FastifyBaseLogger } from "fastify";
import type { ConnectionCache } from "../../channels/connectionCache.js";
import type { ChannelSession } from "../../channels/provider.js";
import type { Db } from "../../db/client.js";
import { GroupCommit } from "../../db/groupCommit.js";
import type { EventBus } from "../../events/bus.js";
import type { JobRunner } from "../../jobs/runner.js";
import { CHATBOT_JOB, chatbotJob, enqueueBotSteps } from "./bot.js";
import { REJECT_CALL_JOB, enqueueCallRejection, rejectCallJob } from "./calls.js";
import { companySettings } from "../settings/queries.js";
import {
  AUTO_TRANSFER_JOB,
  EXPIRE_TICKET_JOB,
  armMissingTimers,
  armTimers,
  autoTransferJob,
  expireTicketJob,
} from "./timers.js";

/**
 * The chatbot and the automatic timers: a customer's committed message queues the bot's turn (a
 * durable job, in order per ticket, run once across instances); a ticket's change arms its timers;
 * a call, with calls disabled, is declined. `start()` (with the job runner) arms the timers of
 * tickets that have none.
 */
export function registerChatbot(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  jobs: Pick<JobRunner, "register" | "poke">;
  sessions: { session(whatsappId: number): ChannelSession | null };
  connections: ConnectionCache;
  log: FastifyBaseLogger;
}): { start(): Promise<void>; drain(): Promise<void> } {
  const { db, bus, now, jobs, sessions, connections, log } = deps;
  const poke = () => jobs.poke();
  // Customers' messages arriving together queue their bot turns in one statement (group commit).
  // The runner is poked only when a turn was queued (most messages of a desk in full swing queue none).
  const botSteps = new GroupCommit<Parameters<typeof enqueueBotSteps>[1][number], void>(async (steps) => {
    if ((await enqueueBotSteps(db, steps)) > 0) poke();
    return steps.map(() => undefined);
  });
  jobs.register(CHATBOT_JOB, chatbotJob({ db, bus, now, poke, connections }));
  jobs.register(EXPIRE_TICKET_JOB, expireTicketJob({ db, bus, now, poke }));
  jobs.register(AUTO_TRANSFER_JOB, autoTransferJob({ db, bus, now, poke }));
  jobs.register(REJECT_CALL_JOB, rejectCallJob({ db, bus, sessions, poke, log }));
  const failed = (err: unknown) =>
    log.error({ err }, "chatbot: could not queue the bot's turn, a timer or a call's refusal");
  // A bot's turn is queued without holding up the pipeline that published the message (nor the
  // provider's acknowledgement, nor the phone's HTTP answer). A ticket's turns are submitted here
  // synchronously, in publication order, so they keep their order.
  bus.on((event) => {
    if (event.type === "message.saved" && event.action === "create" && !event.message.fromMe) {
      const { ticket, message } = event;
      if (message.mediaType === "call_log") {
        // The missed call is stored either way; with calls disabled it is declined, with a word.
        if (ticket.whatsappId === null) return;
        const whatsappId = ticket.whatsappId;
        void (async () => {
          if ((await companySettings(db, event.companyId)).call !== "disabled") return;
          await enqueueCallRejection(db, {
            companyId: event.companyId,
            whatsappId,
            ticketId: ticket.id,
            messageId: message.id,
          });
          poke();
        })().catch(failed);
        return;
      }
      // The bot only serves a waiting ticket no agent took (an agent's conversation never queues a
      // turn), and a closed one whose rating it awaits (the pipeline attaches a message to a closed
      // ticket only then; the turn checks the wait again).
      const botMayAct =
        !ticket.isGroup &&
        (ticket.status === "closed" || (ticket.status === "pending" && ticket.userId === null));
      if (!botMayAct) return;
      botSteps
        .submit(event.companyId, { companyId: event.companyId, ticketId: ticket.id, messageId: message.id })
        .catch(failed);
    } else if (event.type === "ticket.saved") {
      // Awaited: a timer is armed before the next event of the same publication is heard (a job
      // that closes its ticket must not see its own stale 'open' event re-arm it once it is done).
      // The connection is cached, so this costs no query unless the connection has timers.
      return armTimers({ db, now, connections }, { ...event.ticket, companyId: event.companyId }).then(
        (armed) => void (armed && poke()),
        failed,
      );
    }
  });
  return {
    /** Waits for the bot turns being queued (at shutdown, so none is lost). */
    drain: () => botSteps.idle(),
    async start() {
      try {
        if ((await armMissingTimers(db)) > 0) poke();
      } catch (err) {
        log.error({ err }, "chatbot: could not arm the timers of existing tickets");
      }
    },
  };
}

export { CHATBOT_JOB, AUTO_TRANSFER_JOB, EXPIRE_TICKET_JOB, REJECT_CALL_JOB };
