import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession } from "../../channels/provider.js";
import type { Db } from "../../db/client.js";
import { GroupCommit } from "../../db/groupCommit.js";
import type { EventBus } from "../../events/bus.js";
import type { JobRunner } from "../../jobs/runner.js";
import { CHATBOT_JOB, chatbotJob, enqueueBotSteps } from "./bot.js";
import { REJECT_CALL_JOB, enqueueCallRejection, rejectCallJob } from "./calls.js";
import { awaitingRating, botStateOf, settingsOf } from "./context.js";
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
  log: FastifyBaseLogger;
}): { start(): Promise<void> } {
  const { db, bus, now, jobs, sessions, log } = deps;
  const poke = () => jobs.poke();
  // Customers' messages arriving together queue their bot turns in one statement (group commit).
  const botSteps = new GroupCommit<Parameters<typeof enqueueBotSteps>[1][number], void>(async (steps) => {
    await enqueueBotSteps(db, steps);
    return steps.map(() => undefined);
  });
  jobs.register(CHATBOT_JOB, chatbotJob({ db, bus, now, poke }));
  jobs.register(EXPIRE_TICKET_JOB, expireTicketJob({ db, bus, now, poke }));
  jobs.register(AUTO_TRANSFER_JOB, autoTransferJob({ db, bus, now, poke }));
  jobs.register(REJECT_CALL_JOB, rejectCallJob({ db, bus, sessions, poke, log }));
  bus.on(async (event) => {
    try {
      if (event.type === "message.saved" && event.action === "create" && !event.message.fromMe) {
        const { ticket, message } = event;
        if (message.mediaType === "call_log") {
          // The missed call is stored either way; with calls disabled it is declined, with a word.
          if (ticket.whatsappId !== null && (await settingsOf(db, event.companyId)).call === "disabled") {
            await enqueueCallRejection(db, {
              companyId: event.companyId,
              whatsappId: ticket.whatsappId,
              ticketId: ticket.id,
              messageId: message.id,
            });
            poke();
          }
        } else if (
          !ticket.isGroup &&
          (ticket.status !== "closed" || awaitingRating(await botStateOf(db, ticket.id), now()))
        ) {
          await botSteps.submit(event.companyId, {
            companyId: event.companyId,
            ticketId: ticket.id,
            messageId: message.id,
          });
          poke();
        }
      } else if (event.type === "ticket.saved") {
        if (await armTimers({ db, now }, { ...event.ticket, companyId: event.companyId })) poke();
      }
    } catch (err) {
      log.error({ err }, "chatbot: could not queue the bot's turn, a timer or a call's refusal");
    }
  });
  return {
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
