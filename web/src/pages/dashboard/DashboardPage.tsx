import TuneIcon from "@mui/icons-material/TuneOutlined";
import { Box, Paper, Stack, Typography } from "@mui/material";
import { useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { dashboardKeys, fetchDashboard, fetchTicketsDay, fetchTicketsUsers } from "../../api/dashboard";
import { useDashboardLive } from "../../api/dashboardLive";
import { fetchSlaReport } from "../../api/slaReport";
import { ApiError } from "../../api/http";
import type { PeriodFilter } from "../../api/period";
import { toast } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { filterOf, initialFilterForm, type FilterForm } from "../../components/PeriodFields";
import { formatDate } from "../../i18n/format";
import { AttendantsTable } from "./AttendantsTable";
import { CounterCards } from "./CounterCards";
import { DashboardFilterBar } from "./DashboardFilterBar";
import { ServiceLevelsChart } from "./ServiceLevelsChart";
import { TicketsPerDayChart } from "./TicketsPerDayChart";
import { TicketsPerUserChart } from "./TicketsPerUserChart";

/** A chart's failed fetch shows the chart's own sentence once per failure (spec section 8). */
function useChartErrorToast(query: UseQueryResult<unknown>, message: string): void {
  const { error, errorUpdatedAt } = query;
  const show = useEffectEvent(() => {
    if (!error || (error instanceof ApiError && error.sessionEnded)) return;
    toast(message, "error");
  });
  // Once per failed fetch (its time changes), not once per render.
  useEffect(() => {
    if (errorUpdatedAt > 0) show();
  }, [errorUpdatedAt]);
}

function FilterNeeded() {
  const { t } = useTranslation();
  return (
    <Paper
      variant="outlined"
      role="status"
      sx={{
        p: 5,
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        gap: 1,
        textAlign: "center",
      }}
    >
      <TuneIcon color="action" sx={{ fontSize: 40 }} />
      <Typography variant="h6" component="p">
        {t("dashboard.filter.missing")}
      </Typography>
      <Typography color="text.secondary">{t("dashboard.filter.missingHint")}</Typography>
    </Paper>
  );
}

function DashboardFigures({ filter }: { filter: PeriodFilter }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const figures = useQuery({
    queryKey: dashboardKeys.part("counters", filter),
    queryFn: ({ signal }) => fetchDashboard(filter, signal),
    placeholderData: (previous) => previous,
  });
  const perDay = useQuery({
    queryKey: dashboardKeys.part("ticketsDay", filter),
    queryFn: ({ signal }) => fetchTicketsDay(filter, signal),
    placeholderData: (previous) => previous,
    meta: { silent: true },
  });
  const perUser = useQuery({
    queryKey: dashboardKeys.part("ticketsUsers", filter),
    queryFn: ({ signal }) => fetchTicketsUsers(filter, signal),
    placeholderData: (previous) => previous,
    meta: { silent: true },
  });
  // The service-level chart needs only the figures: the report's smallest page of breaches.
  const serviceLevels = useQuery({
    queryKey: dashboardKeys.part("serviceLevels", filter),
    queryFn: ({ signal }) => fetchSlaReport({ period: filter, queueIds: [], userIds: [] }, 1, 1, signal),
    placeholderData: (previous) => previous,
    meta: { silent: true },
  });
  useChartErrorToast(perDay, t("dashboard.charts.dayError"));
  useChartErrorToast(serviceLevels, t("slaReport.chart.error"));
  useChartErrorToast(perUser, t("dashboard.charts.userError"));
  useDashboardLive();

  const range = figures.data?.range;
  return (
    <>
      {range && (
        <Typography variant="body2" color="text.secondary" data-testid="dashboard-range" sx={{ mt: -1 }}>
          {t("dashboard.range", { from: formatDate(range.from), to: formatDate(range.to) })}
        </Typography>
      )}
      <CounterCards counters={figures.data?.counters} isSuper={user.super} />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "minmax(0, 1fr)", lg: "7fr 5fr" } }}>
        <TicketsPerDayChart data={perDay.data} loading={perDay.isPending} />
        <TicketsPerUserChart data={perUser.data} loading={perUser.isPending} />
      </Box>
      <ServiceLevelsChart data={serviceLevels.data} loading={serviceLevels.isPending} />
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {t("dashboard.attendants.title")}
        </Typography>
        <AttendantsTable attendants={figures.data?.attendants} />
      </Paper>
    </>
  );
}

/** / for admins: the company's figures for a period or a date range, refreshed live. */
export function DashboardPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<FilterForm>(() => initialFilterForm());
  const [applied, setApplied] = useState<PeriodFilter | null>(() => {
    const first = filterOf(initialFilterForm());
    return first === "invalid" ? null : first;
  });

  function change(next: FilterForm) {
    setForm(next);
    const filter = filterOf(next);
    if (filter !== "invalid") setApplied(filter);
  }

  function apply() {
    const filter = filterOf(form);
    if (filter === null) toast(t("dashboard.filter.missing"), "warning");
    else if (filter === "invalid") toast(t("dashboard.filter.invalidRange"), "warning");
    else if (JSON.stringify(filter) === JSON.stringify(applied)) {
      // The same filter again: the button then means "fetch the figures now".
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    } else setApplied(filter);
  }

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, minWidth: 0 }}>
      <Stack
        direction={{ xs: "column", md: "row" }}
        spacing={1.5}
        sx={{ alignItems: { md: "flex-start" }, justifyContent: "space-between" }}
      >
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, pt: { md: 0.5 } }}>
          {t("dashboard.title")}
        </Typography>
        <DashboardFilterBar value={form} onChange={change} onApply={apply} />
      </Stack>
      {applied ? <DashboardFigures filter={applied} /> : <FilterNeeded />}
    </Box>
  );
}
