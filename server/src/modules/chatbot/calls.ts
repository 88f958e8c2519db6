import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession } from "../../channels/provider.js";
import type { Db, Executor } from "../../db/client.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import { type JobHandler, enqueueJob } from "../../jobs/runner.js";
import { findContactRow } from "../contacts/queries.js";
import { findMessageRow } from "../messages/queries.js";
import { findTicketRow } from "../tickets/queries.js";
import { botSays } from "./botMessages.js";

export const REJECT_CALL_JOB = "call-reject";

/** What the customer reads after their call was declined (setting `call` disabled). */
export const CALLS_DISABLED_MESSAGE =
  "*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado";

/** The provider's call id kept in a missed-call message's wid ("call:<id>"). */
const CALL_WID = /^call:(.+)$/;

/**
 * Queues the refusal of the call behind a stored missed-call message: on the connection's lane,
 * since only the instance running its session can decline the call; once per call (dedupeKey).
 */
export async function enqueueCallRejection(
  db: Executor,
  m: { companyId: number; whatsappId: number; ticketId: number; messageId: number },
): Promise<void> {
  await enqueueJob(db, {
    type: REJECT_CALL_JOB,
    companyId: m.companyId,
    payload: { ticketId: m.ticketId, messageId: m.messageId },
    lane: `wa:${m.whatsappId}`,
    dedupeKey: `call-reject:${m.messageId}`,
    maxAttempts: 3,
  });
}

/**
 * Declines the call on WhatsApp and tells the customer calls are off. The missed-call message
 * stays in the ticket as it was stored. A call that could not be declined (it ended, the provider
 * cannot) still gets the message.
 */
export function rejectCallJob(deps: {
  db: Db;
  bus: EventBus;
  sessions: { session(whatsappId: number): ChannelSession | null };
  poke: () => void;
  log: FastifyBaseLogger;
}): JobHandler<typeof REJECT_CALL_JOB> {
  const { db, bus } = deps;
  return {
    async run(job) {
      const companyId = job.companyId!;
      const { ticketId, messageId } = job.payload;
      const message = await findMessageRow(db, companyId, messageId);
      const callId = message?.wid ? CALL_WID.exec(message.wid)?.[1] : undefined;
      if (!message || message.mediaType !== "call_log" || !callId || message.whatsappId === null) return;
      const contact = await findContactRow(db, companyId, message.contactId!);
      if (!contact) return;
      const session = deps.sessions.session(message.whatsappId);
      if (session) {
        try {
          await session.rejectCall(
            { number: contact.number, isGroup: contact.isGroup, lid: contact.lid ?? undefined },
            callId,
          );
        } catch (err) {
          deps.log.warn({ err, callId }, "chatbot: could not decline a call");
        }
      }
      await inTransaction(db, bus, async (tx, raise) => {
        const t = await findTicketRow(tx, companyId, ticketId);
        if (t) await botSays(tx, raise, t, CALLS_DISABLED_MESSAGE);
      });
      deps.poke();
    },
  };
}
