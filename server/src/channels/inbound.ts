import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { DEFAULT_TIMEZONE, type WhatsappStatus } from "@atende/contracts";
import { type Db, type Tx, queryRows } from "../db/client.js";
import { contacts, messages, settings, tickets, whatsappQueues, whatsapps } from "../db/schema/index.js";
import { type EventBus, inTransaction } from "../events/bus.js";
import { type ContactRow, presentContact } from "../modules/contacts/present.js";
import { raiseMessageSaved } from "../modules/messages/events.js";
import { loadTicket } from "../modules/tickets/present.js";
import { findWhatsappRow, loadWhatsapp, presentSession } from "../modules/whatsapps/present.js";
import type { MediaStore } from "../storage/media.js";
import type { ChannelAddress, ChannelEvent, ConnectionInfo, InboundMessage } from "./provider.js";

/** The one inbound pipeline: every provider's events go through `handle`. */
export interface Inbound {
  handle(connection: ConnectionInfo, event: ChannelEvent): Promise<void>;
}

export interface InboundDeps {
  db: Db;
  bus: EventBus;
  media: MediaStore;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Asks the connection's live session for a profile picture; absent or null when it cannot. */
  profilePicture?: (connection: ConnectionInfo, address: ChannelAddress) => Promise<string | null>;
}

const PROFILE_PICTURE_MAX_AGE_MS = 24 * 3600_000;

/** A redelivered message lost the race to its twin: abort the transaction, keep nothing. */
class DuplicateMessage extends Error {}

const MEDIA_TYPE_BY_KIND: Record<InboundMessage["kind"], string> = {
  text: "chat",
  image: "image",
  audio: "audio",
  video: "video",
  document: "application",
  sticker: "sticker",
  location: "locationMessage",
  contact: "vcard",
  reaction: "reactionMessage",
};

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

  async function companySetting(companyId: number, key: string): Promise<string | undefined> {
    const [row] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
    return row?.value;
  }

  /** Finds or creates the contact; a LID-only address is matched by LID. */
  async function upsertContact(tx: Tx, companyId: number, address: ChannelAddress, name: string) {
    const display = name.trim() || address.number || address.lid || "?";
    const at = now().toISOString();
    const conflict = address.number
      ? sql`(company_id, number) where number <> ''`
      : sql`(company_id, lid) where lid is not null`;
    const [row] = await queryRows<{ id: number; inserted: boolean; renamed: boolean }>(
      tx,
      sql`
      insert into contacts (company_id, name, number, lid, is_group, created_at, updated_at)
      values (${companyId}, ${display}, ${address.number}, ${address.lid ?? null}, ${address.isGroup}, ${at}, ${at})
      on conflict ${conflict} do update set
        lid = coalesce(excluded.lid, contacts.lid),
        name = case when contacts.name = contacts.number and excluded.name <> excluded.number then excluded.name else contacts.name end,
        updated_at = case when contacts.name = contacts.number and excluded.name <> excluded.number then excluded.updated_at else contacts.updated_at end
      returning id, (xmax = 0) as inserted, (updated_at = ${at}) as renamed`,
    );
    const [contact] = await tx.select().from(contacts).where(eq(contacts.id, row!.id));
    return { contact: contact!, created: row!.inserted, changed: row!.inserted || row!.renamed };
  }

  /** The contact's live ticket on this connection, created atomically when there is none. */
  async function findOrCreateTicket(tx: Tx, connection: ConnectionInfo, contact: ContactRow) {
    const queueRows = await tx
      .select({ queueId: whatsappQueues.queueId })
      .from(whatsappQueues)
      .where(
        and(eq(whatsappQueues.companyId, connection.companyId), eq(whatsappQueues.whatsappId, connection.id)),
      );
    const queueId = queueRows.length === 1 ? queueRows[0]!.queueId : null;
    const at = now().toISOString();
    const [row] = await queryRows<{ id: number; inserted: boolean }>(
      tx,
      sql`
      insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status, is_group, created_at, updated_at)
      values (${connection.companyId}, ${contact.id}, ${connection.id}, ${queueId}, 'pending', ${contact.isGroup}, ${at}, ${at})
      on conflict (company_id, contact_id, whatsapp_id) where status <> 'closed'
      do update set updated_at = tickets.updated_at
      returning id, (xmax = 0) as inserted`,
    );
    return { ticketId: row!.id, created: row!.inserted };
  }

  async function findMessageByWid(tx: Tx | Db, connection: ConnectionInfo, wid: string) {
    const [row] = await tx
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.companyId, connection.companyId),
          eq(messages.whatsappId, connection.id),
          eq(messages.wid, wid),
        ),
      );
    return row ?? null;
  }

  async function storeMedia(connection: ConnectionInfo, msg: InboundMessage) {
    if (!msg.media) return null;
    try {
      const bytes = await msg.media.download();
      const stored = await deps.media.save(connection.companyId, bytes, msg.media.mimetype);
      return { ...stored, name: msg.media.filename ?? null };
    } catch (err) {
      log.warn(
        { err, whatsappId: connection.id, wid: msg.id },
        "media download failed; message kept without it",
      );
      return null;
    }
  }

  async function ingestMessage(connection: ConnectionInfo, msg: InboundMessage) {
    if (msg.chat.isGroup && (await companySetting(connection.companyId, "CheckMsgIsGroup")) === "enabled")
      return;
    if (await findMessageByWid(db, connection, msg.id)) return; // a redelivery: cheap early exit
    const media = await storeMedia(connection, msg);
    const isReaction = msg.kind === "reaction";

    try {
      await inTransaction(db, bus, async (tx, raise) => {
        const target = isReaction ? await findMessageByWid(tx, connection, msg.reaction!.targetId) : null;
        if (isReaction && !target) return; // a reaction to a message we never had
        const contactName = msg.fromMe || msg.chat.isGroup ? "" : (msg.pushName ?? "");
        const { contact, changed, created } = await upsertContact(
          tx,
          connection.companyId,
          msg.chat,
          contactName,
        );
        const ticketId = target
          ? target.ticketId
          : (await findOrCreateTicket(tx, connection, contact)).ticketId;
        const quoted = msg.quotedId ? await findMessageByWid(tx, connection, msg.quotedId) : null;
        const participant = msg.participant
          ? [msg.participant.name, msg.participant.number || msg.participant.lid].filter(Boolean).join(" · ")
          : null;
        const inserted = await tx
          .insert(messages)
          .values({
            companyId: connection.companyId,
            ticketId,
            contactId: contact.id,
            whatsappId: connection.id,
            wid: msg.id,
            body: isReaction ? msg.reaction!.emoji : msg.body,
            fromMe: msg.fromMe,
            read: msg.fromMe,
            ack: msg.fromMe ? 2 : 0,
            mediaType: MEDIA_TYPE_BY_KIND[msg.kind],
            mediaPath: media?.path,
            mediaMime: media?.mimetype,
            mediaName: media?.name ?? msg.media?.filename,
            quotedMsgId: target?.id ?? quoted?.id ?? null,
            participant,
            isForwarded: msg.isForwarded ?? false,
            createdAt: msg.timestamp,
            updatedAt: now(),
          })
          .onConflictDoNothing()
          .returning({ id: messages.id });
        if (inserted.length === 0) throw new DuplicateMessage();

        if (changed)
          raise({
            type: "contact.saved",
            companyId: connection.companyId,
            action: created ? "create" : "update",
            contact: presentContact(contact),
          });
        if (target) {
          await raiseMessageSaved(tx, raise, connection.companyId, target.id, "update");
          return;
        }
        const preview = msg.body || msg.media?.filename || `[${MEDIA_TYPE_BY_KIND[msg.kind]}]`;
        await tx
          .update(tickets)
          .set({
            lastMessage: preview.slice(0, 255),
            unreadMessages: msg.fromMe ? sql`${tickets.unreadMessages}` : sql`${tickets.unreadMessages} + 1`,
            updatedAt: now(),
          })
          .where(eq(tickets.id, ticketId));
        raise({
          type: "ticket.saved",
          companyId: connection.companyId,
          ticket: (await loadTicket(tx, connection.companyId, ticketId))!,
        });
        await raiseMessageSaved(tx, raise, connection.companyId, inserted[0]!.id, "create");
      });
    } catch (err) {
      if (err instanceof DuplicateMessage) return;
      throw err;
    }
    if (!msg.fromMe && !msg.chat.isGroup) void refreshProfilePicture(connection, msg.chat);
  }

  /** At most once a day per contact, never per message. */
  async function refreshProfilePicture(connection: ConnectionInfo, address: ChannelAddress) {
    if (!deps.profilePicture || !address.number) return;
    const [contact] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, connection.companyId), eq(contacts.number, address.number)));
    if (
      !contact ||
      (contact.profilePicAt && now().getTime() - contact.profilePicAt.getTime() < PROFILE_PICTURE_MAX_AGE_MS)
    )
      return;
    try {
      const url = (await deps.profilePicture(connection, address)) ?? "";
      const [updated] = await db
        .update(contacts)
        .set({ profilePicUrl: url, profilePicAt: now() })
        .where(eq(contacts.id, contact.id))
        .returning();
      if (updated && url !== contact.profilePicUrl) {
        await bus.publish([
          {
            type: "contact.saved",
            companyId: connection.companyId,
            action: "update",
            contact: presentContact(updated),
          },
        ]);
      }
    } catch (err) {
      log.debug({ err }, "profile picture refresh failed");
    }
  }

  async function updateMessage(
    connection: ConnectionInfo,
    wid: string,
    change: (row: typeof messages.$inferSelect) => Partial<typeof messages.$inferInsert> | null,
  ) {
    await inTransaction(db, bus, async (tx, raise) => {
      const row = await findMessageByWid(tx, connection, wid);
      if (!row) return;
      const patch = change(row);
      if (!patch) return;
      await tx
        .update(messages)
        .set({ ...patch, updatedAt: now() })
        .where(eq(messages.id, row.id));
      await raiseMessageSaved(tx, raise, connection.companyId, row.id, "update");
    });
  }

  async function missedCall(connection: ConnectionInfo, event: Extract<ChannelEvent, { type: "call" }>) {
    const zone = (await companySetting(connection.companyId, "timezone")) || DEFAULT_TIMEZONE;
    const body = `Chamada de ${event.isVideo ? "vídeo" : "voz"} perdida às ${timeIn(event.at, zone)}`;
    await ingestMessage(connection, {
      id: `call:${event.callId}`,
      chat: event.from,
      fromMe: false,
      timestamp: event.at,
      kind: "text",
      body,
    });
    await db
      .update(messages)
      .set({ mediaType: "call_log" })
      .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, `call:${event.callId}`)));
  }

  async function updateConnection(
    connection: ConnectionInfo,
    status: WhatsappStatus,
    patch: { qrcode?: string; retries?: number; number?: string },
  ) {
    await inTransaction(db, bus, async (tx, raise) => {
      const [row] = await tx
        .update(whatsapps)
        .set({
          status,
          qrcode: status === "qrcode" ? (patch.qrcode ?? "") : "",
          retries: patch.retries ?? (status === "CONNECTED" ? 0 : undefined),
          number: patch.number,
          updatedAt: now(),
        })
        .where(and(eq(whatsapps.companyId, connection.companyId), eq(whatsapps.id, connection.id)))
        .returning();
      if (!row) return;
      raise({ type: "whatsapp.session", companyId: row.companyId, session: presentSession(row) });
      const dto = await loadWhatsapp(tx, row.companyId, row.id);
      if (dto) raise({ type: "whatsapp.saved", companyId: row.companyId, whatsapp: dto });
    });
  }

  async function presence(connection: ConnectionInfo, event: Extract<ChannelEvent, { type: "presence" }>) {
    if (!event.chat.number) return;
    const rows = await queryRows<{ id: number }>(
      db,
      sql`select t.id from tickets t join contacts c on c.id = t.contact_id
          where t.company_id = ${connection.companyId} and t.whatsapp_id = ${connection.id}
            and c.number = ${event.chat.number} and t.status <> 'closed' limit 1`,
    );
    if (!rows[0]) return;
    const ticket = await loadTicket(db, connection.companyId, rows[0].id);
    if (ticket)
      await bus.publish([
        { type: "presence", companyId: connection.companyId, ticket, presence: event.presence },
      ]);
  }

  async function contactUpdate(
    connection: ConnectionInfo,
    event: Extract<ChannelEvent, { type: "contact" }>,
  ) {
    if (!event.address.number) return;
    const [row] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, connection.companyId), eq(contacts.number, event.address.number)));
    if (!row) return;
    const rename = event.name && row.name === row.number ? event.name : undefined;
    const picture =
      event.profilePicUrl !== undefined && event.profilePicUrl !== row.profilePicUrl
        ? event.profilePicUrl
        : undefined;
    if (!rename && picture === undefined) return;
    const [updated] = await db
      .update(contacts)
      .set({
        name: rename,
        profilePicUrl: picture,
        profilePicAt: picture !== undefined ? now() : undefined,
        updatedAt: now(),
      })
      .where(eq(contacts.id, row.id))
      .returning();
    await bus.publish([
      {
        type: "contact.saved",
        companyId: connection.companyId,
        action: "update",
        contact: presentContact(updated!),
      },
    ]);
  }

  return {
    async handle(connection, event) {
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
        case "loggedOut":
          return updateConnection(connection, "DISCONNECTED", { number: "" });
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
  return row
    ? { id: row.id, companyId: row.companyId, name: row.name, number: row.number, config: row.providerConfig }
    : null;
}
