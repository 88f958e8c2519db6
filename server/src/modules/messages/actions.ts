import type { SessionManager } from "../../channels/sessions.js";
import { ChannelError } from "../../channels/provider.js";
import type { Db, Executor } from "../../db/client.js";
import { type JobHandler, JobFailed, RetryLater, enqueueJob } from "../../jobs/runner.js";
import { findTicketRow } from "../tickets/queries.js";
import { contactOf, findMessageRow } from "./queries.js";

export const CHANNEL_ACTION_JOB = "channel-action";

/** What an agent does to messages on WhatsApp besides sending: read receipts, reactions, edits, deletes. */
export type ChannelAction =
  | { action: "markRead"; wids: string[] }
  | { action: "react"; messageId: number; emoji: string }
  | { action: "edit"; messageId: number; body: string }
  | { action: "delete"; messageId: number }
  | { action: "typing" }
  | { action: "watchPresence" };

/**
 * Queued on the connection's lane (only the session's owner runs it) and on the ticket's order key,
 * so a reaction to a message just sent waits for that send.
 */
export async function enqueueChannelAction(
  db: Executor,
  target: { companyId: number; ticketId: number; whatsappId: number } & ChannelAction,
) {
  const { companyId, ticketId, whatsappId, ...action } = target;
  await enqueueJob(db, {
    type: CHANNEL_ACTION_JOB,
    companyId,
    payload: { ticketId, ...action },
    orderKey: `ticket:${ticketId}`,
    lane: `wa:${whatsappId}`,
    maxAttempts: 4,
  });
}

/**
 * "typing…" shown to the customer before a bot's reply: on the ticket's order key, so it shows after
 * the replies queued before it; tried once (a late one is worth nothing).
 */
export async function enqueueTyping(
  db: Executor,
  target: { companyId: number; ticketId: number; whatsappId: number },
) {
  await enqueueJob(db, {
    type: CHANNEL_ACTION_JOB,
    companyId: target.companyId,
    payload: { ticketId: target.ticketId, action: "typing" },
    orderKey: `ticket:${target.ticketId}`,
    lane: `wa:${target.whatsappId}`,
    maxAttempts: 1,
  });
}

/**
 * An agent opened the chat: ask WhatsApp for the customer's presence, so their "typing…" shows in
 * the chat header (WhatsApp Web does the same on opening a chat). Not behind the ticket's sends, tried
 * once, and one pending per ticket however often the chat is opened.
 */
export async function enqueuePresenceWatch(
  db: Executor,
  target: { companyId: number; ticketId: number; whatsappId: number },
) {
  await enqueueJob(db, {
    type: CHANNEL_ACTION_JOB,
    companyId: target.companyId,
    payload: { ticketId: target.ticketId, action: "watchPresence" },
    lane: `wa:${target.whatsappId}`,
    dedupeKey: `presence:${target.ticketId}`,
    maxAttempts: 1,
  });
}

export function channelActionJob(deps: {
  db: Db;
  sessions: SessionManager;
}): JobHandler<typeof CHANNEL_ACTION_JOB> {
  return {
    async run(job) {
      const { payload } = job;
      const companyId = job.companyId!;
      const ticket = await findTicketRow(deps.db, companyId, payload.ticketId);
      if (!ticket?.whatsappId) return;
      const session = deps.sessions.session(ticket.whatsappId);
      if (!session) throw new RetryLater("the connection's session is not running", 5);
      const contact = await contactOf(deps.db, companyId, ticket.contactId);
      if (!contact) return;
      const to = { number: contact.number, isGroup: contact.isGroup, lid: contact.lid ?? undefined };
      /**
       * The message on WhatsApp, or null when it never got there. An agent's message has its wid
       * from the moment it is queued, so "sent" is its ack: this job runs after the ticket's sends
       * (same order key), and one still at ack 0 failed, or was deleted before it went out.
       */
      const target = async (messageId: number) => {
        const m = await findMessageRow(deps.db, companyId, messageId);
        if (!m?.wid || (m.fromMe && m.ack === 0)) return null;
        return { ...m, wid: m.wid };
      };
      try {
        switch (payload.action) {
          case "markRead":
            return await session.markRead(to, payload.wids);
          case "react": {
            const m = await target(payload.messageId);
            if (!m) throw new JobFailed("the message was never sent");
            return await session.react(to, m.wid, m.fromMe, payload.emoji);
          }
          case "edit": {
            // Never sent: nothing to change on WhatsApp (a pending send carries the new text itself).
            const m = await target(payload.messageId);
            return m ? await session.edit(to, m.wid, payload.body) : undefined;
          }
          case "delete": {
            const m = await target(payload.messageId);
            return m ? await session.deleteForEveryone(to, m.wid, m.fromMe) : undefined;
          }
          case "typing":
            return await session.typing?.(to, "composing");
          case "watchPresence":
            return await session.watchPresence?.(to);
        }
      } catch (err) {
        if (err instanceof ChannelError) {
          if (!err.retryable) throw new JobFailed(`${err.code}: ${err.message}`);
          throw new RetryLater(err.message, err.retryAfterSeconds);
        }
        throw err;
      }
    },
  };
}
