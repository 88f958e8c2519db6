import { and, eq, sql, type SQL } from "drizzle-orm";
import { TICKET_PAGE_SIZE, type TicketListQuery } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { tickets } from "../../db/schema/index.js";
import type { ViewerScope } from "./policy.js";

export interface ListViewer extends ViewerScope {
  userId: number;
  isAdmin: boolean;
  /** tickets-manager:showall granted and asked for. */
  showAll: boolean;
  /** The company's time zone, for the date filters. */
  timeZone: string;
}

const MAX_SEARCH_TERMS = 8;

/** A term as a quoted tsquery prefix: quotes and backslashes escaped, so no input is read as syntax. */
function prefixTerm(term: string): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}':*`;
}

/**
 * A search as two prefix tsqueries, either of which may match (both run on the same GIN indexes):
 *
 * - `words`: the text split into letters-and-digits words, all required ("mar silva" →
 *   'mar':* & 'silva':*). PostgreSQL's parser reads "orçamento-4" in a message as the word
 *   "orçamento" and the signed number "-4" (and "+55" as "+55"), so a word starting with a digit
 *   also matches its signed forms: "4" finds "orçamento-4", "orçamento 4" and "item 4".
 * - `chunks`: the space-separated pieces as typed, which PostgreSQL splits the way it split the
 *   stored text: "1.500", "ana@x.com" or "site.com.br" are single tokens there, whole.
 *
 * Null when nothing searchable is left.
 */
export function searchQueries(text: string): { words: string; chunks: string } | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_TERMS);
  if (!words.length) return null;
  const chunks = text
    .toLowerCase()
    .split(/\s+/)
    .filter((chunk) => /[\p{L}\p{N}]/u.test(chunk))
    .slice(0, MAX_SEARCH_TERMS);
  return {
    words: words
      .map((w) =>
        /^\p{N}/u.test(w) ? `(${[w, `-${w}`, `+${w}`].map(prefixTerm).join(" | ")})` : prefixTerm(w),
      )
      .join(" & "),
    chunks: chunks.map(prefixTerm).join(" & "),
  };
}

function ids(list: number[]): SQL {
  return sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  );
}

/**
 * The ticket list: company from the login, visibility from the viewer (queues, own tickets,
 * unqueued ones with allTicket), then the list's own filters. The open and closed tabs show the
 * viewer's own tickets unless they may and asked to see all.
 */
export async function pageTickets(db: Executor, companyId: number, viewer: ListViewer, q: TicketListQuery) {
  const where: SQL[] = [sql`t.company_id = ${companyId}`];
  if (!viewer.isAdmin || !viewer.showAll) {
    const scope: SQL[] = [sql`t.user_id = ${viewer.userId}`];
    if (!viewer.isAdmin) {
      if (viewer.queueIds.length) scope.push(sql`t.queue_id in (${ids(viewer.queueIds)})`);
      if (viewer.allTicket) scope.push(sql`t.queue_id is null`);
    } else {
      scope.push(sql`true`);
    }
    where.push(sql`(${sql.join(scope, sql` or `)})`);
  }
  if (q.status) where.push(sql`t.status = ${q.status}`);
  if ((q.status === "open" || q.status === "closed") && !viewer.showAll && !q.searchParam) {
    where.push(sql`t.user_id = ${viewer.userId}`);
  }
  if (q.queueIds.length) {
    // The queues picked in the list's header; the viewer's own tickets always stay in view.
    const unqueued = viewer.allTicket || viewer.isAdmin ? sql` or t.queue_id is null` : sql``;
    where.push(sql`(t.queue_id in (${ids(q.queueIds)}) or t.user_id = ${viewer.userId}${unqueued})`);
  }
  if (q.users.length) where.push(sql`t.user_id in (${ids(q.users)})`);
  if (q.tags.length) {
    where.push(
      sql`exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id in (${ids(q.tags)}))`,
    );
  }
  if (q.withUnreadMessages) where.push(sql`t.unread_messages > 0`);
  if (q.date) where.push(sql`(t.created_at at time zone ${viewer.timeZone})::date = ${q.date}::date`);
  if (q.updatedAt)
    where.push(sql`(t.updated_at at time zone ${viewer.timeZone})::date = ${q.updatedAt}::date`);
  const search = searchQueries(q.searchParam);
  const digits = q.searchParam.replace(/\D/g, "");
  if (search) {
    // Full-text indexes on the contact (name, number) and on message bodies; never LIKE through a join.
    const query = sql`(to_tsquery('simple', ${search.words}) || to_tsquery('simple', ${search.chunks}))`;
    const contactMatch = sql`to_tsvector('simple', c.name || ' ' || c.number) @@ ${query}`;
    const numberMatch = digits.length >= 4 ? sql` or c.number like ${`%${digits}%`}` : sql``;
    where.push(sql`(
      t.contact_id in (select c.id from contacts c where c.company_id = ${companyId} and (${contactMatch}${numberMatch}))
      or t.id in (select m.ticket_id from messages m where m.company_id = ${companyId}
                  and to_tsvector('simple', m.body) @@ ${query}))`);
  }
  const condition = sql.join(where, sql` and `);
  const [total] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from tickets t where ${condition}`,
  );
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select t.id from tickets t where ${condition}
        order by t.updated_at desc, t.id desc
        limit ${TICKET_PAGE_SIZE} offset ${(q.pageNumber - 1) * TICKET_PAGE_SIZE}`,
  );
  const count = total?.n ?? 0;
  return { ids: rows.map((r) => r.id), count, hasMore: q.pageNumber * TICKET_PAGE_SIZE < count };
}

export async function findTicketRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
  return row ?? null;
}

export async function findTicketByUuid(db: Executor, companyId: number, uuid: string) {
  // Anything not shaped like a uuid is simply not found (the database would refuse the cast).
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) return null;
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.uuid, uuid)));
  return row ?? null;
}

/** The contact's live (not closed) ticket on a connection, with who holds it. */
export async function liveTicketOf(
  db: Executor,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
) {
  const rows = await queryRows<{ id: number; user_name: string | null; queue_name: string | null }>(
    db,
    sql`select t.id, u.name as user_name, q.name as queue_name from tickets t
        left join users u on u.id = t.user_id left join queues q on q.id = t.queue_id
        where t.company_id = ${companyId} and t.contact_id = ${contactId} and t.status <> 'closed'
          and t.whatsapp_id is not distinct from ${whatsappId}
        limit 1`,
  );
  return rows[0] ?? null;
}
