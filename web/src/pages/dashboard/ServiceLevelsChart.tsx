import type { SlaReport } from "@atende/contracts";
import { useTheme } from "@mui/material/styles";
import { BarChart } from "@mui/x-charts/BarChart";
import { useTranslation } from "react-i18next";
import { ChartCard } from "./ChartCard";

interface ServiceLevelsChartProps {
  data: SlaReport | undefined;
  loading: boolean;
}

/** Per queue with targets, the % of the period's tickets that met each target (first response, resolution). */
export function ServiceLevelsChart({ data, loading }: ServiceLevelsChartProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const queues = (data?.queues ?? []).filter(
    (row) => row.firstResponse.metPercent !== null || row.resolution.metPercent !== null,
  );
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const percent = (value: number | null) =>
    value === null ? "—" : t("slaReport.percent", { value: number.format(value) });

  return (
    <ChartCard title={t("slaReport.chart.title")} subtitle={t("slaReport.chart.subtitle")} testId="chart-sla">
      <BarChart
        height={300}
        loading={loading && !data}
        localeText={{ noData: t("slaReport.chart.noData") }}
        grid={{ horizontal: true }}
        xAxis={[
          {
            scaleType: "band",
            data: queues.map((row) => row.queue?.name ?? t("slaReport.noQueue")),
          },
        ]}
        yAxis={[{ min: 0, max: 100, width: 48, valueFormatter: (value: number) => `${value}%` }]}
        series={[
          {
            data: queues.map((row) => row.firstResponse.metPercent),
            label: t("slaReport.targets.firstResponse"),
            color: theme.palette.primary.main,
            valueFormatter: (value) => percent(value),
          },
          {
            data: queues.map((row) => row.resolution.metPercent),
            label: t("slaReport.targets.resolution"),
            color: theme.palette.info.main,
            valueFormatter: (value) => percent(value),
          },
        ]}
      />
    </ChartCard>
  );
}
