import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
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
export const calendarDate = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.string("validation.invalid").trim().refine(isCalendarDate, "validation.invalid").optional(),
);

export const periodDays = z.preprocess(
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
export function checkRange<T extends Record<string, unknown>>(
  fromKey: keyof T & string,
  toKey: keyof T & string,
) {
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
export const dashboardRangeSchema = z
  .object({
    /** YYYY-MM-DD, in `timezone`. */
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
  })
  .meta({
    id: "DashboardRange",
    description: "The days a dashboard answer covers (YYYY-MM-DD, both included), in the company's time zone",
  });
export type DashboardRange = z.infer<typeof dashboardRangeSchema>;

/** Minutes, one decimal; null when nothing was measured. */
const minutesOrNull = z.number().nonnegative().nullable();

export const dashboardCountersSchema = z
  .object({
    /** Tickets open (in service) now: live, whatever the period. */
    supportHappening: z.number().int().nonnegative(),
    /** Tickets pending (waiting) now: live, whatever the period. */
    supportPending: z.number().int().nonnegative(),
    /** Tickets resolved within the period. */
    supportFinished: z.number().int().nonnegative(),
    /** Average support time of the tickets resolved within the period (minutes); null: none. */
    avgSupportTime: minutesOrNull,
    /** Average wait time of the tickets accepted within the period (minutes); null: none. */
    avgWaitTime: minutesOrNull,
    /** The company's connections whose status is CONNECTED. */
    totalWhatsappSessions: z.number().int().nonnegative(),
    /** Companies on the platform: for a super user only, else null. */
    totalCompanies: z.number().int().nonnegative().nullable(),
  })
  .meta({ id: "DashboardCounters", description: "The dashboard's counters and average times" });
export type DashboardCounters = z.infer<typeof dashboardCountersSchema>;

export const dashboardAttendantSchema = z
  .object({
    id: rowId,
    name: z.string(),
    /** Average rating (1 to 3, one decimal) of the ratings given within the period; null: none. */
    rating: z.number().nullable(),
    /** Number of ratings behind `rating`. */
    ratings: z.number().int().nonnegative(),
    /** Average support time (minutes) of this user's tickets resolved within the period; null: none. */
    avgSupportTime: minutesOrNull,
    /** Tickets this user resolved within the period. */
    finished: z.number().int().nonnegative(),
    online: z.boolean(),
  })
  .meta({ id: "DashboardAttendant", description: "One user's figures on the dashboard" });
export type DashboardAttendant = z.infer<typeof dashboardAttendantSchema>;

/** GET /dashboard. Attendants: every user of the company, by name. */
export const dashboardDataSchema = z
  .object({
    counters: dashboardCountersSchema,
    attendants: z.array(dashboardAttendantSchema),
    range: dashboardRangeSchema,
  })
  .meta({
    id: "Dashboard",
    description: "The dashboard: counters, every user's figures, and the range they cover",
  });
export type DashboardData = z.infer<typeof dashboardDataSchema>;

/**
 * GET /dashboard/ticketsDay, in the shape clients of this API family read: tickets created per day
 * of the range (`data`: "dd/mm/YYYY"), every day present (0 when none); when the range is a single
 * day, per hour of that day instead (`horario`: 0 to 23, all 24). `count`: the sum.
 */
export const ticketsDayPointSchema = z.union([
  z.object({ horario: z.number().int().min(0).max(23), total: z.number().int().nonnegative() }),
  z.object({ data: z.string(), total: z.number().int().nonnegative() }),
]);
export type TicketsDayPoint = z.infer<typeof ticketsDayPointSchema>;
export const ticketsDayDataSchema = z
  .object({
    data: z.array(ticketsDayPointSchema),
    count: z.number().int().nonnegative(),
    range: dashboardRangeSchema,
  })
  .meta({
    id: "DashboardTicketsDay",
    description:
      "Tickets created per day of the range (data: dd/mm/YYYY), or per hour (horario) of a single day",
  });
export type TicketsDayData = z.infer<typeof ticketsDayDataSchema>;

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
export const ticketsUsersPointSchema = z.object({
  userId: rowId,
  nome: z.string(),
  quantidade: z.number().int().nonnegative(),
});
export type TicketsUsersPoint = z.infer<typeof ticketsUsersPointSchema>;
export const ticketsUsersDataSchema = z
  .object({
    data: z.array(ticketsUsersPointSchema),
    range: dashboardRangeSchema,
  })
  .meta({
    id: "DashboardTicketsUsers",
    description:
      "Tickets created within the range per the agent holding them now (nome, quantidade), most first",
  });
export type TicketsUsersData = z.infer<typeof ticketsUsersDataSchema>;

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

/** One line of the report table (and of the CSV). Durations are minutes. */
export const ticketReportRowSchema = z
  .object({
    id: rowId,
    uuid: z.string(),
    status: z.enum(["pending", "open", "closed"]),
    contact: z.object({ id: rowId, name: z.string(), number: z.string() }),
    user: z.object({ id: rowId, name: z.string() }).nullable(),
    queue: z.object({ id: rowId, name: z.string(), color: z.string() }).nullable(),
    whatsapp: z.object({ id: rowId, name: z.string() }).nullable(),
    createdAt: timestamp,
    /** When it was last resolved; null while not closed. */
    closedAt: timestamp.nullable(),
    /** Support time (minutes): acceptance to resolution; null until both happened. */
    supportTime: minutesOrNull,
    /** Wait time (minutes): queue entry (or creation) to acceptance; null until accepted. */
    waitTime: minutesOrNull,
    /** 1 unsatisfied, 2 satisfied, 3 very satisfied; null: not rated. */
    rating: z.number().int().min(1).max(3).nullable(),
  })
  .meta({ id: "TicketReportRow", description: "One ticket of the tickets report (and one line of its CSV)" });
export type TicketReportRow = z.infer<typeof ticketReportRowSchema>;

export const ticketReportPageSchema = pageOf("tickets", ticketReportRowSchema)
  .extend({ range: dashboardRangeSchema })
  .meta({ id: "TicketReportPage", description: "A page of the tickets report, and the range it covers" });
export type TicketReportPage = z.infer<typeof ticketReportPageSchema>;
