import type { DashboardData, TicketsDayData, TicketsUsersData } from "@atende/contracts";
import { api } from "../../api/http";

/** What the dashboard shows: the last `days` days (today included), or a range of calendar days. */
export type DashboardFilter = { kind: "period"; days: number } | { kind: "dates"; from: string; to: string };

/** Every dashboard query starts with this key: one invalidation refreshes all of them. */
export const DASHBOARD_KEY = ["dashboard"] as const;

export function dashboardKey(part: "counters" | "ticketsDay" | "ticketsUsers", filter: DashboardFilter) {
  return [...DASHBOARD_KEY, part, filter] as const;
}

export function fetchDashboard(filter: DashboardFilter, signal?: AbortSignal): Promise<DashboardData> {
  const query =
    filter.kind === "period" ? { days: filter.days } : { date_from: filter.from, date_to: filter.to };
  return api.get<DashboardData>("/dashboard", { query, signal });
}

function chartQuery(filter: DashboardFilter) {
  return filter.kind === "period"
    ? { days: filter.days }
    : { initialDate: filter.from, finalDate: filter.to };
}

export function fetchTicketsDay(filter: DashboardFilter, signal?: AbortSignal): Promise<TicketsDayData> {
  return api.get<TicketsDayData>("/dashboard/ticketsDay", { query: chartQuery(filter), signal });
}

export function fetchTicketsUsers(filter: DashboardFilter, signal?: AbortSignal): Promise<TicketsUsersData> {
  return api.get<TicketsUsersData>("/dashboard/ticketsUsers", { query: chartQuery(filter), signal });
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A local calendar day as YYYY-MM-DD (what a date input holds). */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
