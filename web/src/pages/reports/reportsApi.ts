import type { TicketReportPage } from "@atende/contracts";
import { saveBlob } from "../../api/download";
import { api } from "../../api/http";
import { type PeriodFilter, periodQuery } from "../../api/period";

export type ReportStatus = "pending" | "open" | "closed";

/** What the report lists: tickets created in the period, narrowed by the other filters. */
export interface ReportFilter {
  period: PeriodFilter;
  queueIds: number[];
  /** null: every agent. */
  userId: number | null;
  status: ReportStatus | null;
  /** The contact's name or number. */
  search: string;
}

function reportQuery(filter: ReportFilter) {
  return {
    ...periodQuery(filter.period),
    queueIds: filter.queueIds.length ? filter.queueIds.join(",") : undefined,
    userIds: filter.userId ?? undefined,
    status: filter.status ?? undefined,
    searchParam: filter.search || undefined,
  };
}

export const reportKeys = {
  all: ["ticket-reports"] as const,
  page: (filter: ReportFilter | null, pageNumber: number, pageSize: number) =>
    [...reportKeys.all, filter, pageNumber, pageSize] as const,
};

export function fetchReportPage(
  filter: ReportFilter,
  pageNumber: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<TicketReportPage> {
  return api.get<TicketReportPage>("/ticket/reports", {
    query: { ...reportQuery(filter), pageNumber, pageSize },
    signal,
  });
}

const BOM = "\uFEFF";

/**
 * Downloads the CSV of the whole filter (no paging) with the session's token, and saves it through
 * a blob link. The byte-order mark lets spreadsheet programs read the accents as UTF-8.
 */
export async function downloadReportCsv(filter: ReportFilter, fileName: string): Promise<void> {
  const text = await api.get<string>("/ticket/reports/export", { query: reportQuery(filter) });
  const body = typeof text === "string" ? text : "";
  const blob = new Blob([body.startsWith(BOM) ? body : BOM + body], { type: "text/csv;charset=utf-8" });
  saveBlob(blob, fileName);
}
