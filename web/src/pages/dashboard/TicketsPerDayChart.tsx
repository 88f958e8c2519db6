import { dayPointDate, type TicketsDayData, type TicketsDayPoint } from "@atende/contracts";
import { useTheme } from "@mui/material/styles";
import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../i18n/format";
import { ChartCard } from "./ChartCard";

interface TicketsPerDayChartProps {
  data: TicketsDayData | undefined;
  loading: boolean;
}

/** Tickets created per day of the range (per hour when the range is one day); "no data" when none. */
export function TicketsPerDayChart({ data, loading }: TicketsPerDayChartProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const points = data?.data ?? [];
  const total = data?.count ?? 0;
  // All zeros: the chart's own "no data" overlay reads better than an empty grid of days.
  const shown = total > 0 ? points : [];

  function label(point: TicketsDayPoint, full: boolean): string {
    if ("horario" in point)
      return t("dashboard.charts.hour", { hour: String(point.horario).padStart(2, "0") });
    const date = formatDate(dayPointDate(point.data));
    return full ? date : date.slice(0, 5);
  }

  return (
    <ChartCard
      title={t("dashboard.charts.perDay")}
      // With no tickets the chart itself says so; the count would only repeat it.
      subtitle={data && total > 0 ? t("dashboard.charts.perDayTotal", { count: total }) : undefined}
      testId="chart-tickets-day"
    >
      <BarChart
        height={300}
        loading={loading && !data}
        localeText={{ noData: t("dashboard.charts.noData") }}
        hideLegend
        grid={{ horizontal: true }}
        xAxis={[
          {
            scaleType: "band",
            data: shown.map((_, index) => index),
            valueFormatter: (index: number, context) => {
              const point = shown[index];
              return point ? label(point, context.location !== "tick") : "";
            },
          },
        ]}
        yAxis={[{ tickMinStep: 1, width: 40 }]}
        series={[
          {
            data: shown.map((point) => point.total),
            label: t("dashboard.charts.tickets"),
            color: theme.palette.primary.main,
          },
        ]}
      />
    </ChartCard>
  );
}
