import crypto from "node:crypto";
import type { SessionManager } from "../../channels/sessions.js";
import {
  ChannelError,
  type OutboundMedia,
  type OutboundMessage,
  type OutboundTemplate,
} from "../../channels/provider.js";
import type { Db, Executor, Tx } from "../../db/client.js";
import type { EventBus, Raise } from "../../events/bus.js";
import { inTransaction } from "../../events/bus.js";
import { type JobHandler, JobFailed, RetryLater, enqueueJob } from "../../jobs/runner.js";
import type { MediaStore } from "../../storage/media.js";
import { findTicketRow } from "../tickets/queries.js";
import { loadTicket, trackAgentReply } from "../tickets/queries.js";
import { agentReplied } from "../serviceLevels/clocks.js";
import { raiseMessageSaved } from "./events.js";
import * as q from "./queries.js";

export const SEND_MESSAGE_JOB = "send-message";

/** A WhatsApp-style message id (like Baileys' own): "3EB0" and 18 upper-case hex digits. */
export function newMessageId(): string {
  return `3EB0${crypto.randomBytes(9).toString("hex").toUpperCase()}`;
}

export interface OutboundInput {
  companyId: number;
  ticketId: number;
  body: string;
  userId?: number | null;
  quotedMsgId?: number | null;
  media?: { path: string; mimetype: string; name: string } | null;
  isBot?: boolean;
  /** A copy of another message (POST /message/forward). */
  isForwarded?: boolean;
  /** A Cloud API template send (cloudTemplates module): `body` is its text as the agent sees it. */
  template?: OutboundTemplate | null;
  /** When it was written (the app clock): an agent's first reply is timed by it. */
  at?: Date;
}

function mediaTypeOf(mimetype: string): string {
  if (mimetype.startsWith("image/")) return "image";
  if (mimetype.startsWith("audio/")) return "audio";
  if (mimetype.startsWith("video/")) return "video";
  return "application";
}

/**
 * Queues an agent's (or the bot's) message: the row shows at once with ack 0, and a durable job on
 * the connection's lane sends it, in order per ticket, retried with backoff.
 */
export async function queueOutbound(tx: Executor, raise: Raise, input: OutboundInput): Promise<number> {
  const ticket = await findTicketRow(tx, input.companyId, input.ticketId);
  if (!ticket?.whatsappId) throw new Error("ticket has no connection");
  const id = await q.insertOutboundMessage(tx, input.companyId, {
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    wid: newMessageId(),
    body: input.body,
    fromMe: true,
    read: true,
    ack: 0,
    mediaType: input.media ? mediaTypeOf(input.media.mimetype) : "chat",
    mediaPath: input.media?.path,
    mediaMime: input.media?.mimetype,
    mediaName: input.media?.name,
    quotedMsgId: input.quotedMsgId ?? null,
    isBot: input.isBot ?? false,
    isForwarded: input.isForwarded ?? false,
    template: input.template ?? null,
    userId: input.userId ?? null,
    queueId: ticket.queueId,
  });
  // The ticket's timeline: an agent's first message (the bot's and automatic ones never count).
  if (!input.isBot && input.userId) {
    const at = input.at ?? new Date();
    await trackAgentReply(tx, ticket, at);
    // Its service levels: the first response met, the resolution clock paused on the customer.
    await agentReplied(tx, ticket, at);
  }
  const preview = input.body || input.media?.name || "";
  await q.setTicketPreview(tx, input.companyId, ticket.id, preview, true);
  await enqueueJob(tx, {
    type: SEND_MESSAGE_JOB,
    companyId: input.companyId,
    payload: { messageId: id },
    orderKey: `ticket:${ticket.id}`,
    lane: `wa:${ticket.whatsappId}`,
    maxAttempts: 6,
  });
  raise({
    type: "ticket.saved",
    companyId: input.companyId,
    ticket: (await loadTicket(tx, input.companyId, ticket.id))!,
  });
  await raiseMessageSaved(tx, raise, input.companyId, id, "create");
  return id;
}

/** Puts a failed message back in the queue (the message's retry action). */
export async function retryOutbound(
  tx: Tx,
  raise: Raise,
  companyId: number,
  messageId: number,
): Promise<boolean> {
  const row = await q.clearSendError(tx, companyId, messageId);
  if (!row || !row.whatsappId) return false;
  await enqueueJob(tx, {
    type: SEND_MESSAGE_JOB,
    companyId,
    payload: { messageId },
    orderKey: `ticket:${row.ticketId}`,
    lane: `wa:${row.whatsappId}`,
    maxAttempts: 6,
  });
  await raiseMessageSaved(tx, raise, companyId, messageId, "update");
  return true;
}

export function outboundMediaKind(mimetype: string, mediaType: string): OutboundMedia["kind"] {
  if (mediaType === "sticker") return "sticker";
  if (mimetype.startsWith("image/")) return "image";
  if (mimetype.startsWith("audio/")) return "audio";
  if (mimetype.startsWith("video/")) return "video";
  return "document";
}

/** The job that hands a queued message to the connection's live session. */
export function sendMessageJob(deps: {
  db: Db;
  bus: EventBus;
  sessions: SessionManager;
  media: MediaStore;
  now: () => Date;
}): JobHandler<typeof SEND_MESSAGE_JOB> {
  const { db, bus, sessions, media } = deps;
  return {
    async run(job) {
      const { messageId } = job.payload;
      const companyId = job.companyId!;
      const m = await q.findMessageRow(db, companyId, messageId);
      if (!m || m.ack > 0 || m.isDeleted || !m.whatsappId) return; // sent already, or gone
      const session = sessions.session(m.whatsappId);
      if (!session) throw new RetryLater("the connection's session is not running", 5);
      const contact = await q.contactOf(db, companyId, m.contactId!);
      if (!contact) throw new JobFailed("the contact is gone");
      const quoted = m.quotedMsgId ? await q.findMessageRow(db, companyId, m.quotedMsgId) : null;
      const data = m.mediaPath ? await media.read(companyId, m.mediaPath) : null;
      if (m.mediaPath && !data) throw new JobFailed("the media file is missing");
      const outbound: OutboundMessage = {
        id: m.wid ?? undefined,
        to: { number: contact.number, isGroup: contact.isGroup, lid: contact.lid ?? undefined },
        body: m.body,
        quotedId: quoted?.wid ?? undefined,
        quoted: quoted?.wid ? { id: quoted.wid, fromMe: quoted.fromMe, body: quoted.body } : undefined,
        template: m.template ?? undefined,
        media: data
          ? {
              kind: outboundMediaKind(m.mediaMime ?? "", m.mediaType),
              mimetype: m.mediaMime ?? "application/octet-stream",
              filename: m.mediaName ?? "file",
              data,
              voiceNote: m.mediaType === "audio",
            }
          : undefined,
      };
      try {
        const sent = await session.send(outbound);
        await inTransaction(db, bus, async (tx, raise) => {
          await q.markSent(tx, companyId, m.id, sent.id, deps.now());
          await raiseMessageSaved(tx, raise, companyId, m.id, "update");
        });
      } catch (err) {
        if (err instanceof ChannelError) {
          if (!err.retryable) throw new JobFailed(`${err.code}: ${err.message}`);
          throw new RetryLater(err.message, err.retryAfterSeconds);
        }
        throw err;
      }
    },
    async onFailed(job, error) {
      const { messageId } = job.payload;
      await inTransaction(db, bus, async (tx, raise) => {
        await q.updateMessage(tx, job.companyId!, messageId, {
          sendError: error.message.slice(0, 500),
          updatedAt: deps.now(),
        });
        await raiseMessageSaved(tx, raise, job.companyId!, messageId, "update");
      });
    },
  };
}
