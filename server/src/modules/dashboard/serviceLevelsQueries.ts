import { type SQL, sql } from "drizzle-orm";
import type { SlaTarget } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import type { Span } from "./queries.js";

/**
 * The service-level report's reads (issue 39). A ticket belongs to a period when its clocks started
 * in it (`sla_started_at`); each target's state is decided here, in SQL, so the figures, the
 * breaches list and the exports read one rule (contracts/src/slaReport.ts says it in words).
 */
export interface SlaFilter {
  span: Span;
  queueIds: number[];
  userIds: number[];
  /** The moment "not reached yet" is judged at. */
  now: Date;
}

const n = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const nOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const at = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const atOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : at(v));
const ids = (list: number[]) =>
  sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  );

function where(companyId: number, f: SlaFilter): SQL {
  const parts = [
    sql`t.company_id = ${companyId}`,
    sql`t.sla_started_at >= ${f.span.start.toISOString()}`,
    sql`t.sla_started_at < ${f.span.end.toISOString()}`,
  ];
  if (f.queueIds.length) parts.push(sql`t.queue_id in (${ids(f.queueIds)})`);
  if (f.userIds.length) parts.push(sql`t.user_id in (${ids(f.userIds)})`);
  return sql.join(parts, sql` and `);
}

/**
 * Each target's state: 'met', 'breached', 'running', or null (no such target; a first response
 * the ticket never needed: resolved in time without a reply).
 */
function states(now: Date): { firstResponse: SQL; resolution: SQL } {
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  // The resolution clock stops at its pause (waiting on the customer) or at the resolution.
  const resolutionStop = sql`case when t.sla_paused_at is not null
                                   then least(t.sla_paused_at, coalesce(t.sla_resolved_at, ${nowAt}))
                                   else coalesce(t.sla_resolved_at, ${nowAt}) end`;
  return {
    firstResponse: sql`case
      when t.sla_first_response_due_at is null then null
      when t.sla_first_response_breached_at is not null then 'breached'
      when t.sla_first_response_at is not null
        then case when t.sla_first_response_at > t.sla_first_response_due_at then 'breached' else 'met' end
      when t.sla_resolved_at is not null
        then case when t.sla_resolved_at > t.sla_first_response_due_at then 'breached' end
      when ${nowAt} >= t.sla_first_response_due_at then 'breached'
      else 'running' end`,
    resolution: sql`case
      when t.sla_resolution_due_at is null then null
      when t.sla_resolution_breached_at is not null then 'breached'
      when t.sla_resolved_at is not null and t.sla_paused_at is null
        then case when t.sla_resolved_at > t.sla_resolution_due_at then 'breached' else 'met' end
      when ${resolutionStop} >= t.sla_resolution_due_at then 'breached'
      when t.sla_resolved_at is not null then 'met'
      else 'running' end`,
  };
}

/** The report's tickets, one row each, with both targets' states and working seconds. */
function judged(companyId: number, f: SlaFilter): SQL {
  const s = states(f.now);
  return sql`select t.id, t.uuid, t.status, t.contact_id, t.queue_id, t.user_id,
                    t.sla_first_response_due_at, t.sla_first_response_at, t.sla_first_response_seconds,
                    t.sla_resolution_due_at, t.sla_resolved_at, t.sla_resolution_seconds,
                    ${s.firstResponse} as fr, ${s.resolution} as res
               from tickets t
              where ${where(companyId, f)}`;
}

export interface TargetFiguresRow {
  counted: number;
  met: number;
  breached: number;
  running: number;
  medianSeconds: number | null;
  p90Seconds: number | null;
}

export interface SlaGroupRow {
  /** "queue", "user" or "total". */
  group: "queue" | "user" | "total";
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  firstResponse: TargetFiguresRow;
  resolution: TargetFiguresRow;
}

function figures(state: string, seconds: string) {
  const st = sql.raw(state);
  const sec = sql.raw(seconds);
  return sql`count(${st}) as ${sql.raw(`${state}_counted`)},
    count(*) filter (where ${st} = 'met') as ${sql.raw(`${state}_met`)},
    count(*) filter (where ${st} = 'breached') as ${sql.raw(`${state}_breached`)},
    count(*) filter (where ${st} = 'running') as ${sql.raw(`${state}_running`)},
    percentile_cont(0.5) within group (order by ${sec}) filter (where ${st} in ('met', 'breached'))
      as ${sql.raw(`${state}_median`)},
    percentile_cont(0.9) within group (order by ${sec}) filter (where ${st} in ('met', 'breached'))
      as ${sql.raw(`${state}_p90`)}`;
}

function figuresOf(r: Record<string, unknown>, state: string): TargetFiguresRow {
  return {
    counted: n(r[`${state}_counted`]),
    met: n(r[`${state}_met`]),
    breached: n(r[`${state}_breached`]),
    running: n(r[`${state}_running`]),
    medianSeconds: nOrNull(r[`${state}_median`]),
    p90Seconds: nOrNull(r[`${state}_p90`]),
  };
}

/**
 * The figures per queue, per agent (the one holding the ticket now) and for all the report's
 * tickets, in one pass (grouping sets); medians and p90 by percentile_cont over working seconds.
 */
export async function slaFigures(db: Executor, companyId: number, f: SlaFilter): Promise<SlaGroupRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select g.*, q.name as queue_name, q.color as queue_color, u.name as user_name
      from (select grouping(j.queue_id) as by_user_or_total, grouping(j.user_id) as by_queue_or_total,
                   j.queue_id, j.user_id,
                   ${figures("fr", "sla_first_response_seconds")},
                   ${figures("res", "sla_resolution_seconds")}
              from (${judged(companyId, f)}) j
             group by grouping sets ((j.queue_id), (j.user_id), ())) g
      left join queues q on q.id = g.queue_id and q.company_id = ${companyId}
      left join users u on u.id = g.user_id and u.company_id = ${companyId}`,
  );
  return rows.map((r) => {
    // grouping() is 1 for a column the row is not grouped by.
    const byQueue = n(r.by_user_or_total) === 0;
    const byUser = n(r.by_queue_or_total) === 0;
    const group = byQueue ? "queue" : byUser ? "user" : "total";
    return {
      group,
      queue:
        group === "queue" && r.queue_id != null && r.queue_name != null
          ? { id: Number(r.queue_id), name: String(r.queue_name), color: String(r.queue_color) }
          : null,
      user:
        group === "user" && r.user_id != null && r.user_name != null
          ? { id: Number(r.user_id), name: String(r.user_name) }
          : null,
      firstResponse: figuresOf(r, "fr"),
      resolution: figuresOf(r, "res"),
    };
  });
}

/** Every missed target of the report's tickets: one row per ticket and target. */
function breachesOf(companyId: number, f: SlaFilter): SQL {
  return sql`
    select j.id, j.uuid, j.status, j.contact_id, j.queue_id, j.user_id,
           'firstResponse' as target, j.sla_first_response_due_at as due_at,
           j.sla_first_response_at as reached_at
      from (${judged(companyId, f)}) j where j.fr = 'breached'
    union all
    select j.id, j.uuid, j.status, j.contact_id, j.queue_id, j.user_id,
           'resolution' as target, j.sla_resolution_due_at as due_at, j.sla_resolved_at as reached_at
      from (${judged(companyId, f)}) j where j.res = 'breached'`;
}

export async function countBreaches(db: Executor, companyId: number, f: SlaFilter): Promise<number> {
  const [row] = await queryRows<{ total: unknown }>(
    db,
    sql`select count(*) as total from (${breachesOf(companyId, f)}) b`,
  );
  return n(row?.total);
}

export interface BreachRow {
  ticketId: number;
  uuid: string;
  status: "pending" | "open" | "closed";
  contact: { id: number; name: string };
  queue: { id: number; name: string; color: string } | null;
  user: { id: number; name: string } | null;
  target: SlaTarget;
  dueAt: Date;
  reachedAt: Date | null;
}

/** A page of the breaches: the latest due time first. */
export async function breachRows(
  db: Executor,
  companyId: number,
  f: SlaFilter,
  limit: number,
  offset: number,
): Promise<BreachRow[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select b.*, c.name as contact_name, q.name as queue_name, q.color as queue_color, u.name as user_name
      from (select * from (${breachesOf(companyId, f)}) b0
             order by b0.due_at desc, b0.id desc, b0.target limit ${limit} offset ${offset}) b
      join contacts c on c.id = b.contact_id
      left join queues q on q.id = b.queue_id
      left join users u on u.id = b.user_id
     order by b.due_at desc, b.id desc, b.target`,
  );
  return rows.map((r) => ({
    ticketId: Number(r.id),
    uuid: String(r.uuid),
    status: r.status as BreachRow["status"],
    contact: { id: Number(r.contact_id), name: String(r.contact_name) },
    queue:
      r.queue_id == null || r.queue_name == null
        ? null
        : { id: Number(r.queue_id), name: String(r.queue_name), color: String(r.queue_color) },
    user:
      r.user_id == null || r.user_name == null ? null : { id: Number(r.user_id), name: String(r.user_name) },
    target: r.target as SlaTarget,
    dueAt: at(r.due_at),
    reachedAt: atOrNull(r.reached_at),
  }));
}
