import {
  DASHBOARD_DEFAULT_DAYS,
  type DashboardChartQuery,
  type DashboardData,
  type DashboardQuery,
  type DashboardRange,
  REPORT_EXPORT_MAX_ROWS,
  type TicketReportPage,
  type TicketReportQuery,
  type TicketReportRow,
  type TicketsDayData,
  type TicketsDayPoint,
  type TicketsUsersData,
  todayInZone,
  zoneOffsetMs,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { toCsv } from "../contacts/csv.js";
import { REPORT_CSV_HEADER, minutes, presentReportRow, reportCsvLine } from "./present.js";
import { companyTimeZone } from "../settings/queries.js";
import * as q from "./queries.js";

export type DashboardDeps = Pick<Deps, "db" | "now">;

/** YYYY-MM-DD plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The instant a calendar day starts in a time zone (midnight there, daylight saving included). */
export function startOfDay(day: string, timeZone: string): Date {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const offsetAt = (instant: number) => zoneOffsetMs(instant, timeZone);
  let at = guess - offsetAt(guess);
  // Once more, for a midnight on the other side of a daylight-saving change from the first guess.
  at = guess - offsetAt(at);
  // A midnight the clocks skip (the change at 00:00, as in Santiago): the day starts at the change.
  const dayAt = (instant: number) => new Date(instant + offsetAt(instant)).toISOString().slice(0, 10);
  if (dayAt(at) !== day) {
    const after = guess - offsetAt(at - 6 * 3_600_000);
    if (dayAt(after) === day) at = after;
  }
  return new Date(at);
}

/**
 * The calendar days a request covers: `days` N → the last N days, today included; else the dates
 * (a start alone runs to today, an end alone is that single day); nothing → the default period.
 */
export function resolveRange(
  today: string,
  timeZone: string,
  input: { days?: number; from?: string; to?: string },
): DashboardRange {
  let from: string;
  let to: string;
  if (input.days) [from, to] = [addDays(today, 1 - input.days), today];
  else if (input.from && input.to) [from, to] = [input.from, input.to];
  else if (input.from) [from, to] = [input.from, input.from > today ? input.from : today];
  else if (input.to) [from, to] = [input.to, input.to];
  else [from, to] = [addDays(today, 1 - DASHBOARD_DEFAULT_DAYS), today];
  return { from, to, timezone: timeZone };
}

export function spanOf(range: DashboardRange): q.Span {
  return {
    start: startOfDay(range.from, range.timezone),
    end: startOfDay(addDays(range.to, 1), range.timezone),
  };
}

export function createDashboardService({ db, now }: DashboardDeps) {
  /** Admins only (dashboard:view); the range in the caller's company's zone. */
  async function rangeFor(actor: AuthContext, input: { days?: number; from?: string; to?: string }) {
    authorize(actor, "dashboard:view");
    const timeZone = await companyTimeZone(db, actor.companyId);
    const range = resolveRange(todayInZone(now(), timeZone), timeZone, input);
    return { range, span: spanOf(range) };
  }

  function reportFilter(query: TicketReportQuery, span: q.Span): q.ReportFilter {
    return {
      span,
      queueIds: query.queueIds,
      userIds: query.userIds,
      status: query.status,
      search: query.searchParam,
    };
  }

  return {
    async dashboard(actor: AuthContext, query: DashboardQuery): Promise<DashboardData> {
      const { range, span } = await rangeFor(actor, {
        days: query.days,
        from: query.date_from,
        to: query.date_to,
      });
      const [c, people] = await Promise.all([
        q.counters(db, actor.companyId, span, actor.super),
        q.attendants(db, actor.companyId, span),
      ]);
      return {
        counters: {
          supportHappening: c.supportHappening,
          supportPending: c.supportPending,
          supportFinished: c.supportFinished,
          avgSupportTime: minutes(c.avgSupportSeconds),
          avgWaitTime: minutes(c.avgWaitSeconds),
          totalWhatsappSessions: c.totalWhatsappSessions,
          totalCompanies: actor.super ? c.totalCompanies : null,
        },
        attendants: people.map((p) => ({
          id: p.id,
          name: p.name,
          rating: p.rating === null ? null : Math.round(p.rating * 10) / 10,
          ratings: p.ratings,
          avgSupportTime: minutes(p.avgSupportSeconds),
          finished: p.finished,
          online: p.online,
        })),
        range,
      };
    },

    /** Per day of the range, every day present; a single day: per hour. */
    async ticketsDay(actor: AuthContext, query: DashboardChartQuery): Promise<TicketsDayData> {
      const { range, span } = await rangeFor(actor, {
        days: query.days,
        from: query.initialDate,
        to: query.finalDate,
      });
      const unit = range.from === range.to ? "hour" : "day";
      const counts = new Map(
        (await q.ticketsPer(db, actor.companyId, span, range.timezone, unit)).map((r) => [r.bucket, r.total]),
      );
      const data: TicketsDayPoint[] =
        unit === "hour"
          ? Array.from({ length: 24 }, (_, hour) => ({ horario: hour, total: counts.get(String(hour)) ?? 0 }))
          : Array.from(
              { length: Math.round((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000) + 1 },
              (_, i) => {
                const [y, m, d] = addDays(range.from, i).split("-");
                return { data: `${d}/${m}/${y}`, total: counts.get(`${y}-${m}-${d}`) ?? 0 };
              },
            );
      return { data, count: data.reduce((sum, p) => sum + p.total, 0), range };
    },

    async ticketsUsers(actor: AuthContext, query: DashboardChartQuery): Promise<TicketsUsersData> {
      const { range, span } = await rangeFor(actor, {
        days: query.days,
        from: query.initialDate,
        to: query.finalDate,
      });
      const users = await q.ticketsPerUser(db, actor.companyId, span);
      return { data: users.map((u) => ({ userId: u.userId, nome: u.name, quantidade: u.total })), range };
    },

    async reports(actor: AuthContext, query: TicketReportQuery): Promise<TicketReportPage> {
      const { range, span } = await rangeFor(actor, {
        days: query.days,
        from: query.initialDate,
        to: query.finalDate,
      });
      const filter = reportFilter(query, span);
      const offset = (query.pageNumber - 1) * query.pageSize;
      const [count, rows] = await Promise.all([
        q.countReport(db, actor.companyId, filter),
        q.reportRows(db, actor.companyId, filter, query.pageSize, offset),
      ]);
      return {
        tickets: rows.map(presentReportRow),
        count,
        hasMore: offset + rows.length < count,
        range,
      };
    },

    /** The same filter as the report, every row (up to REPORT_EXPORT_MAX_ROWS), as a CSV document. */
    async exportCsv(
      actor: AuthContext,
      query: TicketReportQuery,
    ): Promise<{ csv: string; range: DashboardRange }> {
      const { range, span } = await rangeFor(actor, {
        days: query.days,
        from: query.initialDate,
        to: query.finalDate,
      });
      const rows: TicketReportRow[] = (
        await q.reportRows(db, actor.companyId, reportFilter(query, span), REPORT_EXPORT_MAX_ROWS, 0)
      ).map(presentReportRow);
      return {
        csv: toCsv([REPORT_CSV_HEADER, ...rows.map((r) => reportCsvLine(r, range.timezone))]),
        range,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
