import { type SQL, and, eq, sql } from "drizzle-orm";
import type { TicketDTO } from "@atende/contracts";
import { type Db, type Executor, type Tx, queryRows } from "../../db/client.js";
import { isSerializationFailure, isUniqueViolationOf } from "../../db/errors.js";
import { GroupCommit } from "../../db/groupCommit.js";
import { PreparedSql, columnList, tableRow } from "../../db/prepared.js";
import { contacts, messages, tickets, whatsapps } from "../../db/schema/index.js";
import type { ContactRow } from "../contacts/present.js";
import type { MessageRow } from "../messages/present.js";

/**
 * The channels' statements for the inbound pipeline and the connection rows it updates (the
 * session leases, auth keys and sent messages are in sessionState/queries.ts).
 *
 * The inbound pipeline's writes, as few statements as the guarantees allow: the hot path (a
 * message that opens or continues a conversation) is one statement for all the messages that
 * arrive on a connection while the previous batch commits (group commit).
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
  /** "pending" while the media job downloads the file; see messages.mediaStatus. */
  mediaStatus: "pending" | "failed" | "tooLarge" | null;
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

/** The batch's rows, as `jsonb_to_recordset` reads them (keys: ConversationRowInput's). */
const INPUT_COLUMNS = sql.raw(`idx int, company_id int, whatsapp_id int, name text, number text, lid text,
  is_group boolean, at timestamptz, wid text, body text, from_me boolean, ack smallint, media_type text,
  media_path text, media_mime text, media_name text, media_status text, participant text, is_forwarded boolean,
  created_at timestamptz, updated_at timestamptz, quoted_wid text, preview text, unread int`);

/**
 * One statement for a batch of messages that belong to their contacts' live tickets (group commit:
 * one plan, one COMMIT for all of them), on either contact key:
 * the messages not stored yet (a redelivered id is left out, and answers no row) → their contacts,
 * found or created (in key order, so two batches lock them in the same order) → one ticket per
 * contact and connection: the live one, created atomically when there is none (the partial unique
 * index: never two non-closed tickets for one contact on one connection), in the connection's queue
 * when it has exactly one, its lastMessage the batch's last and its unread count moved by all of them
 * → the messages, with ids drawn in arrival order (a contact's messages keep their order) and linked
 * to the message they quote (stored before, or earlier in the batch) → everything the events show.
 * The rating wait: a closed ticket whose bot state still awaits the rating (rating_asks > 0, asked
 * or re-asked within the last 24 hours) is still the contact's current ticket on that connection
 * while no live one exists: the reply joins it (the chatbot reads it as the rating) instead of
 * opening a new pending ticket.
 * Message ids are looked up by (whatsapp_id, wid) alone, the unique index's key (a connection belongs
 * to one company), and the redelivery check stays one probe per message (`offset 0` keeps the NOT
 * EXISTS a per-row subplan): planned for the 100 rows PostgreSQL assumes jsonb_to_recordset gives,
 * it was a hash anti join over a scan of the whole messages table until that held tens of thousands
 * of rows (4 ms of every batch at 4,600 messages), and with the company in the probe a plan could
 * walk the company's index instead.
 * A twin of one of the messages committed by someone else meanwhile fails the unique index
 * (messages_whatsapp_wid_uq): the statement changes nothing and is run again, leaving it out.
 */
function batchStatement(key: ContactKey): SQL {
  const k = sql.identifier(key);
  const conflict =
    key === "number"
      ? sql`(company_id, number) where number <> ''`
      : sql`(company_id, lid) where lid is not null`;
  const renames = sql`c.name = c.number and excluded.name <> excluded.number`;
  const messageColumns = columnList(messages);
  return sql`
    with input as (
      select * from jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as x(${INPUT_COLUMNS})
    ),
    unseen as (
      select i.* from input i
      where not exists (select 1 from messages m where m.whatsapp_id = i.whatsapp_id and m.wid = i.wid offset 0)
    ),
    numbered as (
      select idx, nextval(pg_get_serial_sequence('messages', 'id')) as message_id
      from (select idx from unseen order by idx) arrival
    ),
    fresh as (select u.*, n.message_id from unseen u join numbered n using (idx)),
    person as (
      select distinct on (company_id, ${k}) company_id, name, number, lid, is_group, at from fresh
      order by company_id, ${k}, idx
    ),
    contact as (
      insert into contacts as c (company_id, name, number, lid, is_group, created_at, updated_at)
      select company_id, name, number, lid, is_group, at, at from person order by company_id, ${k}
      on conflict ${conflict} do update set
        lid = coalesce(excluded.lid, c.lid),
        name = case when ${renames} then excluded.name else c.name end,
        updated_at = case when ${renames} then excluded.updated_at else c.updated_at end
      returning ${columnList(contacts)}, (xmax = 0) as inserted
    ),
    conversation as (
      select distinct on (ct.id, f.whatsapp_id) f.company_id, ct.id as contact_id, f.whatsapp_id,
        ct.is_group, f.preview, f.updated_at,
        (sum(f.unread) over (partition by ct.id, f.whatsapp_id))::int as unread
      from fresh f join contact ct on ct.company_id = f.company_id and ct.${k} = f.${k}
      order by ct.id, f.whatsapp_id, f.idx desc
    ),
    rating as (
      select distinct on (g.contact_id, g.whatsapp_id) t.id as ticket_id, g.contact_id, g.whatsapp_id
      from conversation g
        join tickets t on t.company_id = g.company_id and t.contact_id = g.contact_id
          and t.whatsapp_id = g.whatsapp_id and t.status = 'closed'
        join ticket_bot_states b on b.ticket_id = t.id
      where b.rating_asks > 0 and b.updated_at > g.updated_at - interval '24 hours'
        and not exists (select 1 from tickets l where l.company_id = g.company_id
          and l.contact_id = g.contact_id and l.whatsapp_id = g.whatsapp_id and l.status <> 'closed')
      order by g.contact_id, g.whatsapp_id, b.updated_at desc, t.id desc
    ),
    rated as (
      update tickets t set
        last_message = g.preview,
        unread_messages = t.unread_messages + g.unread,
        updated_at = g.updated_at
      from rating r join conversation g on g.contact_id = r.contact_id and g.whatsapp_id = r.whatsapp_id
      where t.id = r.ticket_id
      returning ${columnList(tickets, "t")}
    ),
    opened as (
      insert into tickets as t (company_id, contact_id, whatsapp_id, queue_id, status, is_group,
                                last_message, unread_messages, created_at, updated_at)
      select g.company_id, g.contact_id, g.whatsapp_id,
        (select case when count(*) = 1 then min(wq.queue_id) end from whatsapp_queues wq
          where wq.company_id = g.company_id and wq.whatsapp_id = g.whatsapp_id),
        'pending', g.is_group, g.preview, g.unread, g.updated_at, g.updated_at
      from conversation g
      where not exists (select 1 from rating r where r.contact_id = g.contact_id and r.whatsapp_id = g.whatsapp_id)
      order by g.contact_id, g.whatsapp_id
      on conflict (company_id, contact_id, whatsapp_id) where status <> 'closed' do update set
        last_message = excluded.last_message,
        unread_messages = t.unread_messages + excluded.unread_messages,
        updated_at = excluded.updated_at
      returning ${columnList(tickets)}
    ),
    ticket as (select * from rated union all select * from opened),
    message as (
      insert into messages (id, company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, read,
                            ack, media_type, media_path, media_mime, media_name, media_status, quoted_msg_id,
                            participant, is_forwarded, created_at, updated_at)
      select f.message_id, f.company_id, tk.id, tk.contact_id, f.whatsapp_id, f.wid, f.body, f.from_me,
        f.from_me, f.ack, f.media_type, f.media_path, f.media_mime, f.media_name, f.media_status,
        case when f.quoted_wid is not null then coalesce(
          (select q.id from messages q where q.whatsapp_id = f.whatsapp_id and q.wid = f.quoted_wid),
          (select e.message_id from fresh e where e.whatsapp_id = f.whatsapp_id
            and e.wid = f.quoted_wid and e.idx < f.idx limit 1)) end,
        f.participant, f.is_forwarded, f.created_at, f.updated_at
      from fresh f
        join contact ct on ct.company_id = f.company_id and ct.${k} = f.${k}
        join ticket tk on tk.contact_id = ct.id and tk.whatsapp_id = f.whatsapp_id
      order by f.message_id
      returning ${messageColumns}
    )
    select f.idx, row_to_json(ct) as contact, ct.inserted, (ct.updated_at = p.at) as renamed,
      row_to_json(tk) as ticket, row_to_json(m) as message, row_to_json(q) as quoted,
      u.name as user_name, qu.name as queue_name, qu.color as queue_color, w.name as whatsapp_name,
      coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color))
                from ticket_tags tt join tags g on g.id = tt.tag_id
                where tt.company_id = tk.company_id and tt.ticket_id = tk.id), '[]') as tags
    from message m
      join fresh f on f.message_id = m.id
      join contact ct on ct.id = m.contact_id
      join person p on p.company_id = ct.company_id and p.${k} = ct.${k}
      join ticket tk on tk.id = m.ticket_id
      left join lateral (
        select ${messageColumns} from messages where id = m.quoted_msg_id
        union all select ${messageColumns} from message where id = m.quoted_msg_id
      ) q on true
      left join users u on u.id = tk.user_id
      left join queues qu on qu.id = tk.queue_id
      left join whatsapps w on w.id = tk.whatsapp_id
    order by f.idx`;
}

type Json = Record<string, unknown>;
interface ConversationRow {
  idx: number;
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

/** The hot path's statement by contact key (exported for its plan's test). */
export const batch = {
  number: new PreparedSql<{ rows: string }, ConversationRow>(
    "inbound_batch_by_number",
    batchStatement("number"),
  ),
  lid: new PreparedSql<{ rows: string }, ConversationRow>("inbound_batch_by_lid", batchStatement("lid")),
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
  /** The batch's first message of this contact / of this ticket (their events go out once). */
  firstOfContact: boolean;
  firstOfTicket: boolean;
}

const REDELIVERY = "messages_whatsapp_wid_uq";

/** True for the unique-index failure of a message id already stored on its connection. */
function isRedelivery(err: unknown): boolean {
  return isUniqueViolationOf(err, [REDELIVERY]);
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

/** A message for its contact's live ticket, found by `key`. */
export interface ConversationItem {
  key: ContactKey;
  values: ConversationValues;
}

/** Tries of a batch that lost a race (a twin committed meanwhile, a deadlock) before it is split up. */
const BATCH_TRIES = 3;

function isRetryable(err: unknown): boolean {
  return isRedelivery(err) || isSerializationFailure(err);
}

/**
 * Writes one key's batch and hands its rows to `within`, in the same transaction when `inTx` (the
 * work that must commit with the messages: see storeConversationMessages), else right after.
 */
async function writeBatch<T>(
  db: Executor,
  key: ContactKey,
  items: { idx: number; values: ConversationValues }[],
  inTx: boolean,
  within: (tx: Executor, rows: ConversationRow[]) => Promise<T>,
): Promise<T> {
  const rows = JSON.stringify(
    items.map(({ idx, values: v }) => ({
      idx,
      company_id: v.companyId,
      whatsapp_id: v.whatsappId,
      name: v.name,
      number: v.number,
      lid: v.lid,
      is_group: v.isGroup,
      at: v.at,
      wid: v.wid,
      body: v.body,
      from_me: v.fromMe,
      ack: v.ack,
      media_type: v.mediaType,
      media_path: v.mediaPath,
      media_mime: v.mediaMime,
      media_name: v.mediaName,
      media_status: v.mediaStatus,
      participant: v.participant,
      is_forwarded: v.isForwarded,
      created_at: v.createdAt,
      updated_at: v.updatedAt,
      quoted_wid: v.quotedWid,
      preview: v.preview,
      unread: v.unread,
    })),
  );
  for (let attempt = 1; ; attempt++) {
    try {
      if (!inTx) return await within(db, await batch[key].rows(db, { rows }));
      // A failed try aborts its transaction: each try is a transaction of its own.
      return await db.transaction(async (tx) => within(tx, await batch[key].rows(tx, { rows })));
    } catch (err) {
      if (attempt >= BATCH_TRIES || !isRetryable(err)) throw err;
    }
  }
}

/**
 * Work committed with a batch's messages (the durable jobs they call for): run in the batch's
 * transaction, it answers what to do once committed.
 */
export type WithinBatch = (tx: Executor, stored: StoredConversation[]) => Promise<() => void>;

/**
 * Stores a batch of messages (see batchStatement), one result per item in order: null for a
 * redelivery (already stored, or earlier in the same batch). `firstOfContact` / `firstOfTicket`
 * mark the batch's first message of each contact and ticket, so their events go out once. With
 * `withinBatch`, the statement and that work share one transaction (one COMMIT).
 */
export async function storeConversationMessages(
  db: Executor,
  items: ConversationItem[],
  withinBatch?: WithinBatch,
): Promise<(StoredConversation | null)[]> {
  const results: (StoredConversation | null)[] = items.map(() => null);
  const seen = new Set<string>();
  const byKey: Record<ContactKey, { idx: number; values: ConversationValues }[]> = { number: [], lid: [] };
  items.forEach(({ key, values }, idx) => {
    const id = `${values.whatsappId}:${values.wid}`;
    if (seen.has(id)) return; // the same message twice in one batch: the first one is stored
    seen.add(id);
    byKey[key].push({ idx, values });
  });
  const contactsSeen = new Set<number>();
  const ticketsSeen = new Set<number>();
  for (const key of ["number", "lid"] as const) {
    if (byKey[key].length === 0) continue;
    const { stored, committed } = await writeBatch(db, key, byKey[key], !!withinBatch, async (tx, rows) => {
      // Marked on copies: a try that fails must not mark the contacts and tickets of the next one.
      const contactsNow = new Set(contactsSeen);
      const ticketsNow = new Set(ticketsSeen);
      const list = rows.map((row) => {
        const contact = tableRow(contacts, row.contact);
        const ticket = presentTicket(row, contact);
        const one: StoredConversation = {
          contact,
          created: row.inserted,
          changed: row.inserted || row.renamed,
          ticket,
          message: tableRow(messages, row.message),
          quoted: row.quoted ? tableRow(messages, row.quoted) : null,
          firstOfContact: !contactsNow.has(contact.id),
          firstOfTicket: !ticketsNow.has(ticket.id),
        };
        contactsNow.add(contact.id);
        ticketsNow.add(ticket.id);
        return { idx: row.idx, one };
      });
      return {
        stored: list,
        committed: withinBatch
          ? await withinBatch(
              tx,
              list.map((s) => s.one),
            )
          : () => undefined,
      };
    });
    committed();
    for (const { idx, one } of stored) {
      results[idx] = one;
      contactsSeen.add(one.contact.id);
      ticketsSeen.add(one.ticket.id);
    }
  }
  return results;
}

/**
 * Group commit of the hot path: messages arriving together on a connection are stored by one
 * statement (GroupCommit: one batch at a time per connection, in arrival order). Each caller's
 * promise settles once its message is committed: null for a redelivery.
 */
export function conversationWriter(db: Executor, withinBatch?: WithinBatch, maxBatch = 64) {
  const commits = new GroupCommit<ConversationItem, StoredConversation | null>(
    (items) => storeConversationMessages(db, items, withinBatch),
    maxBatch,
  );
  return {
    store: (key: ContactKey, values: ConversationValues) =>
      commits.submit(values.whatsappId, { key, values }),
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

/** The company's message on a connection by its provider id. */
export async function findMessageByWid(
  db: Tx | Db,
  companyId: number,
  whatsappId: number,
  wid: string,
): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(eq(messages.companyId, companyId), eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)),
    );
  return row ?? null;
}

/** A reaction stored beside its target; no id when it is a redelivery (the unique wid index). */
export async function insertReaction(
  tx: Tx,
  companyId: number,
  values: MessageValues & { ticketId: number; contactId: number; quotedMsgId: number },
): Promise<{ id: number }[]> {
  return tx
    .insert(messages)
    .values({
      companyId,
      ticketId: values.ticketId,
      contactId: values.contactId,
      whatsappId: values.whatsappId,
      wid: values.wid,
      body: values.body,
      fromMe: values.fromMe,
      read: values.fromMe,
      ack: values.ack,
      mediaType: values.mediaType,
      quotedMsgId: values.quotedMsgId,
      participant: values.participant,
      isForwarded: values.isForwarded,
      createdAt: new Date(values.createdAt),
      updatedAt: new Date(values.updatedAt),
    })
    .onConflictDoNothing()
    .returning({ id: messages.id });
}

/** A provider's change to a message (ack, edit, revoke). */
export async function updateMessageById(
  tx: Tx,
  id: number,
  patch: Partial<typeof messages.$inferInsert>,
): Promise<void> {
  // By id alone: the caller just read the row in its company (findMessageByWid), in this transaction.
  await tx.update(messages).set(patch).where(eq(messages.id, id));
}

/** The company's contact by number (a provider's contact update). */
export async function findContactByNumber(
  db: Db,
  companyId: number,
  number: string,
): Promise<ContactRow | null> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
  return row ?? null;
}

/** A provider's change to a contact (name, picture). */
export async function updateContactById(
  db: Db,
  id: number,
  patch: Partial<typeof contacts.$inferInsert>,
): Promise<ContactRow | undefined> {
  // By id alone: the caller read the contact in the connection's company just before.
  const [row] = await db.update(contacts).set(patch).where(eq(contacts.id, id)).returning();
  return row;
}

/** The connection's status as its provider reports it; undefined when it is not the company's. */
export async function updateConnection(
  tx: Tx,
  companyId: number,
  whatsappId: number,
  patch: Partial<typeof whatsapps.$inferInsert>,
): Promise<typeof whatsapps.$inferSelect | undefined> {
  const [row] = await tx
    .update(whatsapps)
    .set(patch)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)))
    .returning();
  return row;
}

/** The open ticket of a number on a connection (a presence is shown on it). */
export async function openTicketIdOfNumber(
  db: Db,
  companyId: number,
  whatsappId: number,
  number: string,
): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select t.id from tickets t join contacts c on c.id = t.contact_id
        where t.company_id = ${companyId} and t.whatsapp_id = ${whatsappId}
          and c.number = ${number} and t.status <> 'closed' limit 1`,
  );
  return rows[0]?.id ?? null;
}
