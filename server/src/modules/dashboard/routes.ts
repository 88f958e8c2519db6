import type { FastifyInstance } from "fastify";
import {
  dashboardChartQuerySchema,
  dashboardDataSchema,
  dashboardQuerySchema,
  ticketReportPageSchema,
  ticketReportQuerySchema,
  ticketsDayDataSchema,
  ticketsUsersDataSchema,
  slaReportExportQuerySchema,
  slaReportQuerySchema,
  slaReportSchema,
} from "@atende/contracts";
import { CSV_TYPE, XLSX_TYPE, sendDownload } from "../../http/download.js";
import { routes } from "../../http/route.js";
import { type ServiceLevelReport, createServiceLevelReport } from "./serviceLevels.js";
import { type DashboardDeps, type DashboardService, createDashboardService } from "./service.js";

/** The service-level report (issue 39) and its two exports; admins only, as the other reports. */
export function serviceLevelRoutes(app: FastifyInstance, report: ServiceLevelReport) {
  const r = routes(app);
  const view = "dashboard:view";
  const description =
    "Tickets whose service-level clocks started within the period (company calendar days), per queue and per agent holding them now: for each target, tickets counted, met, breached, running, % met, median and p90 of the working seconds.";
  r.get(
    "/reports/service-levels",
    {
      access: view,
      query: slaReportQuerySchema,
      response: slaReportSchema,
      errors: [],
      summary: "Service levels of a period: per queue, per agent, and a page of the breaches",
      description,
    },
    ({ auth, query }) => report.report(auth, query),
  );
  r.get(
    "/reports/service-levels/csv",
    {
      access: view,
      query: slaReportExportQuerySchema,
      produces: "text/csv",
      errors: [],
      summary: "The service-level report as CSV: the figures, a blank line, every breach",
      description,
    },
    async ({ auth, query }, _req, reply) => {
      const { csv, range } = await report.exportCsv(auth, query);
      return sendDownload(reply, CSV_TYPE, `niveis-de-servico-${range.from}-${range.to}.csv`, csv);
    },
  );
  r.get(
    "/reports/service-levels/xlsx",
    {
      access: view,
      query: slaReportExportQuerySchema,
      produces: XLSX_TYPE,
      errors: [],
      summary: "The service-level report as a workbook: a sheet of figures, a sheet of breaches",
      description,
    },
    async ({ auth, query }, _req, reply) => {
      const { xlsx, range } = await report.exportXlsx(auth, query);
      return sendDownload(reply, XLSX_TYPE, `niveis-de-servico-${range.from}-${range.to}.xlsx`, xlsx);
    },
  );
}

export function dashboardRoutes(app: FastifyInstance, dashboard: DashboardService) {
  const r = routes(app);
  const view = "dashboard:view";
  r.get(
    "/dashboard",
    {
      access: view,
      query: dashboardQuerySchema,
      response: dashboardDataSchema,
      operationId: "dashboard.get",
    },
    ({ auth, query }) => dashboard.dashboard(auth, query),
  );
  r.get(
    "/dashboard/ticketsDay",
    { access: view, query: dashboardChartQuerySchema, response: ticketsDayDataSchema },
    ({ auth, query }) => dashboard.ticketsDay(auth, query),
  );
  r.get(
    "/dashboard/ticketsUsers",
    { access: view, query: dashboardChartQuerySchema, response: ticketsUsersDataSchema },
    ({ auth, query }) => dashboard.ticketsUsers(auth, query),
  );
  r.get(
    "/ticket/reports",
    { access: view, query: ticketReportQuerySchema, response: ticketReportPageSchema },
    ({ auth, query }) => dashboard.reports(auth, query),
  );
  r.get(
    "/ticket/reports/export",
    { access: view, query: ticketReportQuerySchema, produces: "text/csv" },
    async ({ auth, query }, _req, reply) => {
      const { csv, range } = await dashboard.exportCsv(auth, query);
      return sendDownload(reply, CSV_TYPE, `tickets-${range.from}-${range.to}.csv`, csv);
    },
  );
}

/** The dashboard, the ticket reports and the service-level report; admins only. */
export async function dashboardModule(app: FastifyInstance, deps: DashboardDeps): Promise<DashboardService> {
  const dashboard = createDashboardService(deps);
  dashboardRoutes(app, dashboard);
  serviceLevelRoutes(app, createServiceLevelReport(deps));
  return dashboard;
}
