import { and, eq } from "drizzle-orm";
import type { SessionManager } from "../../channels/sessions.js";
import { ChannelError } from "../../channels/provider.js";
import type { Db, Executor } from "../../db/client.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { type JobHandler, JobFailed, RetryLater, enqueueJob } from "../../jobs/runner.js";

export const CHANNEL_ACTION_JOB = "channel-action";

/** What an agent does to messages on WhatsApp besides sending: read receipts, reactions, edits, deletes. */
export type ChannelAction =
  | { action: "markRead"; wids: string[] }
  | { action: "react"; messageId: number; emoji: string }
  | { action: "edit"; messageId: number; body: string }
  | { action: "delete"; messageId: number };

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

export function channelActionJob(deps: { db: Db; sessions: SessionManager }): JobHandler {
  return {
    async run(job) {
      const payload = job.payload as { ticketId: number } & ChannelAction;
      const [ticket] = await deps.db
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, job.companyId!), eq(tickets.id, payload.ticketId)));
      if (!ticket?.whatsappId) return;
      const session = deps.sessions.session(ticket.whatsappId);
      if (!session) throw new RetryLater("the connection's session is not running", 5);
      const [contact] = await deps.db.select().from(contacts).where(eq(contacts.id, ticket.contactId));
      if (!contact) return;
      const to = { number: contact.number, isGroup: contact.isGroup, lid: contact.lid ?? undefined };
      const target = async (messageId: number) => {
        const [m] = await deps.db.select().from(messages).where(eq(messages.id, messageId));
        if (!m?.wid) throw new JobFailed("the message was never sent");
        return m;
      };
      try {
        switch (payload.action) {
          case "markRead":
            return await session.markRead(to, payload.wids);
          case "react": {
            const m = await target(payload.messageId);
            return await session.react(to, m.wid!, m.fromMe, payload.emoji);
          }
          case "edit":
            return await session.edit(to, (await target(payload.messageId)).wid!, payload.body);
          case "delete": {
            const m = await target(payload.messageId);
            return await session.deleteForEveryone(to, m.wid!, m.fromMe);
          }
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
