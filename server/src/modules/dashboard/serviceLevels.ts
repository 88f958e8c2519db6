import * as XLSX from "@e965/xlsx";
import {
  type DashboardRange,
  SLA_REPORT_EXPORT_MAX_BREACHES,
  type SlaBreachRow,
  type SlaReport,
  type SlaReportExportQuery,
  type SlaReportQuery,
  type SlaTargetFigures,
  todayInZone,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { toCsv } from "../contacts/csv.js";
import { companyTimeZone } from "../settings/queries.js";
import { localTime } from "./present.js";
import { resolveRange, spanOf } from "./service.js";
import * as q from "./serviceLevelsQueries.js";

export type ServiceLevelReportDeps = Pick<Deps, "db" | "now">;

/** met / (met + breached) in %, one decimal; null when nothing was decided. */
function percentMet(met: number, breached: number): number | null {
  const decided = met + breached;
  return decided === 0 ? null : Math.round((met / decided) * 1000) / 10;
}

function present(f: q.TargetFiguresRow): SlaTargetFigures {
  const round = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
  return {
    counted: f.counted,
    met: f.met,
    breached: f.breached,
    running: f.running,
    metPercent: percentMet(f.met, f.breached),
    medianSeconds: round(f.medianSeconds),
    p90Seconds: round(f.p90Seconds),
  };
}

const EMPTY: q.TargetFiguresRow = {
  counted: 0,
  met: 0,
  breached: 0,
  running: 0,
  medianSeconds: null,
  p90Seconds: null,
};

const byName = (a: string | undefined, b: string | undefined) =>
  a === undefined ? (b === undefined ? 0 : 1) : b === undefined ? -1 : a.localeCompare(b, "pt");

function presentBreach(b: q.BreachRow): SlaBreachRow {
  return { ...b, dueAt: b.dueAt.toISOString(), reachedAt: b.reachedAt?.toISOString() ?? null };
}

type Figures = Omit<SlaReport, "breaches" | "breachCount" | "hasMoreBreaches">;

export function createServiceLevelReport({ db, now }: ServiceLevelReportDeps) {
  /** Admins only (dashboard:view); the period in the company's calendar days. */
  async function filterFor(actor: AuthContext, query: SlaReportExportQuery) {
    authorize(actor, "dashboard:view");
    const timeZone = await companyTimeZone(db, actor.companyId);
    const range = resolveRange(todayInZone(now(), timeZone), timeZone, {
      days: query.days,
      from: query.dateFrom,
      to: query.dateTo,
    });
    const filter: q.SlaFilter = {
      span: spanOf(range),
      queueIds: query.queueIds,
      userIds: query.userIds,
      now: now(),
    };
    return { range, filter };
  }

  async function figures(companyId: number, range: DashboardRange, filter: q.SlaFilter): Promise<Figures> {
    const rows = await q.slaFigures(db, companyId, filter);
    const total = rows.find((r) => r.group === "total");
    return {
      range,
      total: {
        firstResponse: present(total?.firstResponse ?? EMPTY),
        resolution: present(total?.resolution ?? EMPTY),
      },
      queues: rows
        .filter((r) => r.group === "queue")
        .sort((a, b) => byName(a.queue?.name, b.queue?.name))
        .map((r) => ({
          queue: r.queue,
          firstResponse: present(r.firstResponse),
          resolution: present(r.resolution),
        })),
      users: rows
        .filter((r) => r.group === "user")
        .sort((a, b) => byName(a.user?.name, b.user?.name))
        .map((r) => ({
          user: r.user,
          firstResponse: present(r.firstResponse),
          resolution: present(r.resolution),
        })),
    };
  }

  /** The whole report and every breach (up to the export's cap), for the exports. */
  async function whole(actor: AuthContext, query: SlaReportExportQuery) {
    const { range, filter } = await filterFor(actor, query);
    const [report, breaches] = await Promise.all([
      figures(actor.companyId, range, filter),
      q.breachRows(db, actor.companyId, filter, SLA_REPORT_EXPORT_MAX_BREACHES, 0),
    ]);
    return { report, breaches: breaches.map(presentBreach) };
  }

  return {
    async report(actor: AuthContext, query: SlaReportQuery): Promise<SlaReport> {
      const { range, filter } = await filterFor(actor, query);
      const offset = (query.pageNumber - 1) * query.pageSize;
      const [report, count, breaches] = await Promise.all([
        figures(actor.companyId, range, filter),
        q.countBreaches(db, actor.companyId, filter),
        q.breachRows(db, actor.companyId, filter, query.pageSize, offset),
      ]);
      return {
        ...report,
        breaches: breaches.map(presentBreach),
        breachCount: count,
        hasMoreBreaches: offset + breaches.length < count,
      };
    },

    /** One CSV: the figures (one line per group and target), a blank line, then the breaches. */
    async exportCsv(actor: AuthContext, query: SlaReportExportQuery) {
      const { report, breaches } = await whole(actor, query);
      const sheets = exportSheets(report, breaches);
      return {
        csv: toCsv([...sheets.figures, [], ...sheets.breaches].map((row) => row.map(String))),
        range: report.range,
      };
    },

    /** One workbook: a sheet of figures, a sheet of breaches. */
    async exportXlsx(actor: AuthContext, query: SlaReportExportQuery) {
      const { report, breaches } = await whole(actor, query);
      const sheets = exportSheets(report, breaches);
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheets.figures), "Service levels");
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheets.breaches), "Breaches");
      return { xlsx: XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer, range: report.range };
    },
  };
}

export type ServiceLevelReport = ReturnType<typeof createServiceLevelReport>;

export const SLA_FIGURES_HEADER = [
  "group",
  "name",
  "target",
  "counted",
  "met",
  "breached",
  "running",
  "met (%)",
  "median (min)",
  "p90 (min)",
];

export const SLA_BREACHES_HEADER = [
  "ticket",
  "uuid",
  "status",
  "contact",
  "queue",
  "agent",
  "target",
  "dueAt",
  "reachedAt",
];

/** Seconds as minutes, one decimal. */
const minutes = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 6) / 10);

/**
 * The export's tables as rows of cells (numbers stay numbers for the workbook; the CSV writes them
 * as text): the figures per queue, per agent and in total, and the breaches with times in the
 * company's zone. Headers in English, as the tickets report's export.
 */
function exportSheets(report: Figures, breaches: SlaBreachRow[]) {
  const cell = (v: number | null) => (v === null ? "" : v);
  const lines = (group: string, name: string, row: Figures["total"]) =>
    (["firstResponse", "resolution"] as const).map((target) => {
      const f = row[target];
      return [
        group,
        name,
        target,
        f.counted,
        f.met,
        f.breached,
        f.running,
        cell(f.metPercent),
        cell(minutes(f.medianSeconds)),
        cell(minutes(f.p90Seconds)),
      ];
    });
  const figures: (string | number)[][] = [
    SLA_FIGURES_HEADER,
    ...report.queues.flatMap((r) => lines("queue", r.queue?.name ?? "", r)),
    ...report.users.flatMap((r) => lines("agent", r.user?.name ?? "", r)),
    ...lines("total", "", report.total),
  ];
  const zone = report.range.timezone;
  const breachLines: (string | number)[][] = [
    SLA_BREACHES_HEADER,
    ...breaches.map((b) => [
      b.ticketId,
      b.uuid,
      b.status,
      b.contact.name,
      b.queue?.name ?? "",
      b.user?.name ?? "",
      b.target,
      localTime(b.dueAt, zone),
      localTime(b.reachedAt, zone),
    ]),
  ];
  return { figures, breaches: breachLines };
}
