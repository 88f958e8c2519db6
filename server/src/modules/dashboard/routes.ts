import type { FastifyInstance } from "fastify";
import { dashboardChartQuerySchema, dashboardQuerySchema, ticketReportQuerySchema } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import { type DashboardDeps, type DashboardService, createDashboardService } from "./service.js";

export function dashboardRoutes(app: FastifyInstance, dashboard: DashboardService) {
  app.get("/dashboard", async (req) =>
    dashboard.dashboard(authOf(req), parseInput(dashboardQuerySchema, req.query, req)),
  );
  app.get("/dashboard/ticketsDay", async (req) =>
    dashboard.ticketsDay(authOf(req), parseInput(dashboardChartQuerySchema, req.query, req)),
  );
  app.get("/dashboard/ticketsUsers", async (req) =>
    dashboard.ticketsUsers(authOf(req), parseInput(dashboardChartQuerySchema, req.query, req)),
  );
  app.get("/ticket/reports", async (req) =>
    dashboard.reports(authOf(req), parseInput(ticketReportQuerySchema, req.query, req)),
  );
  app.get("/ticket/reports/export", async (req, reply) => {
    const { csv, range } = await dashboard.exportCsv(
      authOf(req),
      parseInput(ticketReportQuerySchema, req.query, req),
    );
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="tickets-${range.from}-${range.to}.csv"`)
      .header("cache-control", "no-store")
      .send(csv);
  });
}

/** The dashboard and the ticket reports, behind the auth hook; admins only. */
export function dashboardModule(app: FastifyInstance, deps: DashboardDeps): DashboardService {
  const dashboard = createDashboardService(deps);
  dashboardRoutes(app, dashboard);
  return dashboard;
}
