import type { DashboardData, TicketsDayData, TicketsUsersData } from "@atende/contracts";
import { api } from "./http";
import { type PeriodFilter, periodQuery } from "./period";

export const dashboardKeys = {
  /** Every dashboard query starts with this key: one invalidation refreshes all of them. */
  all: ["dashboard"] as const,
  part: (part: "counters" | "ticketsDay" | "ticketsUsers" | "serviceLevels", filter: PeriodFilter) =>
    [...dashboardKeys.all, part, filter] as const,
};

export function fetchDashboard(filter: PeriodFilter, signal?: AbortSignal): Promise<DashboardData> {
  const query =
    filter.kind === "period" ? { days: filter.days } : { date_from: filter.from, date_to: filter.to };
  return api.get<DashboardData>("/dashboard", { query, signal });
}

export function fetchTicketsDay(filter: PeriodFilter, signal?: AbortSignal): Promise<TicketsDayData> {
  return api.get<TicketsDayData>("/dashboard/ticketsDay", { query: periodQuery(filter), signal });
}

export function fetchTicketsUsers(filter: PeriodFilter, signal?: AbortSignal): Promise<TicketsUsersData> {
  return api.get<TicketsUsersData>("/dashboard/ticketsUsers", { query: periodQuery(filter), signal });
}
