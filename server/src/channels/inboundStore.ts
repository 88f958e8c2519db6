import { type SQL, sql } from "drizzle-orm";
import type { TicketDTO } from "@atende/contracts";
import type { Executor } from "../db/client.js";
import { PreparedSql, columnList, tableRow } from "../db/prepared.js";
import { contacts, messages, tickets } from "../db/schema/index.js";
import type { ContactRow } from "../modules/contacts/present.js";
import type { MessageRow } from "../modules/messages/present.js";

/**
 * The inbound pipeline's writes, as few statements as the guarantees allow: the hot path (a
 * message that opens or continues a conversation) is one statement, committed on its own.
 */

/** Which unique key finds the contact: its number, or its LID when WhatsApp hides the number. */
export type ContactKey = "number" | "lid";

export interface ContactValues {
  companyId: number;
  /** The name to give a new contact, and to rename one still named by its number. */
  name: string;
  number: string;
  lid: string | null;
  isGroup: boolean;
  /** ISO timestamp: created_at of a new contact, updated_at of a renamed one. */
  at: string;
}

export interface MessageValues {
  whatsappId: number;
  wid: string;
  body: string;
  fromMe: boolean;
  ack: number;
  mediaType: string;
  mediaPath: string | null;
  mediaMime: string | null;
  mediaName: string | null;
  participant: string | null;
  isForwarded: boolean;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
}

export interface ConversationValues extends ContactValues, MessageValues {
  /** The provider id of the message this one quotes, or null. */
  quotedWid: string | null;
  /** The ticket's new lastMessage. */
  preview: string;
  /** 1 for a customer's message, 0 for one sent from the phone itself. */
  unread: number;
}

const p = (name: keyof ConversationValues) => sql.placeholder(name);

/**
 * Finds or creates the contact: a new one is named by the phone; one still named by its number
 * takes the phone's name; a LID learnt later is kept. Answers the row, `inserted` and `renamed`.
 */
function contactUpsert(key: ContactKey): SQL {
  const conflict =
    key === "number"
      ? sql`(company_id, number) where number <> ''`
      : sql`(company_id, lid) where lid is not null`;
  const renames = sql`c.name = c.number and excluded.name <> excluded.number`;
  return sql`
    insert into contacts as c (company_id, name, number, lid, is_group, created_at, updated_at)
    values (${p("companyId")}::int, ${p("name")}::text, ${p("number")}::text, ${p("lid")}::text,
            ${p("isGroup")}::boolean, ${p("at")}::timestamptz, ${p("at")}::timestamptz)
    on conflict ${conflict} do update set
      lid = coalesce(excluded.lid, c.lid),
      name = case when ${renames} then excluded.name else c.name end,
      updated_at = case when ${renames} then excluded.updated_at else c.updated_at end
    returning ${columnList(contacts)}, (xmax = 0) as inserted, (c.updated_at = ${p("at")}::timestamptz) as renamed`;
}

/**
 * One statement for a message that belongs to the contact's live ticket:
 * the contact (found or created) → the live ticket on this connection, created atomically when
 * there is none (the partial unique index: never two non-closed tickets for one contact on one
 * connection), in the connection's queue when it has exactly one, with its lastMessage and unread
 * count moved → the message, linked to the message it quotes → everything the events show.
 * A message id already stored on this connection fails the unique index (messages_whatsapp_wid_uq)
 * and the whole statement rolls back: a redelivery changes nothing.
 */
function conversationStatement(key: ContactKey): SQL {
  return sql`
    with contact as (${contactUpsert(key)}),
    ticket as (
      insert into tickets as t (company_id, contact_id, whatsapp_id, queue_id, status, is_group,
                                last_message, unread_messages, created_at, updated_at)
      select ${p("companyId")}::int, contact.id, ${p("whatsappId")}::int,
        (select case when count(*) = 1 then min(wq.queue_id) end from whatsapp_queues wq
          where wq.company_id = ${p("companyId")}::int and wq.whatsapp_id = ${p("whatsappId")}::int),
        'pending', contact.is_group, ${p("preview")}::text, ${p("unread")}::int,
        ${p("updatedAt")}::timestamptz, ${p("updatedAt")}::timestamptz
      from contact
      on conflict (company_id, contact_id, whatsapp_id) where status <> 'closed' do update set
        last_message = excluded.last_message,
        unread_messages = t.unread_messages + excluded.unread_messages,
        updated_at = excluded.updated_at
      returning ${columnList(tickets)}
    ),
    message as (
      insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, read, ack,
                            media_type, media_path, media_mime, media_name, quoted_msg_id, participant,
                            is_forwarded, created_at, updated_at)
      select ${p("companyId")}::int, ticket.id, contact.id, ${p("whatsappId")}::int, ${p("wid")}::text,
        ${p("body")}::text, ${p("fromMe")}::boolean, ${p("fromMe")}::boolean, ${p("ack")}::smallint,
        ${p("mediaType")}::text, ${p("mediaPath")}::text, ${p("mediaMime")}::text, ${p("mediaName")}::text,
        (select q.id from messages q where q.company_id = ${p("companyId")}::int
          and q.whatsapp_id = ${p("whatsappId")}::int and q.wid = ${p("quotedWid")}::text),
        ${p("participant")}::text, ${p("isForwarded")}::boolean,
        ${p("createdAt")}::timestamptz, ${p("updatedAt")}::timestamptz
      from ticket cross join contact
      returning ${columnList(messages)}
    )
    select row_to_json(contact) as contact, contact.inserted, contact.renamed,
      row_to_json(ticket) as ticket, row_to_json(message) as message, row_to_json(quoted) as quoted,
      u.name as user_name, qu.name as queue_name, qu.color as queue_color, w.name as whatsapp_name,
      coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color))
                from ticket_tags tt join tags g on g.id = tt.tag_id
                where tt.company_id = ticket.company_id and tt.ticket_id = ticket.id), '[]') as tags
    from message cross join ticket cross join contact
      left join messages quoted on quoted.id = message.quoted_msg_id
      left join users u on u.id = ticket.user_id
      left join queues qu on qu.id = ticket.queue_id
      left join whatsapps w on w.id = ticket.whatsapp_id`;
}

type Json = Record<string, unknown>;
interface ConversationRow {
  contact: Json;
  inserted: boolean;
  renamed: boolean;
  ticket: Json;
  message: Json;
  quoted: Json | null;
  user_name: string | null;
  queue_name: string | null;
  queue_color: string | null;
  whatsapp_name: string | null;
  tags: TicketDTO["tags"];
}

const conversation = {
  number: new PreparedSql<ConversationValues, ConversationRow>(
    "inbound_conversation_by_number",
    conversationStatement("number"),
  ),
  lid: new PreparedSql<ConversationValues, ConversationRow>(
    "inbound_conversation_by_lid",
    conversationStatement("lid"),
  ),
};

const contactAlone = {
  number: new PreparedSql<ContactValues, Json & { inserted: boolean; renamed: boolean }>(
    "inbound_contact_by_number",
    contactUpsert("number"),
  ),
  lid: new PreparedSql<ContactValues, Json & { inserted: boolean; renamed: boolean }>(
    "inbound_contact_by_lid",
    contactUpsert("lid"),
  ),
};

export interface SavedContact {
  contact: ContactRow;
  created: boolean;
  /** Created or renamed: the agents' contact lists must hear of it. */
  changed: boolean;
}

export interface StoredConversation extends SavedContact {
  ticket: TicketDTO;
  message: MessageRow;
  quoted: MessageRow | null;
}

const REDELIVERY = "messages_whatsapp_wid_uq";

/** True for the unique-index failure of a message id already stored on its connection. */
function isRedelivery(err: unknown): boolean {
  type DriverError = { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
  for (let e = err as DriverError | undefined, i = 0; e && i < 5; e = e.cause as DriverError, i++) {
    if (e.code !== "23505") continue;
    // The driver's own error: node-postgres names the constraint; PGlite's message always does.
    return (
      e.constraint === REDELIVERY || (typeof e.message === "string" && e.message.includes(`"${REDELIVERY}"`))
    );
  }
  return false;
}

/**
 * The ticket as loadTickets (modules/tickets/present.ts) presents it, from the statement's answer
 * instead of two more queries; inbound.test.ts checks that both agree.
 */
function presentTicket(row: ConversationRow, contact: ContactRow): TicketDTO {
  const t = tableRow(tickets, row.ticket);
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    contactId: t.contactId,
    contact: {
      id: contact.id,
      name: contact.name,
      number: contact.number,
      profilePicUrl: contact.profilePicUrl,
      isGroup: contact.isGroup,
    },
    userId: t.userId,
    user: t.userId !== null && row.user_name !== null ? { id: t.userId, name: row.user_name } : null,
    queueId: t.queueId,
    queue:
      t.queueId !== null && row.queue_name !== null
        ? { id: t.queueId, name: row.queue_name, color: row.queue_color ?? "" }
        : null,
    whatsappId: t.whatsappId,
    whatsapp:
      t.whatsappId !== null && row.whatsapp_name !== null
        ? { id: t.whatsappId, name: row.whatsapp_name }
        : null,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    tags: row.tags,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** Stores a message in its contact's live ticket (see conversationStatement); null for a redelivery. */
export async function storeConversationMessage(
  db: Executor,
  key: ContactKey,
  values: ConversationValues,
): Promise<StoredConversation | null> {
  let row: ConversationRow | undefined;
  try {
    [row] = await conversation[key].rows(db, values);
  } catch (err) {
    if (isRedelivery(err)) return null;
    throw err;
  }
  if (!row) throw new Error("inbound: the conversation statement answered no row");
  const contact = tableRow(contacts, row.contact);
  const ticket = presentTicket(row, contact);
  return {
    contact,
    created: row.inserted,
    changed: row.inserted || row.renamed,
    ticket,
    message: tableRow(messages, row.message),
    quoted: row.quoted ? tableRow(messages, row.quoted) : null,
  };
}

/** Finds or creates the contact alone (a reaction joins its target's ticket). */
export async function saveContact(
  db: Executor,
  key: ContactKey,
  values: ContactValues,
): Promise<SavedContact> {
  const [row] = await contactAlone[key].rows(db, values);
  return {
    contact: tableRow(contacts, row!),
    created: row!.inserted,
    changed: row!.inserted || row!.renamed,
  };
}
