import type { FastifyBaseLogger } from "fastify";
import type { WhatsappStatus } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import type { messages } from "../../db/schema/index.js";
import { type DomainEvent, type EventBus, inTransaction } from "../../events/bus.js";
import { type ContactRow, presentContact } from "../contacts/present.js";
import { raiseMessageSaved } from "../messages/events.js";
import { companySetting, companyTimeZone } from "../settings/queries.js";
import { presentSession } from "../whatsapps/present.js";
import { findWhatsappRow, loadWhatsapp } from "../whatsapps/queries.js";
import { loadTicket } from "../tickets/queries.js";
import type { MediaStore } from "../../storage/media.js";
import { contactUpkeep } from "./contacts.js";
import { conversationEvents } from "./events.js";
import { historyImport } from "./history.js";
import { MEDIA_TYPE_BY_KIND } from "./kinds.js";
import { type PendingMedia, enqueueMediaDownload } from "./mediaJob.js";
import { placeholderReplacer } from "./placeholders.js";
import { conversationWriter } from "./writer.js";
import {
  type ContactKey,
  type ContactValues,
  type ConversationValues,
  type MessageValues,
  type StoredConversation,
  transactionWrote,
  findMessageByWid,
  insertReaction,
  openTicketIdOfNumber,
  saveContact,
  updateConnection as updateConnectionRow,
  updateMessageById,
} from "./queries.js";
import {
  type ChannelAddress,
  type ChannelEvent,
  type ConnectionInfo,
  type InboundMessage,
  connectionInfoOf,
} from "../../channels/provider.js";
import type { Inbound } from "../../channels/sink.js";

export interface InboundDeps {
  db: Db;
  bus: EventBus;
  media: MediaStore;
  /** The largest inbound file downloaded (INBOUND_MEDIA_MAX_BYTES); the media store's limit unless said. */
  mediaMaxBytes?: number;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Asks the connection's live session for a profile picture; absent or null when it cannot. */
  profilePicture?: (connection: ConnectionInfo, address: ChannelAddress) => Promise<string | null>;
  /** Tells the job runner a job is due (the bot's turns the quiet statement queues). */
  poke?: () => void;
  /**
   * Checks each message stored without the followers by running them on its events in a transaction
   * rolled back: one that writes or raises anything is a follower that declared itself quiet wrongly
   * (events/bus.ts, QuietOnInbound), and the message fails. On in tests.
   */
  checkQuietFollowers?: boolean;
}

/** A quiet message's followers wrote or raised something (see InboundDeps.checkQuietFollowers). */
class QuietFollowerActed extends Error {}

/** A redelivered message lost the race to its twin: abort the transaction, keep nothing. */
class DuplicateMessage extends Error {}

/** Ends a transaction that was only a check. */
class RolledBack extends Error {}

function timeIn(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).format(date);
}

export function createInbound(deps: InboundDeps): Inbound {
  const { db, bus, now, log } = deps;
  const { identityOf, withIdentity, refreshProfilePicture, contactUpdate } = contactUpkeep(deps);
  const importHistory = historyImport(deps);
  const replacePlaceholder = placeholderReplacer(deps);
  // The followers' work (the bot's turn) commits with the batch of messages that calls for it.
  // A message whose file is still to come commits with the job that downloads it.
  const pending = new Map<string, PendingMedia>();
  const conversations = conversationWriter(
    db,
    async (tx, stored) => {
      for (const s of stored) {
        const wanted =
          s.message.mediaStatus === "pending" && pending.get(`${s.message.whatsappId}:${s.message.wid}`);
        if (wanted) await enqueueMediaDownload(tx, s.message.companyId, s.message.id, wanted);
      }
      const events = stored.flatMap(conversationEvents);
      const caused = events.length;
      const committed = await bus.follow(tx, events);
      // What the followers raised goes out after the batch's own events (published per message).
      const raised = events.slice(caused);
      return () => {
        committed();
        if (raised.length > 0) void bus.publish(raised);
      };
    },
    {
      // Calls are never quiet (inbound/calls.ts declines them in the batch's transaction), nor a file
      // still to download (its job commits with it, above).
      takes: ({ values }) => values.mediaType !== "call_log" && values.mediaStatus !== "pending",
      async allows(items) {
        for (const companyId of new Set(items.map((i) => i.values.companyId)))
          if (!(await bus.quietOnInbound(db, companyId))) return false;
        return true;
      },
      committed: () => deps.poke?.(),
    },
  );

  /** See InboundDeps.checkQuietFollowers. */
  async function checkQuiet(stored: StoredConversation) {
    const events = conversationEvents(stored);
    const caused = events.length;
    await db
      .transaction(async (tx) => {
        await bus.follow(tx, events);
        if ((await transactionWrote(tx)) || events.length > caused)
          throw new QuietFollowerActed(
            `a follower wrote or raised events for a quiet inbound message (ticket ${stored.ticket.id}): ` +
              "it declared itself quiet on inbound batches (listeners.ts) but is not",
          );
        throw new RolledBack();
      })
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) throw err;
      });
  }

  /**
   * A provider that can fetch the file later (a `ref`): the message is stored at once, its media
   * pending, and a job downloads it (or, announced over the size limit, it shows so at once).
   */
  function deferredMedia(msg: InboundMessage) {
    const media = msg.media;
    if (!media?.ref) return null;
    const tooLarge = media.size !== undefined && media.size > (deps.mediaMaxBytes ?? deps.media.maxBytes);
    return {
      path: null,
      mimetype: media.mimetype,
      name: media.filename ?? null,
      status: tooLarge ? ("tooLarge" as const) : ("pending" as const),
    };
  }

  async function storeMedia(connection: ConnectionInfo, msg: InboundMessage) {
    if (!msg.media) return null;
    const deferred = deferredMedia(msg);
    if (deferred) return deferred;
    try {
      const bytes = await msg.media.download();
      const stored = await deps.media.save(connection.companyId, bytes, msg.media.mimetype);
      return { ...stored, name: msg.media.filename ?? null, status: null };
    } catch (err) {
      log.warn(
        { err, whatsappId: connection.id, wid: msg.id },
        "media download failed; message kept without it",
      );
      return null;
    }
  }

  /**
   * What the writer stores of a message: its contact's values, its own, and what it does to its
   * ticket. One object literal: the hot path made it of two spreads, then spread it again, each an
   * object whose shape V8 must work out anew (a slow path for every message).
   */
  function conversationValues(
    connection: ConnectionInfo,
    msg: InboundMessage,
    mediaType: string,
    media: Awaited<ReturnType<typeof storeMedia>>,
    at: string,
  ): ConversationValues {
    const name = msg.fromMe || msg.chat.isGroup ? "" : (msg.pushName ?? "");
    const preview = msg.body || msg.media?.filename || `[${MEDIA_TYPE_BY_KIND[msg.kind]}]`;
    return {
      companyId: connection.companyId,
      name: name.trim() || msg.chat.number || msg.chat.lid || "?",
      number: msg.chat.number,
      lid: msg.chat.lid ?? null,
      isGroup: msg.chat.isGroup,
      at,
      whatsappId: connection.id,
      wid: msg.id,
      body: msg.kind === "reaction" ? msg.reaction!.emoji : msg.body,
      fromMe: msg.fromMe,
      ack: msg.fromMe ? 2 : 0,
      mediaType,
      mediaPath: media?.path ?? null,
      mediaMime: media?.mimetype ?? null,
      mediaName: media?.name ?? msg.media?.filename ?? null,
      mediaStatus: media?.status ?? null,
      participant: msg.participant
        ? [msg.participant.name, msg.participant.number || msg.participant.lid].filter(Boolean).join(" · ")
        : null,
      isForwarded: msg.isForwarded ?? false,
      createdAt: msg.timestamp.toISOString(),
      updatedAt: at,
      quotedWid: msg.quotedId ?? null,
      preview: preview.slice(0, 255),
      unread: msg.fromMe ? 0 : 1,
    };
  }

  /**
   * A message into its contact's live ticket: one statement for the batch it rides in (group
   * commit, see conversationWriter); its events go out once it is committed. Null for a redelivery.
   */
  async function storeMessage(
    connection: ConnectionInfo,
    key: ContactKey,
    values: ConversationValues,
    msg: InboundMessage,
  ): Promise<ContactRow | null> {
    const stored = await conversations.store(key, values);
    if (!stored) {
      // A redelivery; or the content of a message stored unreadable, which it replaces.
      if (msg.kind !== "unreadable") await replacePlaceholder(connection, values, msg, values.preview);
      return null;
    }
    // The check runs in the ticket's publishing turn, so the events still go out in order.
    const check = stored.quiet && deps.checkQuietFollowers ? () => checkQuiet(stored) : undefined;
    await publishInOrder(stored.ticket.id, conversationEvents(stored), check);
    return stored.contact;
  }

  /**
   * A batch's messages are committed together and their callers resume together: a ticket's events
   * still go out one message after the other (the agents' sockets and the chatbot see them in order).
   */
  const publishing = new Map<number, Promise<void>>();
  async function publishInOrder(ticketId: number, events: DomainEvent[], before?: () => Promise<void>) {
    const previous = publishing.get(ticketId);
    // Nothing of the ticket going out, nothing to check first (nearly always): out at once.
    const mine =
      !previous && !before
        ? bus.publish(events)
        : // A failed check fails its own message only (the chain goes on).
          (previous ?? Promise.resolve())
            .catch(() => undefined)
            .then(async () => {
              await before?.();
              await bus.publish(events);
            });
    publishing.set(ticketId, mine);
    await mine;
    if (publishing.get(ticketId) === mine) publishing.delete(ticketId);
  }

  /** A reaction joins the ticket of the message it reacts to, which is shown again with it. */
  async function storeReaction(
    connection: ConnectionInfo,
    key: ContactKey,
    values: ContactValues & MessageValues,
    targetWid: string,
  ): Promise<ContactRow | null> {
    try {
      return await inTransaction(db, bus, async (tx, raise) => {
        const target = await findMessageByWid(tx, connection.companyId, connection.id, targetWid);
        if (!target) return null; // a reaction to a message we never had
        const saved = await saveContact(tx, key, values);
        const inserted = await insertReaction(tx, connection.companyId, {
          ...values,
          ticketId: target.ticketId,
          contactId: saved.contact.id,
          quotedMsgId: target.id,
        });
        if (inserted.length === 0) throw new DuplicateMessage();
        if (saved.changed)
          raise({
            type: "contact.saved",
            companyId: connection.companyId,
            action: saved.created ? "create" : "update",
            contact: presentContact(saved.contact),
          });
        await raiseMessageSaved(tx, raise, connection.companyId, target.id, "update");
        return saved.contact;
      });
    } catch (err) {
      if (err instanceof DuplicateMessage) return null;
      throw err;
    }
  }

  async function ingestMessage(
    connection: ConnectionInfo,
    msg: InboundMessage,
    mediaType = MEDIA_TYPE_BY_KIND[msg.kind],
  ) {
    if (msg.chat.isGroup && (await companySetting(db, connection.companyId, "CheckMsgIsGroup")) === "enabled")
      return;
    // A redelivered media message is recognised before its media is fetched again; any other
    // redelivery is refused by the unique index on (connection, message id) when it is stored.
    if (
      msg.media &&
      !msg.media.ref &&
      (await findMessageByWid(db, connection.companyId, connection.id, msg.id))
    )
      return;
    const media = msg.media ? await storeMedia(connection, msg) : null;
    const values = conversationValues(connection, msg, mediaType, media, now().toISOString());
    // A LID-only address is matched by LID.
    const key: ContactKey = msg.chat.number ? "number" : "lid";
    const pendingKey = `${connection.id}:${msg.id}`;
    if (media?.status === "pending" && msg.media?.ref)
      pending.set(pendingKey, { whatsappId: connection.id, ref: msg.media.ref, size: msg.media.size });
    let contact: ContactRow | null;
    try {
      contact = await withIdentity(identityOf(connection, msg.chat), () =>
        msg.kind === "reaction"
          ? storeReaction(connection, key, values, msg.reaction!.targetId)
          : storeMessage(connection, key, values, msg),
      );
    } finally {
      pending.delete(pendingKey);
    }
    if (contact && !msg.fromMe && !msg.chat.isGroup) refreshProfilePicture(connection, msg.chat, contact);
  }

  async function updateMessage(
    connection: ConnectionInfo,
    wid: string,
    change: (row: typeof messages.$inferSelect) => Partial<typeof messages.$inferInsert> | null,
  ) {
    await inTransaction(db, bus, async (tx, raise) => {
      const row = await findMessageByWid(tx, connection.companyId, connection.id, wid);
      if (!row) return;
      const patch = change(row);
      if (!patch) return;
      await updateMessageById(tx, row.id, { ...patch, updatedAt: now() });
      await raiseMessageSaved(tx, raise, connection.companyId, row.id, "update");
    });
  }

  async function missedCall(connection: ConnectionInfo, event: Extract<ChannelEvent, { type: "call" }>) {
    const zone = await companyTimeZone(db, connection.companyId);
    const body = `Chamada de ${event.isVideo ? "vídeo" : "voz"} perdida às ${timeIn(event.at, zone)}`;
    await ingestMessage(
      connection,
      {
        id: `call:${event.callId}`,
        chat: event.from,
        fromMe: false,
        timestamp: event.at,
        kind: "text",
        body,
      },
      "call_log",
    );
  }

  async function updateConnection(
    connection: ConnectionInfo,
    status: WhatsappStatus,
    patch: { qrcode?: string; retries?: number; number?: string; reason?: string },
  ) {
    await inTransaction(db, bus, async (tx, raise) => {
      const row = await updateConnectionRow(tx, connection.companyId, connection.id, {
        status,
        qrcode: status === "qrcode" ? (patch.qrcode ?? "") : "",
        retries: patch.retries ?? (status === "CONNECTED" ? 0 : undefined),
        number: patch.number,
        updatedAt: now(),
      });
      if (!row) return;
      raise({ type: "whatsapp.session", companyId: row.companyId, session: presentSession(row) });
      // The provider says why a person must act (a Cloud API token refused): the admins are told.
      if (patch.reason)
        raise({ type: "whatsapp.alert", companyId: row.companyId, whatsappId: row.id, reason: patch.reason });
      const dto = await loadWhatsapp(tx, row.companyId, row.id);
      if (dto) raise({ type: "whatsapp.saved", companyId: row.companyId, whatsapp: dto });
    });
  }

  async function presence(connection: ConnectionInfo, event: Extract<ChannelEvent, { type: "presence" }>) {
    if (!event.chat.number) return;
    const ticketId = await openTicketIdOfNumber(db, connection.companyId, connection.id, event.chat.number);
    if (ticketId === null) return;
    const ticket = await loadTicket(db, connection.companyId, ticketId);
    if (ticket)
      await bus.publish([
        { type: "presence", companyId: connection.companyId, ticket, presence: event.presence },
      ]);
  }

  return {
    // Not async: each case's own promise, without another around it (a message goes through here).
    handle(connection, event) {
      switch (event.type) {
        case "message":
          return ingestMessage(connection, event.message);
        case "ack":
          return updateMessage(connection, event.id, (row) => {
            const forward = event.ack > row.ack;
            if (!forward && !event.error) return null;
            return {
              ack: forward ? event.ack : row.ack,
              read: row.read || event.ack >= 4,
              sendError: event.error ?? row.sendError,
            };
          });
        case "edit":
          return updateMessage(connection, event.id, (row) =>
            row.body === event.body ? null : { body: event.body, isEdited: true },
          );
        case "revoke":
          return updateMessage(connection, event.id, (row) => (row.isDeleted ? null : { isDeleted: true }));
        case "call":
          return missedCall(connection, event);
        case "presence":
          return presence(connection, event);
        case "contact":
          return contactUpdate(connection, event);
        case "connection":
          return updateConnection(connection, event.status, event);
        case "history":
          return importHistory(connection, event);
        case "loggedOut":
          return updateConnection(connection, "DISCONNECTED", { number: "" });
        default:
          // A provider's event of a kind this version does not know: nothing to do.
          return Promise.resolve();
      }
    },
  };
}

/** A whatsapps row as the providers know it. */
export async function connectionInfo(
  db: Db,
  companyId: number,
  whatsappId: number,
): Promise<ConnectionInfo | null> {
  const row = await findWhatsappRow(db, companyId, whatsappId);
  return row ? connectionInfoOf(row) : null;
}
