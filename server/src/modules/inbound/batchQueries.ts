import { type SQL, sql } from "drizzle-orm";
import type { TicketDTO } from "@atende/contracts";
import { PreparedSql, columnList } from "../../db/prepared.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { botTurnsOf } from "../bots/menu/queries.js";
import { campaignMayAnswer, campaignOptOutWords } from "../campaigns/shippings/queries.js";

/**
 * The inbound hot path's statement, built once per contact key: every message of a batch (the
 * messages that arrive on a connection while the previous batch commits) finds or makes its
 * contact, finds or opens its live ticket and stores the message, in one statement. queries.ts
 * runs it (the writer) and keeps the pipeline's other statements.
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

/** The contacts' unique index that `on conflict` names, by key. */
const conflictOn = (key: ContactKey): SQL =>
  key === "number"
    ? sql`(company_id, number) where number <> ''`
    : sql`(company_id, lid) where lid is not null`;

/**
 * The condition of the contacts' unique index on `key` (conflictOn's), for a join to find the contact
 * through that index. The LID's equality implies its own; the number's does not: without it, on a
 * company of 100,000 contacts, the quiet statement hashed the whole contacts table for every batch
 * (replayed on a batch of 30: 625 µs a message, 111 through the index).
 */
const keyIndexed = (key: ContactKey): SQL =>
  key === "number" ? sql`c.number <> ''` : sql`c.lid is not null`;

/** A contact still named by its number takes the phone's name (in `on conflict do update`). */
const RENAMES = sql`c.name = c.number and excluded.name <> excluded.number`;

/**
 * Finds or creates the contact: a new one is named by the phone; one still named by its number
 * takes the phone's name; a LID learnt later is kept. Answers the row, `inserted` and `renamed`.
 */
function contactUpsert(key: ContactKey): SQL {
  return sql`
    insert into contacts as c (company_id, name, number, lid, is_group, created_at, updated_at)
    values (${p("companyId")}::int, ${p("name")}::text, ${p("number")}::text, ${p("lid")}::text,
            ${p("isGroup")}::boolean, ${p("at")}::timestamptz, ${p("at")}::timestamptz)
    on conflict ${conflictOn(key)} do update set
      lid = coalesce(excluded.lid, c.lid),
      name = case when ${RENAMES} then excluded.name else c.name end,
      updated_at = case when ${RENAMES} then excluded.updated_at else c.updated_at end
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
 * Each message finds its ticket through its contact (`offset 0` keeps that join first): left to
 * itself, the planner (which reckons these CTEs hold a row or two) joined the batch's messages to its
 * tickets on the connection alone, every message with every ticket, and hashed those N² wide rows
 * (2,304 for a batch of 48) before matching the contacts.
 * A twin of one of the messages committed by someone else meanwhile fails the unique index
 * (messages_whatsapp_wid_uq): the statement changes nothing and is run again, leaving it out.
 */
function batchStatement(key: ContactKey, quiet = false): SQL {
  const v = quiet ? quietParts(key) : fullParts(key);
  const messageColumns = columnList(messages);
  return sql`
    with input as (
      select * from jsonb_to_recordset(${sql.placeholder("rows")}::jsonb) as x(${INPUT_COLUMNS})
    ),
    unseen as (
      select i.* from input i
      where not exists (select 1 from messages m where m.whatsapp_id = i.whatsapp_id and m.wid = i.wid offset 0)
    ),
    ${v.ctes}
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
      from ${v.messagesWithTickets}
      order by f.message_id
      returning ${messageColumns}
    )${v.afterMessages}
    select f.idx, row_to_json(ct) as contact, ${v.contactFlags},
      row_to_json(tk) as ticket, row_to_json(m) as message, row_to_json(q) as quoted,
      u.name as user_name, qu.name as queue_name, qu.color as queue_color, w.name as whatsapp_name,
      coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color))
                from ticket_tags tt join tags g on g.id = tt.tag_id
                where tt.company_id = tk.company_id and tt.ticket_id = tk.id), '[]') as tags${v.moreColumns}
    from message m
      join fresh f on f.message_id = m.id
      ${v.contactJoins}
      join ticket tk on tk.id = m.ticket_id
      left join lateral (
        select ${messageColumns} from messages where id = m.quoted_msg_id
        union all select ${messageColumns} from message where id = m.quoted_msg_id
      ) q on true
      left join users u on u.id = tk.user_id
      left join queues qu on qu.id = tk.queue_id
      left join whatsapps w on w.id = tk.whatsapp_id
    ${v.ending}`;
}

/** Where the full and the quiet statements differ (batchStatement puts each part in its place). */
interface StatementParts {
  /** The CTEs from the unseen messages to `ticket` (each with its trailing comma). */
  ctes: SQL;
  /** The batch's messages (`f`) with their tickets (`tk`), for the messages' insert. */
  messagesWithTickets: SQL;
  /** CTEs after the messages' insert (with their leading comma). */
  afterMessages: SQL;
  /** The answer's `inserted` and `renamed` columns. */
  contactFlags: SQL;
  /** The answer's columns after `tags` (with their leading comma). */
  moreColumns: SQL;
  /** The answer's joins that find each message's contact (`ct`). */
  contactJoins: SQL;
  /** The answer's end: its order, and the quiet statement's rows with no message. */
  ending: SQL;
}

/** The full statement: contacts found or created, tickets found, opened or joined in a rating wait. */
function fullParts(key: ContactKey): StatementParts {
  const k = sql.identifier(key);
  return {
    ctes: sql`${fullContacts(key)}
    ${ticketsOf()}`,
    messagesWithTickets: sql`(select f.*, ct.id as contact_id from fresh f
              join contact ct on ct.company_id = f.company_id and ct.${k} = f.${k} offset 0) f
        join ticket tk on tk.contact_id = f.contact_id and tk.whatsapp_id = f.whatsapp_id`,
    afterMessages: sql``,
    contactFlags: sql`ct.inserted, (ct.updated_at = p.at) as renamed`,
    moreColumns: sql``,
    contactJoins: sql`join contact ct on ct.id = m.contact_id
      join person p on p.company_id = ct.company_id and p.${k} = ct.${k}`,
    ending: sql`order by f.idx`,
  };
}

/**
 * The quiet statement: its contacts and live tickets only read or moved, by the ids quietContacts
 * found; the bot's turns queued; a row with no message for each message it leaves to the other path.
 */
function quietParts(key: ContactKey): StatementParts {
  return {
    ctes: sql`${quietContacts(key)}
    ${quietMessages()}
    ${liveTickets()}`,
    messagesWithTickets: sql`fresh f join ticket tk on tk.id = f.ticket_id`,
    afterMessages: sql`,
    turns as (${botTurnsOf(sql`message`, sql`ticket`)})`,
    contactFlags: sql`false as inserted, false as renamed`,
    moreColumns: sql`,
      (select count(*) from turns)::int as turns`,
    contactJoins: sql`join contacts ct on ct.id = m.contact_id`,
    ending: sql`union all
    select u.idx, null, null, null, null, null, null, null, null, null, null, null, 0
    from unseen u
    where not exists (select 1 from fresh f join message m on m.id = f.message_id where f.idx = u.idx)
    order by idx`,
  };
}

/**
 * The full statement's messages, contacts and conversations (the CTEs `numbered` to `conversation`):
 * each contact found or created by its key, renamed when still named by its number, its LID kept.
 */
function fullContacts(key: ContactKey): SQL {
  const k = sql.identifier(key);
  return sql`numbered as (
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
      on conflict ${conflictOn(key)} do update set
        lid = coalesce(excluded.lid, c.lid),
        name = case when ${RENAMES} then excluded.name else c.name end,
        updated_at = case when ${RENAMES} then excluded.updated_at else c.updated_at end
      returning ${columnList(contacts)}, (xmax = 0) as inserted
    ),
    conversation as (
      select distinct on (ct.id, f.whatsapp_id) f.company_id, ct.id as contact_id, f.whatsapp_id,
        ct.is_group, f.preview, f.updated_at,
        (sum(f.unread) over (partition by ct.id, f.whatsapp_id))::int as unread
      from fresh f join contact ct on ct.company_id = f.company_id and ct.${k} = f.${k}
      order by ct.id, f.whatsapp_id, f.idx desc
    ),`;
}

/**
 * The quiet statement's messages and conversations: each quiet message carries the ids of the
 * contact and the live ticket quietContacts found (the contact keeps its name and LID: nothing to
 * write, and the answer reads it from its table), so no CTE is joined to another on the contact's
 * key. Such joins were nested loops over CTE scans, every row of one with every row of the other:
 * the planner reckons a CTE joined on two or three columns holds one row. Replayed alone on a batch
 * of 30, the statement took 130 µs a message with those joins, 118 with the contact's id carried,
 * 106 with the ticket's too.
 */
function quietMessages(): SQL {
  return sql`numbered as (
      select idx, contact_id, ticket_id, nextval(pg_get_serial_sequence('messages', 'id')) as message_id
      from (select idx, contact_id, ticket_id from marked where quiet order by idx) arrival
    ),
    fresh as (select u.*, n.message_id, n.contact_id, n.ticket_id from unseen u join numbered n using (idx)),
    conversation as (
      select distinct on (f.contact_id, f.whatsapp_id) f.company_id, f.contact_id, f.ticket_id, f.whatsapp_id,
        f.is_group, f.preview, f.updated_at,
        (sum(f.unread) over (partition by f.contact_id, f.whatsapp_id))::int as unread
      from fresh f
      order by f.contact_id, f.whatsapp_id, f.idx desc
    ),`;
}

/**
 * The batch statement's tickets (the `ticket` CTE, and the CTEs before it): the rating wait's
 * ticket, or the live one, opened when there is none (see batchStatement).
 */
function ticketsOf(): SQL {
  return sql`rating as (
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
    ticket as (select * from rated union all select * from opened),`;
}

/**
 * The quiet statement's tickets: the live tickets quietContacts found (by id), moved by their
 * messages. No rating wait (it needs no live ticket) and no ticket to open: a ticket closed
 * since quietContacts looked is not updated, its messages store nothing, and the statement answers
 * them as rows with no message, for the transaction with the followers (which opens the next ticket
 * with its followers, or joins the rating wait).
 */
function liveTickets(): SQL {
  return sql`ticket as (
      update tickets t set
        last_message = g.preview,
        unread_messages = t.unread_messages + g.unread,
        updated_at = g.updated_at
      from conversation g
      where t.id = g.ticket_id and t.status <> 'closed'
      returning ${columnList(tickets, "t")}
    ),`;
}

/**
 * The quiet statement's contacts (see quietBatch): those of the batch that exist and keep their
 * names and LIDs (the statement then only reads them), whose every message goes to a ticket already
 * live on its connection, whose service-level clock does not stand waiting on the customer
 * (sla_paused_at: their message resumes it, the service levels' follower's work) and is no answer a
 * campaign may take (campaignMayAnswer, with the companies' opt-out words read once a batch). Their
 * messages need no follower but the bot's turns, which the statement queues itself. Each unseen
 * row's index is marked with its contact's id and `quiet` (the same for all of a contact's rows), so
 * the statement's estimates stay those of the batch's rows, and quietMessages carries the contact.
 */
function quietContacts(key: ContactKey): SQL {
  const k = sql.identifier(key);
  return sql`opt_out as materialized (${campaignOptOutWords(sql`(select distinct company_id from unseen)`)}),
    marked as materialized (
      select r.idx, r.contact_id, r.ticket_id,
        bool_and(r.row_quiet) over (partition by r.company_id, r.${k}) as quiet
      from (
        select u.idx, u.company_id, u.${k}, c.id as contact_id, live.id as ticket_id, (live.id is not null
          and not (c.name = c.number and first_value(u.name) over w <> first_value(u.number) over w)
          and (u.lid is null or u.lid = c.lid)
          and (u.from_me or u.is_group
               or not ${campaignMayAnswer(sql`u.company_id`, sql`c.id`, sql`u.body`, sql`o`)})) as row_quiet
        from unseen u left join contacts c on c.company_id = u.company_id and c.${k} = u.${k} and ${keyIndexed(key)}
          left join lateral (select t.id from tickets t where t.company_id = u.company_id and t.contact_id = c.id
                               and t.whatsapp_id = u.whatsapp_id and t.status <> 'closed'
                               and t.sla_paused_at is null) live on true
          join opt_out o on o.company_id = u.company_id
        window w as (partition by u.company_id, u.${k} order by u.idx)
      ) r
    ),`;
}

export type Json = Record<string, unknown>;
export interface ConversationRow {
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
    { arrayRows: true },
  ),
  lid: new PreparedSql<{ rows: string }, ConversationRow>("inbound_batch_by_lid", batchStatement("lid"), {
    arrayRows: true,
  }),
};

/**
 * The quiet statement by contact key: the batch statement for the messages of quiet contacts
 * (quietContacts) alone, in autocommit, with their bot's turns queued in it (botTurnsOf); the other
 * messages answer a row with no message, for the transaction with the followers.
 */
export const quietBatch = {
  number: new PreparedSql<{ rows: string }, ConversationRow & { turns: number }>(
    "inbound_quiet_batch_by_number",
    batchStatement("number", true),
    { arrayRows: true },
  ),
  lid: new PreparedSql<{ rows: string }, ConversationRow & { turns: number }>(
    "inbound_quiet_batch_by_lid",
    batchStatement("lid", true),
    { arrayRows: true },
  ),
};

/** A contact saved alone (a reaction, a contact update): its upsert by key. */
export const contactAlone = {
  number: new PreparedSql<ContactValues, Json & { inserted: boolean; renamed: boolean }>(
    "inbound_contact_by_number",
    contactUpsert("number"),
  ),
  lid: new PreparedSql<ContactValues, Json & { inserted: boolean; renamed: boolean }>(
    "inbound_contact_by_lid",
    contactUpsert("lid"),
  ),
};
