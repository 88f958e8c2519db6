import { z } from "zod";
import { idList, pageNumber, searchText } from "./validation.js";

/**
 * The dashboard and the ticket reports (GET /dashboard, /dashboard/ticketsDay, /dashboard/ticketsUsers,
 * /ticket/reports, /ticket/reports/export). Admins only (`dashboard:view`); every figure is the
 * caller's company's, whatever the query says (a `companyId` parameter is accepted and ignored).
 *
 * Days are calendar days in the company's time zone (setting `timezone`, default America/Sao_Paulo):
 * a range `from`..`to` covers from `from` 00:00 to the end of `to`, in that zone.
 * A period of `days` N is the last N days, today included.
 * Times (avgSupportTime, avgWaitTime, supportTime, waitTime) are minutes, rounded to one decimal.
 *   - wait time: from the moment the ticket joined a queue (or was created, with no queue) until an
 *     agent accepted it;
 *   - support time: from the agent's acceptance until the ticket was resolved.
 */

/** The dashboard's period choices (spec: 3, 7, 15, 30, 60, 90 days). */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
/** With no parameters at all, the API answers this many days (today and the 6 before). */
export const DASHBOARD_DEFAULT_DAYS = 7;
/** The longest range one request may ask for, in days. */
export const DASHBOARD_MAX_RANGE_DAYS = 366;
export const REPORT_PAGE_SIZE = 20;
export const REPORT_MAX_PAGE_SIZE = 100;
/** The CSV export stops after this many rows. */
export const REPORT_EXPORT_MAX_ROWS = 100_000;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for an existing calendar date written YYYY-MM-DD. */
export function isCalendarDate(v: string): boolean {
  const m = DAY.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}

/** A calendar date, YYYY-MM-DD. An empty string counts as absent. */
const calendarDate = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.string("validation.invalid").trim().refine(isCalendarDate, "validation.invalid").optional(),
);

const periodDays = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .min(1, "validation.invalid")
    .max(DASHBOARD_MAX_RANGE_DAYS, "validation.invalid")
    .optional(),
);

/** Whole days from `from` to `to` (YYYY-MM-DD), both counted. */
function rangeLength(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A start after its end: 'validation.endBeforeStart' on the end; longer than the maximum: 'validation.invalid'. */
function checkRange<T extends Record<string, unknown>>(fromKey: keyof T & string, toKey: keyof T & string) {
  return (v: T, ctx: z.RefinementCtx) => {
    const from = v[fromKey];
    const to = v[toKey];
    if (typeof from !== "string" || typeof to !== "string") return;
    if (from > to) ctx.addIssue({ code: "custom", path: [toKey], message: "validation.endBeforeStart" });
    else if (rangeLength(from, to) > DASHBOARD_MAX_RANGE_DAYS)
      ctx.addIssue({ code: "custom", path: [toKey], message: "validation.invalid" });
  };
}

/**
 * GET /dashboard. `days` wins over dates; else `date_from`..`date_to` (one of them alone: that one
 * day to today, or the single day `date_to`); no parameters: the last DASHBOARD_DEFAULT_DAYS days.
 * `date_from` after `date_to`, or a range over DASHBOARD_MAX_RANGE_DAYS: 400 ERR_VALIDATION.
 */
export const dashboardQuerySchema = z
  .object({
    days: periodDays,
    date_from: calendarDate,
    date_to: calendarDate,
  })
  .superRefine(checkRange("date_from", "date_to"));
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/**
 * GET /dashboard/ticketsDay and /dashboard/ticketsUsers: `initialDate`..`finalDate`, read as
 * /dashboard reads `date_from`..`date_to`; `days` is accepted as on /dashboard and wins.
 */
export const dashboardChartQuerySchema = z
  .object({
    initialDate: calendarDate,
    finalDate: calendarDate,
    days: periodDays,
  })
  .superRefine(checkRange("initialDate", "finalDate"));
export type DashboardChartQuery = z.infer<typeof dashboardChartQuerySchema>;

/** The range a dashboard answer covers, as the server resolved it. */
export interface DashboardRange {
  /** YYYY-MM-DD, in `timezone`. */
  from: string;
  to: string;
  timezone: string;
}

export interface DashboardCounters {
  /** Tickets open (in service) now: live, whatever the period. */
  supportHappening: number;
  /** Tickets pending (waiting) now: live, whatever the period. */
  supportPending: number;
  /** Tickets resolved within the period. */
  supportFinished: number;
  /** Average support time of the tickets resolved within the period (minutes); null: none. */
  avgSupportTime: number | null;
  /** Average wait time of the tickets accepted within the period (minutes); null: none. */
  avgWaitTime: number | null;
  /** The company's connections whose status is CONNECTED. */
  totalWhatsappSessions: number;
  /** Companies on the platform: for a super user only, else null. */
  totalCompanies: number | null;
}

export interface DashboardAttendant {
  id: number;
  name: string;
  /** Average rating (1 to 3, one decimal) of the ratings given within the period; null: none. */
  rating: number | null;
  /** Number of ratings behind `rating`. */
  ratings: number;
  /** Average support time (minutes) of this user's tickets resolved within the period; null: none. */
  avgSupportTime: number | null;
  /** Tickets this user resolved within the period. */
  finished: number;
  online: boolean;
}

/** GET /dashboard. Attendants: every user of the company, by name. */
export interface DashboardData {
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
  range: DashboardRange;
}

/**
 * GET /dashboard/ticketsDay, in the shape clients of this API family read: tickets created per day
 * of the range (`data`: "dd/mm/YYYY"), every day present (0 when none); when the range is a single
 * day, per hour of that day instead (`horario`: 0 to 23, all 24). `count`: the sum.
 */
export type TicketsDayPoint = { horario: number; total: number } | { data: string; total: number };
export interface TicketsDayData {
  data: TicketsDayPoint[];
  count: number;
  range: DashboardRange;
}

/** "dd/mm/YYYY" (a day point's `data`) as YYYY-MM-DD. */
export function dayPointDate(data: string): string {
  const [d, m, y] = data.split("/");
  return `${y}-${m}-${d}`;
}

/**
 * GET /dashboard/ticketsUsers, in the shape clients of this API family read: tickets created within
 * the range per the agent holding them now (`nome`, `quantidade`; tickets with no agent are left
 * out), most first, then by name.
 */
export interface TicketsUsersPoint {
  userId: number;
  nome: string;
  quantidade: number;
}
export interface TicketsUsersData {
  data: TicketsUsersPoint[];
  range: DashboardRange;
}

/**
 * GET /ticket/reports (and /ticket/reports/export, same parameters, no paging): tickets created within
 * the range (`days`, or `initialDate`..`finalDate`, read as /dashboard reads its dates),
 * newest first. `searchParam` finds contacts as the ticket search does: the start of a word of
 * the name or number (any case), or 4 or more digits anywhere in the number.
 */
export const ticketReportQuerySchema = z
  .object({
    days: periodDays,
    initialDate: calendarDate,
    finalDate: calendarDate,
    queueIds: idList.optional().default([]),
    userIds: idList.optional().default([]),
    status: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.enum(["pending", "open", "closed"], "validation.invalid").optional(),
    ),
    searchParam: searchText(100),
    pageNumber,
    pageSize: z.coerce
      .number("validation.invalid")
      .int()
      .min(1)
      .max(REPORT_MAX_PAGE_SIZE)
      .optional()
      .default(REPORT_PAGE_SIZE),
  })
  .superRefine(checkRange("initialDate", "finalDate"));
export type TicketReportQuery = z.infer<typeof ticketReportQuerySchema>;

/** One line of the report table (and of the CSV). Times are ISO strings; durations minutes. */
export interface TicketReportRow {
  id: number;
  uuid: string;
  status: "pending" | "open" | "closed";
  contact: { id: number; name: string; number: string };
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  whatsapp: { id: number; name: string } | null;
  createdAt: string;
  /** When it was last resolved; null while not closed. */
  closedAt: string | null;
  /** Support time (minutes): acceptance to resolution; null until both happened. */
  supportTime: number | null;
  /** Wait time (minutes): queue entry (or creation) to acceptance; null until accepted. */
  waitTime: number | null;
  /** 1 unsatisfied, 2 satisfied, 3 very satisfied; null: not rated. */
  rating: number | null;
}

export interface TicketReportPage {
  tickets: TicketReportRow[];
  count: number;
  hasMore: boolean;
  range: DashboardRange;
}
