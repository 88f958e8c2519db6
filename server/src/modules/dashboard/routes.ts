import type { FastifyInstance } from "fastify";
import {
  dashboardChartQuerySchema,
  dashboardDataSchema,
  dashboardQuerySchema,
  ticketReportPageSchema,
  ticketReportQuerySchema,
  ticketsDayDataSchema,
  ticketsUsersDataSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type DashboardDeps, type DashboardService, createDashboardService } from "./service.js";

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
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="tickets-${range.from}-${range.to}.csv"`)
        .header("cache-control", "no-store")
        .send(csv);
    },
  );
}

/** The dashboard and the ticket reports; admins only. */
export async function dashboardModule(app: FastifyInstance, deps: DashboardDeps): Promise<DashboardService> {
  const dashboard = createDashboardService(deps);
  dashboardRoutes(app, dashboard);
  return dashboard;
}
