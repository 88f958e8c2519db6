import type { MessageDTO, MessagesPage } from "@atende/contracts";
import type { Tx } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { inTransaction, type Raise } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError, retryableOr } from "../../http/errors.js";
import type { JobRunner } from "../../jobs/runner.js";
import { findContactRow } from "../contacts/queries.js";
import { findUser } from "../users/queries.js";
import { openOrFindLiveTicket } from "../tickets/openLive.js";
import { findTicketRow } from "../tickets/queries.js";
import { loadTicket } from "../tickets/queries.js";
import type { TicketsService } from "../tickets/service.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { enqueueChannelAction, enqueuePresenceWatch } from "./actions.js";
import { prepareOutgoingFiles } from "./outgoingMedia.js";
import { raiseMessageSaved } from "./events.js";
import { queueOutbound, retryOutbound } from "./outbound.js";
import * as q from "./queries.js";
import { loadMessage, loadMessages } from "./queries.js";

type MessagesDeps = Pick<Deps, "db" | "bus" | "now" | "media"> & {
  jobs: Pick<JobRunner, "poke">;
  tickets: TicketsService;
};

export interface UploadedFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * Runs an edit or a delete of message `id`; when that message is the one the ticket list shows as
 * the ticket's last message, the preview follows it (the new text, or the message before a deleted
 * one) in the same transaction, and the lists hear the ticket.
 */
async function changeKeepingPreview(
  tx: Tx,
  raise: Raise,
  companyId: number,
  ticketId: number,
  id: number,
  change: () => Promise<unknown>,
) {
  const shown = await q.newestShownMessage(tx, companyId, ticketId);
  await change();
  if (shown?.id !== id) return;
  const next = await q.newestShownMessage(tx, companyId, ticketId);
  // The same preview as a send writes: the text, else the file's name.
  const preview = next ? next.body || next.mediaName || "" : "";
  await q.setTicketPreview(tx, companyId, ticketId, preview);
  raise({ type: "ticket.saved", companyId, ticket: (await loadTicket(tx, companyId, ticketId))! });
}

/**
 * How long a chat's presence subscription counts as fresh: opening the chat again (another page 1, a
 * second agent, a reload) within it asks WhatsApp nothing new. Each ask was a job with three reads.
 */
export const PRESENCE_WATCH_FRESH_MS = 60_000;

export function createMessagesService({ db, bus, now, media, jobs, tickets: ticketsService }: MessagesDeps) {
  /** When this instance last asked for each open chat's presence (ticket id → ms). */
  const presenceAsked = new Map<number, number>();
  function presenceIsStale(ticketId: number): boolean {
    const at = now().getTime();
    const last = presenceAsked.get(ticketId);
    if (last !== undefined && at - last < PRESENCE_WATCH_FRESH_MS) return false;
    if (presenceAsked.size >= 10_000) {
      for (const [id, asked] of presenceAsked)
        if (at - asked >= PRESENCE_WATCH_FRESH_MS) presenceAsked.delete(id);
    }
    presenceAsked.set(ticketId, at);
    return true;
  }

  /** The '*Name:*' line an agent's signed message starts with. */
  const SIGNATURE_LINE = /^\*[^*\n]{1,100}:\*\n/;

  async function signed(actor: AuthContext, body: string, sign: boolean | undefined) {
    if (!sign || !body) return body;
    const me = await findUser(db, actor.companyId, actor.userId);
    return me ? `*${me.name}:*\n${body}` : body;
  }

  async function ownMessage(actor: AuthContext, id: number) {
    const m = await q.findMessageRow(db, actor.companyId, id);
    if (!m) throw new AppError("ERR_NOT_FOUND");
    const ticket = await findTicketRow(db, actor.companyId, m.ticketId);
    await ticketsService.visibleTicket(actor, ticket);
    return { message: m, ticket: ticket! };
  }

  return {
    /**
     * The conversation with the ticket's contact on its connection, newest page first, each page
     * oldest first. Earlier tickets of the same contact come along, so the screen can draw where
     * one conversation ended and the next started. Opening it as the ticket's agent marks it read.
     * `hasMore`: older messages follow. `count`: on page 1, the conversation's messages the caller
     * may read; on a later page, those from the newest through that page (the total on the last
     * page, where hasMore is false): later pages are not counted whole (q.pageConversation).
     */
    async page(actor: AuthContext, ticketId: number, pageNumber: number): Promise<MessagesPage> {
      const ticket = await ticketsService.visibleTicket(
        actor,
        await findTicketRow(db, actor.companyId, ticketId),
      );
      // The earlier tickets' messages only where the caller may see those tickets (admins: all).
      const readable = await ticketsService.readableHistory(actor, ticket);
      const page = await q.pageConversation(
        db,
        actor.companyId,
        { contactId: ticket.contactId, whatsappId: ticket.whatsappId, ticketId: ticket.id, readable },
        pageNumber,
      );
      if (pageNumber === 1 && ticket.userId === actor.userId && ticket.status === "open") {
        await ticketsService.markRead(actor.companyId, ticket);
      }
      if (
        pageNumber === 1 &&
        ticket.whatsappId !== null &&
        ticket.status !== "closed" &&
        presenceIsStale(ticket.id)
      ) {
        const target = { companyId: actor.companyId, ticketId: ticket.id, whatsappId: ticket.whatsappId };
        await enqueuePresenceWatch(db, target);
        jobs.poke();
      }
      const list = await loadMessages(db, actor.companyId, page.ids.reverse());
      return {
        messages: list,
        ticket: (await loadTicket(db, actor.companyId, ticket.id))!,
        count: page.count,
        hasMore: page.hasMore,
      };
    },

    /** An agent's text or files; shown at once (ack 0) and sent by the outbound queue. */
    async send(
      actor: AuthContext,
      ticketId: number,
      input: { body: string; quotedMsgId?: number | null; signMessage?: boolean },
      files: UploadedFile[] = [],
    ): Promise<MessageDTO[]> {
      const ticket = await ticketsService.visibleTicket(
        actor,
        await findTicketRow(db, actor.companyId, ticketId),
      );
      if (ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
      const text = input.body.trim() ? input.body : "";
      if (!text && files.length === 0) throw new AppError("ERR_EMPTY_MESSAGE");
      if (!ticket.whatsappId) throw new AppError("ERR_NO_WAPP_FOUND");
      let quotedMsgId: number | null = null;
      if (input.quotedMsgId) {
        quotedMsgId = await q.quotableMessageId(db, actor.companyId, input.quotedMsgId, ticket.contactId);
        // Gone, or never this contact's: it cannot be fetched to quote (the spec's "maybe too old").
        if (!quotedMsgId) throw new AppError("ERR_FETCH_WAPP_MSG");
      }
      const body = await signed(actor, text, input.signMessage);
      const connection = files.length ? await findWhatsappRow(db, actor.companyId, ticket.whatsappId) : null;
      const ready = await prepareOutgoingFiles(files, connection?.provider ?? null, media);
      // A disk or database failure the agent can retry answers ERR_CREATING_MESSAGE, not a 500.
      const ids = await retryableOr("ERR_CREATING_MESSAGE", async () => {
        const stored: { path: string; mimetype: string; name: string }[] = [];
        for (const f of ready)
          stored.push({ ...(await media.save(actor.companyId, f.data, f.mimetype)), name: f.filename });
        return inTransaction(db, bus, async (tx, raise) => {
          const created: number[] = [];
          if (stored.length === 0) {
            created.push(
              await queueOutbound(tx, raise, {
                companyId: actor.companyId,
                ticketId,
                body,
                userId: actor.userId,
                at: now(),
                quotedMsgId,
              }),
            );
          }
          for (const [i, file] of stored.entries()) {
            created.push(
              await queueOutbound(tx, raise, {
                companyId: actor.companyId,
                ticketId,
                // The caption rides on the first file.
                body: i === 0 ? body : "",
                userId: actor.userId,
                at: now(),
                quotedMsgId: i === 0 ? quotedMsgId : null,
                media: { path: file.path, mimetype: file.mimetype, name: file.name },
              }),
            );
          }
          return created;
        });
      });
      jobs.poke();
      return loadMessages(db, actor.companyId, ids);
    },

    async edit(actor: AuthContext, id: number, body: string): Promise<MessageDTO> {
      const { message, ticket } = await ownMessage(actor, id);
      if (!message.fromMe || message.userId !== actor.userId || message.isDeleted)
        throw new AppError("ERR_NOT_MESSAGE_AUTHOR");
      await inTransaction(db, bus, async (tx, raise) => {
        await changeKeepingPreview(tx, raise, actor.companyId, ticket.id, id, () =>
          q.updateMessage(tx, actor.companyId, id, { body, isEdited: true, updatedAt: now() }),
        );
        // Always queued: it runs after the ticket's pending send, which may already carry the old text.
        if (ticket.whatsappId) {
          await enqueueChannelAction(tx, {
            companyId: actor.companyId,
            ticketId: ticket.id,
            whatsappId: ticket.whatsappId,
            action: "edit",
            messageId: id,
            body,
          });
        }
        await raiseMessageSaved(tx, raise, actor.companyId, id, "update");
      });
      jobs.poke();
      return (await loadMessage(db, actor.companyId, id))!;
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const { message, ticket } = await ownMessage(actor, id);
      if (!message.fromMe || message.userId !== actor.userId) throw new AppError("ERR_NOT_MESSAGE_AUTHOR");
      if (message.isDeleted) return; // deleted already: nothing more to tell WhatsApp
      await inTransaction(db, bus, async (tx, raise) => {
        await changeKeepingPreview(tx, raise, actor.companyId, ticket.id, id, () =>
          q.updateMessage(tx, actor.companyId, id, { isDeleted: true, updatedAt: now() }),
        );
        if (ticket.whatsappId) {
          await enqueueChannelAction(tx, {
            companyId: actor.companyId,
            ticketId: ticket.id,
            whatsappId: ticket.whatsappId,
            action: "delete",
            messageId: id,
          });
        }
        await raiseMessageSaved(tx, raise, actor.companyId, id, "update");
      });
      jobs.poke();
    },

    /** Reacts as the company; an empty emoji removes the reaction. */
    async react(actor: AuthContext, id: number, emoji: string): Promise<MessageDTO> {
      const { message, ticket } = await ownMessage(actor, id);
      await inTransaction(db, bus, async (tx, raise) => {
        await q.insertReaction(tx, actor.companyId, message, emoji, actor.userId);
        if (ticket.whatsappId) {
          await enqueueChannelAction(tx, {
            companyId: actor.companyId,
            ticketId: ticket.id,
            whatsappId: ticket.whatsappId,
            action: "react",
            messageId: id,
            emoji,
          });
        }
        await raiseMessageSaved(tx, raise, actor.companyId, id, "update");
      });
      jobs.poke();
      return (await loadMessage(db, actor.companyId, id))!;
    },

    /**
     * Sends a copy of a message to another contact on the same connection: into the contact's live
     * ticket when there is one (which the caller must be able to see, and which must be open, as for
     * any send), else into a new open ticket of the caller's.
     */
    async forward(
      actor: AuthContext,
      messageId: number,
      contactId: number,
      signMessage: boolean,
    ): Promise<MessageDTO> {
      const { message, ticket } = await ownMessage(actor, messageId);
      if (message.mediaType === "reactionMessage") throw new AppError("ERR_NOT_FOUND");
      // Deleted, or its file no longer kept: there is nothing left to fetch and send again.
      if (
        message.isDeleted ||
        (message.mediaPath && !(await media.exists(actor.companyId, message.mediaPath)))
      )
        throw new AppError("ERR_FETCH_WAPP_MSG");
      if (!message.body && !message.mediaPath) throw new AppError("ERR_EMPTY_MESSAGE");
      const contact = await findContactRow(db, actor.companyId, contactId);
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      const whatsappId = ticket.whatsappId;
      if (!whatsappId) throw new AppError("ERR_NO_WAPP_FOUND");
      const live = await q.liveTicketRow(db, actor.companyId, contactId, whatsappId);
      if (live) {
        await ticketsService.visibleTicket(actor, live);
        if (live.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
      }
      // A signed agent message is forwarded as its text: the forwarder's signature replaces the author's.
      const text = message.fromMe ? message.body.replace(SIGNATURE_LINE, "") : message.body;
      const body = await signed(actor, text, signMessage);
      const id = await retryableOr("ERR_CREATING_MESSAGE", () =>
        inTransaction(db, bus, async (tx, raise) => {
          const target = await openOrFindLiveTicket(
            tx,
            raise,
            actor.companyId,
            { contactId, whatsappId },
            { userId: actor.userId, queueId: ticket.queueId, status: "open" },
            now(),
          );
          if (!target) throw new AppError("ERR_NO_CONTACT_FOUND");
          // A conversation the customer started since the check above waits to be accepted.
          if (target.ticket.status !== "open") throw new AppError("ERR_TICKET_NOT_OPEN");
          return queueOutbound(tx, raise, {
            companyId: actor.companyId,
            ticketId: target.ticket.id,
            body,
            userId: actor.userId,
            isForwarded: true,
            at: now(),
            media: message.mediaPath
              ? {
                  path: message.mediaPath,
                  mimetype: message.mediaMime ?? "application/octet-stream",
                  name: message.mediaName ?? "file",
                }
              : null,
          });
        }),
      );
      jobs.poke();
      return (await loadMessage(db, actor.companyId, id))!;
    },

    async retry(actor: AuthContext, id: number): Promise<MessageDTO> {
      const { message } = await ownMessage(actor, id);
      if (!message.sendError) return (await loadMessage(db, actor.companyId, id))!;
      await inTransaction(db, bus, (tx, raise) => retryOutbound(tx, raise, actor.companyId, id));
      jobs.poke();
      return (await loadMessage(db, actor.companyId, id))!;
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
