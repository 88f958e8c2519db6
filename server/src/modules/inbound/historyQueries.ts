import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "../../db/client.js";

/**
 * The statements of a connection's history import (history.ts): apart from the live path's batch
 * statement (batchQueries.ts), which they leave as it is. A message's row is the same; the ticket
 * it joins is chosen otherwise (an old message may belong to a closed conversation) and nothing of
 * it is announced as new.
 */

/** The ids among `wids` the connection has stored already. */
export async function storedWids(
  db: Executor,
  companyId: number,
  whatsappId: number,
  wids: string[],
): Promise<Set<string>> {
  if (wids.length === 0) return new Set();
  const rows = await queryRows<{ wid: string }>(
    db,
    sql`select wid from messages
        where company_id = ${companyId} and whatsapp_id = ${whatsappId}
          and wid in (select jsonb_array_elements_text(${JSON.stringify(wids)}::jsonb))`,
  );
  return new Set(rows.map((r) => r.wid));
}

export interface HistoryTicket {
  id: number;
  status: string;
  updatedAt: Date;
  /** The last message the company sent on it (its customer's earlier messages were answered). */
  lastFromMeAt: Date | null;
}

/** The contact's ticket on the connection a history import starts from: its live one, else its latest. */
export async function latestTicketOf(
  db: Executor,
  companyId: number,
  contactId: number,
  whatsappId: number,
): Promise<HistoryTicket | null> {
  const [row] = await queryRows<{
    id: number;
    status: string;
    updated_at: Date | string;
    last_from_me: Date | string | null;
  }>(
    db,
    sql`select t.id, t.status, t.updated_at,
          (select max(m.created_at) from messages m where m.ticket_id = t.id and m.from_me) as last_from_me
        from tickets t
        where t.company_id = ${companyId} and t.contact_id = ${contactId} and t.whatsapp_id = ${whatsappId}
        order by (t.status <> 'closed') desc, t.updated_at desc, t.id desc
        limit 1`,
  );
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    updatedAt: new Date(row.updated_at),
    lastFromMeAt: row.last_from_me ? new Date(row.last_from_me) : null,
  };
}

/**
 * The contact's live ticket on the connection, opened as the live path opens one when there is none
 * (pending, in the connection's queue when it has exactly one; the partial unique index keeps it
 * one, whoever opens it first): its unread count moved by `unread`, its last message the imported
 * one only when that is newer than what it shows.
 */
export async function liveTicketForHistory(
  db: Executor,
  v: {
    companyId: number;
    contactId: number;
    whatsappId: number;
    isGroup: boolean;
    lastMessage: string;
    unread: number;
    firstAt: Date;
    lastAt: Date;
  },
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into tickets as t (company_id, contact_id, whatsapp_id, queue_id, status, is_group,
                                  last_message, unread_messages, created_at, updated_at)
        values (${v.companyId}, ${v.contactId}, ${v.whatsappId},
          (select case when count(*) = 1 then min(wq.queue_id) end from whatsapp_queues wq
            where wq.company_id = ${v.companyId} and wq.whatsapp_id = ${v.whatsappId}),
          'pending', ${v.isGroup}, ${v.lastMessage}, ${v.unread},
          ${v.firstAt.toISOString()}::timestamptz, ${v.lastAt.toISOString()}::timestamptz)
        on conflict (company_id, contact_id, whatsapp_id) where status <> 'closed' do update set
          last_message = case when excluded.updated_at > t.updated_at then excluded.last_message
                          else t.last_message end,
          unread_messages = t.unread_messages + excluded.unread_messages,
          updated_at = greatest(t.updated_at, excluded.updated_at)
        returning t.id`,
  );
  return row!.id;
}

/** A history message's row (messages' columns the import fills). */
export interface HistoryMessageRow {
  wid: string;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: string;
  mediaMime: string | null;
  mediaName: string | null;
  mediaStatus: "pending" | "failed" | "tooLarge" | null;
  participant: string | null;
  isForwarded: boolean;
  quotedWid: string | null;
  createdAt: string;
}

const HISTORY_COLUMNS = sql.raw(`wid text, body text, from_me boolean, read boolean, ack smallint,
  media_type text, media_mime text, media_name text, media_status text, participant text,
  is_forwarded boolean, quoted_wid text, created_at timestamptz`);

/**
 * Stores one ticket's history messages; one already stored (by the live path meanwhile, or by an
 * earlier import) is left as it is. Quotes are linked afterwards, so a message quoting one stored
 * by the same statement finds it. Answers the messages stored, by wid.
 */
export async function insertHistoryMessages(
  db: Executor,
  target: { companyId: number; whatsappId: number; ticketId: number; contactId: number; at: Date },
  rows: HistoryMessageRow[],
): Promise<{ id: number; wid: string }[]> {
  if (rows.length === 0) return [];
  const input = JSON.stringify(
    rows.map((r) => ({
      wid: r.wid,
      body: r.body,
      from_me: r.fromMe,
      read: r.read,
      ack: r.ack,
      media_type: r.mediaType,
      media_mime: r.mediaMime,
      media_name: r.mediaName,
      media_status: r.mediaStatus,
      participant: r.participant,
      is_forwarded: r.isForwarded,
      quoted_wid: r.quotedWid,
      created_at: r.createdAt,
    })),
  );
  const { companyId, whatsappId, ticketId, contactId } = target;
  const stored = await queryRows<{ id: number; wid: string }>(
    db,
    sql`insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, read, ack,
                              media_type, media_mime, media_name, media_status, participant, is_forwarded,
                              created_at, updated_at)
        select ${companyId}, ${ticketId}, ${contactId}, ${whatsappId}, x.wid, x.body, x.from_me, x.read, x.ack,
          x.media_type, x.media_mime, x.media_name, x.media_status, x.participant, x.is_forwarded,
          x.created_at, ${target.at.toISOString()}::timestamptz
        from jsonb_to_recordset(${input}::jsonb) as x(${HISTORY_COLUMNS})
        order by x.created_at
        on conflict (whatsapp_id, wid) where wid is not null do nothing
        returning id, wid`,
  );
  if (stored.length > 0 && rows.some((r) => r.quotedWid))
    await db.execute(
      sql`update messages m set quoted_msg_id = q.id
          from jsonb_to_recordset(${input}::jsonb) as x(${HISTORY_COLUMNS})
            join messages q on q.whatsapp_id = ${whatsappId} and q.wid = x.quoted_wid
          where x.quoted_wid is not null and m.whatsapp_id = ${whatsappId} and m.wid = x.wid
            and m.ticket_id = ${ticketId} and m.quoted_msg_id is null`,
    );
  return stored.map((r) => ({ id: Number(r.id), wid: r.wid }));
}
