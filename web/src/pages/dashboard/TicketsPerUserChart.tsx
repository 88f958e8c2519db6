import type { TicketsUsersData } from "@atende/contracts";
import { useTheme } from "@mui/material/styles";
import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslation } from "react-i18next";
import { ChartCard } from "./ChartCard";

interface TicketsPerUserChartProps {
  data: TicketsUsersData | undefined;
  loading: boolean;
}

const CHART_HEIGHT = 300;
/** Room per agent once the chart grows past its height; bars keep about this thickness. */
const BAR_ROW_PX = 44;
const BAR_PX = 28;

/** Tickets of the range per agent holding them, most first, as horizontal bars named by agent. */
export function TicketsPerUserChart({ data, loading }: TicketsPerUserChartProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const users = data?.data ?? [];
  const height = Math.max(CHART_HEIGHT, users.length * BAR_ROW_PX + 60);
  // A few agents must not get bars as thick as the whole chart: the gap takes the rest of the band.
  const band = (height - 60) / Math.max(1, users.length);
  const gapRatio = Math.min(0.85, Math.max(0.2, 1 - BAR_PX / band));

  return (
    <ChartCard title={t("dashboard.charts.perUser")} testId="chart-tickets-users">
      <BarChart
        height={height}
        layout="horizontal"
        loading={loading && !data}
        localeText={{ noData: t("dashboard.charts.noData") }}
        hideLegend
        grid={{ vertical: true }}
        yAxis={[
          {
            scaleType: "band",
            data: users.map((user) => user.nome),
            // With nobody to name, the axis gives its room back to the "no data" sentence.
            width: users.length > 0 ? 120 : 8,
            categoryGapRatio: gapRatio,
          },
        ]}
        xAxis={[{ tickMinStep: 1 }]}
        series={[
          {
            data: users.map((user) => user.quantidade),
            label: t("dashboard.charts.tickets"),
            color: theme.palette.primary.main,
          },
        ]}
      />
    </ChartCard>
  );
}
