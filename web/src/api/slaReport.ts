import type { SlaReport } from "@atende/contracts";
import { downloadWithSession } from "./download";
import { api } from "./http";
import type { PeriodFilter } from "./period";

/** What the service-level report covers: tickets whose clocks started in the period, narrowed. */
export interface SlaReportFilter {
  period: PeriodFilter;
  queueIds: number[];
  userIds: number[];
}

function slaQuery(filter: SlaReportFilter) {
  const { period } = filter;
  return {
    ...(period.kind === "period" ? { days: period.days } : { dateFrom: period.from, dateTo: period.to }),
    queueIds: filter.queueIds.length ? filter.queueIds.join(",") : undefined,
    userIds: filter.userIds.length ? filter.userIds.join(",") : undefined,
  };
}

export const slaReportKeys = {
  all: ["sla-report"] as const,
  page: (filter: SlaReportFilter | null, pageNumber: number, pageSize: number) =>
    [...slaReportKeys.all, filter, pageNumber, pageSize] as const,
};

export function fetchSlaReport(
  filter: SlaReportFilter,
  pageNumber: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<SlaReport> {
  return api.get<SlaReport>("/reports/service-levels", {
    query: { ...slaQuery(filter), pageNumber, pageSize },
    signal,
  });
}

/** The whole report (every breach) as a file the server names after the days it covers. */
export function downloadSlaReport(filter: SlaReportFilter, format: "csv" | "xlsx"): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(slaQuery(filter)))
    if (value !== undefined) params.set(key, String(value));
  return downloadWithSession(
    `/reports/service-levels/${format}?${params.toString()}`,
    `niveis-de-servico.${format}`,
  );
}
