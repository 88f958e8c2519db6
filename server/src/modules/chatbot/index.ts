import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import type { EventBus } from "../../events/bus.js";
import type { JobRunner } from "../../jobs/runner.js";
import { CHATBOT_JOB, chatbotJob, enqueueBotStep } from "./bot.js";
import {
  AUTO_TRANSFER_JOB,
  EXPIRE_TICKET_JOB,
  armTimers,
  autoTransferJob,
  expireTicketJob,
} from "./timers.js";

/**
 * The chatbot and the automatic timers: a customer's committed message queues the bot's turn (a
 * durable job, in order per ticket, run once across instances); a ticket's change arms its timers.
 */
export function registerChatbot(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  jobs: Pick<JobRunner, "register" | "poke">;
  log: FastifyBaseLogger;
}): void {
  const { db, bus, now, jobs, log } = deps;
  const poke = () => jobs.poke();
  jobs.register(CHATBOT_JOB, chatbotJob({ db, bus, now, poke }));
  jobs.register(EXPIRE_TICKET_JOB, expireTicketJob({ db, bus, now, poke }));
  jobs.register(AUTO_TRANSFER_JOB, autoTransferJob({ db, bus, now, poke }));
  bus.on(async (event) => {
    try {
      if (
        event.type === "message.saved" &&
        event.action === "create" &&
        !event.message.fromMe &&
        !event.ticket.isGroup &&
        event.ticket.status !== "closed"
      ) {
        await enqueueBotStep(db, {
          companyId: event.companyId,
          ticketId: event.ticket.id,
          messageId: event.message.id,
        });
        poke();
      } else if (event.type === "ticket.saved") {
        if (await armTimers({ db, now }, { ...event.ticket, companyId: event.companyId })) poke();
      }
    } catch (err) {
      log.error({ err }, "chatbot: could not queue the bot's turn or a timer");
    }
  });
}

export { CHATBOT_JOB, AUTO_TRANSFER_JOB, EXPIRE_TICKET_JOB };
