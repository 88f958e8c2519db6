import type { FastifyBaseLogger } from "fastify";
import type { ChannelSession } from "../../channels/provider.js";
import type { Db, Executor } from "../../db/client.js";
import { type EventBus, type Follower, inTransaction } from "../../events/bus.js";
import { type JobHandler, enqueueJob } from "../../jobs/runner.js";
import { findContactRow } from "../contacts/queries.js";
import { companySettings } from "../settings/queries.js";
import { findMessageRow } from "../messages/queries.js";
import { findTicketRow } from "../tickets/queries.js";
import { botSays } from "../bots/menu/botMessages.js";

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
 * In the transaction that stores a customer's missed call: with calls disabled (setting `call`),
 * queues its refusal, so a call stored is declined even if this instance stops right after the
 * commit. The missed call stays in the ticket either way.
 */
export function callsWithin(poke: () => void): Follower {
  return async (tx, events) => {
    let queued = false;
    for (const event of events) {
      if (event.type !== "message.saved" || event.action !== "create" || event.message.fromMe) continue;
      const { ticket, message } = event;
      if (message.mediaType !== "call_log" || ticket.whatsappId === null) continue;
      if ((await companySettings(tx, event.companyId)).call !== "disabled") continue;
      await enqueueCallRejection(tx, {
        companyId: event.companyId,
        whatsappId: ticket.whatsappId,
        ticketId: ticket.id,
        messageId: message.id,
      });
      queued = true;
    }
    return queued ? poke : undefined;
  };
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
          deps.log.warn({ err, callId }, "inbound: could not decline a call");
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
