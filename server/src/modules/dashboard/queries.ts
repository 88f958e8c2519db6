import { type SQL, sql } from "drizzle-orm";
import { type Executor, queryRows } from "../../db/client.js";
import { searchQueries } from "../tickets/searchQueries.js";

/**
 * The dashboard's reads. Every one takes the caller's company first; a range is [start, end) as
 * instants, already resolved from the company's calendar days by the service.
 */
export interface Span {
  start: Date;
  end: Date;
}

const n = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const nOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const at = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const atOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : at(v));

/** Between the moment a ticket waited from (its queue entry, or its creation) and its acceptance. */
const WAIT_SECONDS = sql`extract(epoch from (tt.accepted_at - coalesce(tt.queued_at, t.created_at)))`;

export interface CounterRow {
  supportHappening: number;
  supportPending: number;
  supportFinished: number;
  /** Seconds; null when nothing to average. */
  avgSupportSeconds: number | null;
  avgWaitSeconds: number | null;
  totalWhatsappSessions: number;
  totalCompanies: number | null;
}

export async function counters(
  db: Executor,
  companyId: number,
  span: Span,
  withCompanies: boolean,
): Promise<CounterRow> {
  const start = span.start.toISOString();
  const end = span.end.toISOString();
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select
      (select count(*) from tickets where company_id = ${companyId} and status = 'open') as happening,
      (select count(*) from tickets where company_id = ${companyId} and status = 'pending') as pending,
      fin.finished, fin.avg_support, wait.avg_wait,
      (select count(*) from whatsapps where company_id = ${companyId} and status = 'CONNECTED') as sessions,
      ${withCompanies ? sql`(select count(*) from companies)` : sql`null`} as companies
    from
      (select count(*) as finished,
              avg(extract(epoch from (finished_at - accepted_at))) filter (where accepted_at is not null) as avg_support
         from ticket_tracking
        where company_id = ${companyId} and finished_at >= ${start} and finished_at < ${end}) fin,
      -- A ticket an agent opened themselves never waited: only waits of a second or more count.
      -- The ticket's creation is read only for the few that never joined a queue (bench/dashboard:
      -- a join with every accepted ticket cost 2 to 4 times as much).
      (select avg(w.seconds) filter (where w.seconds >= 1) as avg_wait
         from (select extract(epoch from (tt.accepted_at - tt.queued_at)) as seconds
                 from ticket_tracking tt
                where tt.company_id = ${companyId} and tt.accepted_at >= ${start} and tt.accepted_at < ${end}
                  and tt.queued_at is not null
               union all
               select ${WAIT_SECONDS}
                 from ticket_tracking tt join tickets t on t.id = tt.ticket_id
                where tt.company_id = ${companyId} and tt.accepted_at >= ${start} and tt.accepted_at < ${end}
                  and tt.queued_at is null) w) wait`,
  );
  return {
    supportHappening: n(row!.happening),
    supportPending: n(row!.pending),
    supportFinished: n(row!.finished),
    avgSupportSeconds: nOrNull(row!.avg_support),
    avgWaitSeconds: nOrNull(row!.avg_wait),
    totalWhatsappSessions: n(row!.sessions),
    totalCompanies: nOrNull(row!.companies),
  };
}

export interface AttendantRow {
  id: number;
  name: string;
  online: boolean;
  rating: number | null;
  ratings: number;
  finished: number;
  avgSupportSeconds: number | null;
}

/** Every user of the company, with the ratings they got and the tickets they resolved in the span. */
export async function attendants(db: Executor, companyId: number, span: Span): Promise<AttendantRow[]> {
  const start = span.start.toISOString();
  const end = span.end.toISOString();
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select u.id, u.name, u.online, r.rating, r.ratings, f.finished, f.avg_support
      from users u
      left join (select user_id, avg(rating) as rating, count(*) as ratings
                   from ticket_tracking
                  where company_id = ${companyId} and rated_at >= ${start} and rated_at < ${end}
                    and rating is not null and user_id is not null
                  group by user_id) r on r.user_id = u.id
      left join (select user_id, count(*) as finished,
                        avg(extract(epoch from (finished_at - accepted_at))) filter (where accepted_at is not null) as avg_support
                   from ticket_tracking
                  where company_id = ${companyId} and finished_at >= ${start} and finished_at < ${end}
                    and user_id is not null
                  group by user_id) f on f.user_id = u.id
     where u.company_id = ${companyId}
     order by lower(u.name), u.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: String(r.name),
    online: Boolean(r.online),
    rating: nOrNull(r.rating),
    ratings: n(r.ratings),
    finished: n(r.finished),
    avgSupportSeconds: nOrNull(r.avg_support),
  }));
}

/** Tickets created in the span, per calendar day (YYYY-MM-DD) or per hour (0-23) in `timeZone`. */
export async function ticketsPer(
  db: Executor,
  companyId: number,
  span: Span,
  timeZone: string,
  unit: "day" | "hour",
): Promise<{ bucket: string; total: number }[]> {
  const local = sql`(created_at at time zone ${timeZone})`;
  const bucket =
    unit === "day" ? sql`to_char(${local}, 'YYYY-MM-DD')` : sql`extract(hour from ${local})::int::text`;
  const rows = await queryRows<{ bucket: string; total: unknown }>(
    db,
    sql`
    select ${bucket} as bucket, count(*) as total
      from tickets
     where company_id = ${companyId} and created_at >= ${span.start.toISOString()} and created_at < ${span.end.toISOString()}
     group by 1`,
  );
  return rows.map((r) => ({ bucket: String(r.bucket), total: n(r.total) }));
}

/** Tickets created in the span, per the agent holding them now; most first. */
export async function ticketsPerUser(
  db: Executor,
  companyId: number,
  span: Span,
): Promise<{ userId: number; name: string; total: number }[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select u.id, u.name, c.total
      from (select user_id, count(*) as total
              from tickets
             where company_id = ${companyId} and user_id is not null
               and created_at >= ${span.start.toISOString()} and created_at < ${span.end.toISOString()}
             group by user_id) c
      join users u on u.id = c.user_id and u.company_id = ${companyId}
     order by c.total desc, lower(u.name), u.id`,
  );
  return rows.map((r) => ({ userId: Number(r.id), name: String(r.name), total: n(r.total) }));
}

export interface ReportFilter {
  span: Span;
  queueIds: number[];
  userIds: number[];
  status?: "pending" | "open" | "closed";
  /** The start of a word of the contact's name or number, or 4+ digits of the number. */
  search: string;
}

function reportWhere(companyId: number, f: ReportFilter): SQL {
  const parts = [
    sql`t.company_id = ${companyId}`,
    sql`t.created_at >= ${f.span.start.toISOString()}`,
    sql`t.created_at < ${f.span.end.toISOString()}`,
  ];
  if (f.queueIds.length)
    parts.push(
      sql`t.queue_id in (${sql.join(
        f.queueIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  if (f.userIds.length)
    parts.push(
      sql`t.user_id in (${sql.join(
        f.userIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  if (f.status) parts.push(sql`t.status = ${f.status}`);
  if (f.search) {
    // As the workspace's ticket search finds contacts: word prefixes of the name or number on the
    // contacts' text index, and a number typed in part anywhere in the digits.
    const search = searchQueries(f.search);
    const digits = f.search.replace(/\D/g, "");
    const byWords = search
      ? sql`to_tsvector('simple', c2.name || ' ' || c2.number) @@
             (to_tsquery('simple', ${search.words}) || to_tsquery('simple', ${search.chunks}))`
      : sql`false`;
    const byNumber =
      digits.length >= 4 ? sql` or (c2.number <> '' and c2.number like ${`%${digits}%`})` : sql``;
    parts.push(sql`t.contact_id in (select c2.id from contacts c2
                                     where c2.company_id = ${companyId} and (${byWords}${byNumber}))`);
  }
  return sql.join(parts, sql` and `);
}

export interface ReportRow {
  id: number;
  uuid: string;
  status: "pending" | "open" | "closed";
  createdAt: Date;
  contact: { id: number; name: string; number: string };
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  whatsapp: { id: number; name: string } | null;
  acceptedAt: Date | null;
  finishedAt: Date | null;
  waitSeconds: number | null;
  rating: number | null;
}

export async function countReport(db: Executor, companyId: number, f: ReportFilter): Promise<number> {
  const [row] = await queryRows<{ total: unknown }>(
    db,
    sql`select count(*) as total from tickets t where ${reportWhere(companyId, f)}`,
  );
  return n(row?.total);
}

/** The report's rows, newest first. */
export async function reportRows(
  db: Executor,
  companyId: number,
  f: ReportFilter,
  limit: number,
  offset: number,
): Promise<ReportRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select t.id, t.uuid, t.status, t.created_at,
           c.id as contact_id, c.name as contact_name, c.number as contact_number,
           u.id as user_id, u.name as user_name,
           q.id as queue_id, q.name as queue_name, q.color as queue_color,
           w.id as whatsapp_id, w.name as whatsapp_name,
           tt.accepted_at, tt.finished_at, tt.rating,
           case when tt.accepted_at is not null then greatest(0, ${WAIT_SECONDS}) end as wait_seconds
      from (select t.* from tickets t where ${reportWhere(companyId, f)}
             order by t.created_at desc, t.id desc limit ${limit} offset ${offset}) t
      join contacts c on c.id = t.contact_id
      left join ticket_tracking tt on tt.ticket_id = t.id
      left join users u on u.id = t.user_id
      left join queues q on q.id = t.queue_id
      left join whatsapps w on w.id = t.whatsapp_id
     order by t.created_at desc, t.id desc`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    uuid: String(r.uuid),
    status: r.status as ReportRow["status"],
    createdAt: at(r.created_at),
    contact: { id: Number(r.contact_id), name: String(r.contact_name), number: String(r.contact_number) },
    user: r.user_id == null ? null : { id: Number(r.user_id), name: String(r.user_name) },
    queue:
      r.queue_id == null
        ? null
        : { id: Number(r.queue_id), name: String(r.queue_name), color: String(r.queue_color) },
    whatsapp: r.whatsapp_id == null ? null : { id: Number(r.whatsapp_id), name: String(r.whatsapp_name) },
    acceptedAt: atOrNull(r.accepted_at),
    finishedAt: atOrNull(r.finished_at),
    waitSeconds: nOrNull(r.wait_seconds),
    rating: nOrNull(r.rating),
  }));
}
