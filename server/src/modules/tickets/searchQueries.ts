import { sql, type SQL } from "drizzle-orm";
import { TICKET_PAGE_SIZE, TICKET_SEARCH_COUNT_CAP, type TicketListQuery } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import type { ViewerScope } from "./policy.js";

// The ticket lists' statements: one page of a status tab for a viewer, and the search over
// contacts and messages with its budgets (what a page costs on a company with a million messages).

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
export function searchQueries(text: string): { words: string; chunks: string; terms: string[] } | null {
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
    terms: words,
  };
}

function ids(list: number[]): SQL {
  return sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  );
}

/** A text search's `count` is exact up to this many tickets; more answer TICKET_SEARCH_COUNT_CAP + 1. */
const COUNT_CAP = TICKET_SEARCH_COUNT_CAP;

/** Where a text search changes its way (see searchTickets); measured with bench/tickets. */
export interface SearchLimits {
  /** Words in at most this many of the company's messages are answered exactly from those messages. */
  exactMessages: number;
  /** How many of the list's newest tickets the walk for a common word looks at before giving up. */
  walkBudget: number;
  /** A single word starting this share of all messages or more (PostgreSQL's statistics) is walked at once. */
  commonShare: number;
}
export const SEARCH_LIMITS: SearchLimits = { exactMessages: 3000, walkBudget: 2000, commonShare: 0.01 };

const STATISTICS_TTL_MS = 10 * 60_000;
const statistics = new WeakMap<object, { at: number; words: { word: string; share: number }[] }>();

/**
 * The share of all messages (every company's) holding a word that starts with `prefix`, from the
 * statistics ANALYZE keeps of messages_search_idx: its most common words, some hundreds, read
 * again every 10 minutes. A word it does not list counts as rare (0).
 */
async function messageShare(db: Executor, prefix: string): Promise<number> {
  let held = statistics.get(db);
  if (!held || Date.now() - held.at > STATISTICS_TTL_MS) {
    const words = await queryRows<{ word: string; share: number }>(
      db,
      sql`select e.word, e.share::float8 as share
          from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(word, share)
          where s.schemaname = current_schema() and s.tablename = 'messages_search_idx'
            and e.word is not null`,
    );
    held = { at: Date.now(), words };
    statistics.set(db, held);
  }
  return held.words.reduce((sum, w) => (w.word.startsWith(prefix) ? sum + w.share : sum), 0);
}

/**
 * The ticket list: company from the login, visibility from the viewer (queues, own tickets,
 * unqueued ones with allTicket), then the list's own filters. The open and closed tabs show the
 * viewer's own tickets unless they may and asked to see all.
 */
export async function pageTickets(
  db: Executor,
  companyId: number,
  viewer: ListViewer,
  q: TicketListQuery,
  limits: SearchLimits = SEARCH_LIMITS,
) {
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
  const condition = sql.join(where, sql` and `);
  const offset = (q.pageNumber - 1) * TICKET_PAGE_SIZE;
  const search = searchQueries(q.searchParam);
  if (search)
    return searchTickets(db, companyId, condition, { ...search, text: q.searchParam }, offset, limits);

  if (q.orderBy === "slaDue") return pageBySlaDue(db, condition, offset, q.pageNumber);

  const [total] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from tickets t where ${condition}`,
  );
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select t.id from tickets t where ${condition}
        order by t.updated_at desc, t.id desc
        limit ${TICKET_PAGE_SIZE} offset ${offset}`,
  );
  const count = total?.n ?? 0;
  return { ids: rows.map((r) => r.id), count, hasMore: q.pageNumber * TICKET_PAGE_SIZE < count };
}

/**
 * "Closest to breach first" (issue 39): the tickets whose service-level clock runs, by due time
 * (tickets_company_status_sla_due_idx holds only those), then the others in the usual order. Two
 * walks rather than one sort over both: each is served by its own index, and a page that straddles
 * them takes the rest of its rows from the second.
 */
async function pageBySlaDue(db: Executor, condition: SQL, offset: number, pageNumber: number) {
  const [counts] = await queryRows<{ n: number; running: number }>(
    db,
    sql`select count(*)::int as n, count(t.sla_due_at)::int as running from tickets t where ${condition}`,
  );
  const count = counts?.n ?? 0;
  const running = counts?.running ?? 0;
  const ids: number[] = [];
  if (offset < running) {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`select t.id from tickets t where ${condition} and t.sla_due_at is not null
          order by t.sla_due_at, t.id
          limit ${TICKET_PAGE_SIZE} offset ${offset}`,
    );
    ids.push(...rows.map((r) => r.id));
  }
  if (ids.length < TICKET_PAGE_SIZE && offset + ids.length < count) {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`select t.id from tickets t where ${condition} and t.sla_due_at is null
          order by t.updated_at desc, t.id desc
          limit ${TICKET_PAGE_SIZE - ids.length} offset ${Math.max(0, offset - running)}`,
    );
    ids.push(...rows.map((r) => r.id));
  }
  return { ids, count, hasMore: pageNumber * TICKET_PAGE_SIZE < count };
}

/**
 * The tickets of `condition` whose contact (name, number) or any message matches the search,
 * newest activity first: full-text indexes on both, never LIKE through a join.
 *
 * Two ways to the same answer, picked by how common the words are (bench/tickets, 1M messages):
 *
 * - Rare words (names, numbers, order codes): the matching messages from the GIN index, their
 *   tickets with the contact's, sorted. The cost follows the number of matching messages, so this
 *   way gives up once more than `exactMessages` match (the check costs reading that many).
 * - Common words ("favor" in 10 % of the messages): reading every matching message costs
 *   300-700 ms, however the statement is written, since each is a heap row of its own. Instead,
 *   the viewer's newest tickets are walked in list order and each is probed through its own
 *   messages (messages_ticket_created_idx) until the page and the count cap are filled: a few
 *   hundred tickets at most for a word that common. A single word that PostgreSQL's statistics
 *   call common is walked at once (the GIN index alone takes 10-20 ms to list 100,000 matches).
 *   The planner cannot be left to choose: it walks for a word in no message at all too (5 s).
 *   A common word found only in old tickets exhausts the walk; the exact way answers then.
 *
 * `count` is exact up to COUNT_CAP; past it the answer is COUNT_CAP + 1 ("more than 100"): the
 * exact count of a common word means reading all its messages, the very cost avoided here.
 */
async function searchTickets(
  db: Executor,
  companyId: number,
  condition: SQL,
  search: { words: string; chunks: string; terms: string[]; text: string },
  offset: number,
  limits: SearchLimits,
) {
  // One word typed ("boleto") makes both queries the same: the GIN index is then read once.
  const query =
    search.words === search.chunks
      ? sql`to_tsquery('simple', ${search.words})`
      : sql`(to_tsquery('simple', ${search.words}) || to_tsquery('simple', ${search.chunks}))`;
  // A number typed in part ("98765-4321", "4321") is found anywhere in the contact's digits, read
  // from each of the company's contacts: 5-10 ms for 30,000 (a pg_trgm index would take 0.1-0.5 ms,
  // at the price of the extension in every PGlite; see bench/README.md).
  // Only text that reads as a number does: digits inside words ("recibo 2024", "a1b2c3d4") are no phone.
  const digits = /^[\d\s()+.-]+$/.test(search.text) ? search.text.replace(/\D/g, "") : "";
  const byNumber =
    digits.length >= 4
      ? sql` union select c.id from contacts c
            where c.company_id = ${companyId} and c.number <> '' and c.number like ${`%${digits}%`}`
      : sql``;
  const contactIds = sql`select c.id from contacts c where c.company_id = ${companyId}
    and to_tsvector('simple', c.name || ' ' || c.number) @@ ${query}${byNumber}`;

  const exact = async (messageLimit: number | null) => {
    // With a limit, the planner would rather read the company's messages in messages_company_idx
    // order, computing to_tsvector for each until enough match (300 ms for "favor"): `+ 0` leaves it
    // the GIN index only, whose matches are read until the limit. Past the limit, `found` is skipped.
    const [companyOf, limit, withinLimit] =
      messageLimit === null
        ? [sql`m.company_id`, sql``, sql``]
        : [
            sql`m.company_id + 0`,
            sql` limit ${messageLimit + 1}`,
            sql` and (select count(*) from hits) <= ${messageLimit}`,
          ];
    const [row] = await queryRows<{ scanned: number; total: number; ids: number[] }>(
      db,
      sql`with hits as materialized (
            select m.ticket_id from messages m
            where ${companyOf} = ${companyId} and to_tsvector('simple', m.body) @@ ${query}${limit}
          ),
          found as (
            select t.id, t.updated_at from tickets t where ${condition}${withinLimit} and t.id in (
              select ticket_id from hits
              union select t2.id from tickets t2 where t2.company_id = ${companyId} and t2.contact_id in (${contactIds})
            )
          )
          select (select count(*) from hits)::int as scanned, (select count(*) from found)::int as total,
            array(select id from found order by updated_at desc, id desc
                  limit ${TICKET_PAGE_SIZE} offset ${offset}) as ids`,
    );
    if (!row || (messageLimit !== null && row.scanned > messageLimit)) return null;
    return {
      ids: row.ids.map(Number),
      count: Math.min(row.total, COUNT_CAP + 1),
      hasMore: offset + TICKET_PAGE_SIZE < row.total,
    };
  };

  // A single word PostgreSQL's statistics call common goes straight to the walk; any other search
  // first tries the exact way, which gives up past `exactMessages` matching messages.
  const [word] = search.terms;
  const common =
    search.terms.length === 1 &&
    search.words === search.chunks &&
    (await messageShare(db, word!)) >= limits.commonShare;
  if (!common) {
    const rare = await exact(limits.exactMessages);
    if (rare) return rare;
  }

  const want = Math.max(offset + TICKET_PAGE_SIZE, COUNT_CAP) + 1;
  const walked = sql`select t.id, t.updated_at, t.contact_id from tickets t where ${condition}
    order by t.updated_at desc, t.id desc limit ${limits.walkBudget}`;
  const found = await queryRows<{ id: number }>(
    db,
    sql`select w.id from (${walked}) w
        where w.contact_id in (${contactIds})
           or (select true from messages m
               where m.ticket_id = w.id and m.company_id = ${companyId}
                 and to_tsvector('simple', m.body) @@ ${query} limit 1)
        order by w.updated_at desc, w.id desc
        limit ${want}`,
  );
  if (found.length < want) {
    // Fewer than wanted: exact if the walk saw every ticket of the list, else the walk gave up.
    const [seen] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${walked}) w`);
    if ((seen?.n ?? 0) >= limits.walkBudget) return (await exact(null))!;
  }
  return {
    ids: found.slice(offset, offset + TICKET_PAGE_SIZE).map((r) => r.id),
    count: Math.min(found.length, COUNT_CAP + 1),
    hasMore: found.length > offset + TICKET_PAGE_SIZE,
  };
}
