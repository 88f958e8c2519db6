import { SLA_REPORT_PAGE_SIZE } from "@atende/contracts";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import {
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  TablePagination,
  TextField,
  Typography,
} from "@mui/material";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { downloadSlaReport, fetchSlaReport, slaReportKeys, type SlaReportFilter } from "../../api/slaReport";
import { useQueueList } from "../../api/queues";
import { fetchUserOptions, ticketKeys } from "../../api/tickets";
import { toast, toastError } from "../../api/toast";
import { PeriodFields, filterOf, initialFilterForm, type FilterForm } from "../../components/PeriodFields";
import { formatDate } from "../../i18n/format";
import { ReportTabs } from "./ReportTabs";
import { SlaBreachesTable } from "./SlaBreachesTable";
import { SlaFiguresTable, type SlaFiguresLine } from "./SlaFiguresTable";

const PAGE_SIZES = [SLA_REPORT_PAGE_SIZE, 50, 100];

interface Form {
  period: FilterForm;
  queueIds: number[];
  userIds: number[];
}

function QueueDot({ color }: { color: string }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: color, mr: 1, flexShrink: 0 }}
    />
  );
}

/** /reports/service-levels for admins: each target met or missed per queue and agent, and the breaches. */
export function ServiceLevelsPage() {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>(() => ({ period: initialFilterForm(), queueIds: [], userIds: [] }));
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(SLA_REPORT_PAGE_SIZE);
  const [downloading, setDownloading] = useState<"csv" | "xlsx" | null>(null);
  const queues = useQueueList();
  const users = useQuery({
    queryKey: ticketKeys.userOptions(),
    queryFn: ({ signal }) => fetchUserOptions(signal),
    staleTime: 60_000,
  });

  const period = filterOf(form.period);
  const filter: SlaReportFilter | null =
    period && period !== "invalid" ? { period, queueIds: form.queueIds, userIds: form.userIds } : null;
  const report = useQuery({
    queryKey: slaReportKeys.page(filter, page + 1, pageSize),
    queryFn: filter ? ({ signal }) => fetchSlaReport(filter, page + 1, pageSize, signal) : skipToken,
    placeholderData: keepPreviousData,
  });
  const data = report.data;
  const loading = report.isFetching;

  function change(next: Form) {
    setForm(next);
    setPage(0);
  }

  async function download(format: "csv" | "xlsx") {
    if (!filter) return;
    setDownloading(format);
    try {
      await downloadSlaReport(filter, format);
      toast(t("slaReport.downloaded"), "success");
    } catch (error) {
      toastError(error);
    } finally {
      setDownloading(null);
    }
  }

  const queueOptions = queues.data ?? [];
  const userOptions = users.data ?? [];
  const total: SlaFiguresLine | undefined = data && {
    key: "total",
    name: t("slaReport.total"),
    ...data.total,
  };
  const queueLines: SlaFiguresLine[] = (data?.queues ?? []).map((row) => ({
    key: String(row.queue?.id ?? "none"),
    name: row.queue ? (
      <Box component="span" sx={{ display: "inline-flex", alignItems: "center" }}>
        <QueueDot color={row.queue.color} />
        {row.queue.name}
      </Box>
    ) : (
      t("slaReport.noQueue")
    ),
    firstResponse: row.firstResponse,
    resolution: row.resolution,
  }));
  const userLines: SlaFiguresLine[] = (data?.users ?? []).map((row) => ({
    key: String(row.user?.id ?? "none"),
    name: row.user?.name ?? t("slaReport.noUser"),
    firstResponse: row.firstResponse,
    resolution: row.resolution,
  }));
  const exportButton = (format: "csv" | "xlsx") => (
    <Button
      variant={format === "xlsx" ? "contained" : "outlined"}
      onClick={() => void download(format)}
      disabled={downloading !== null || filter === null}
      aria-busy={downloading === format}
      startIcon={downloading === format ? <CircularProgress size={18} color="inherit" /> : <DownloadIcon />}
    >
      {downloading === format
        ? t("slaReport.downloading")
        : t(format === "csv" ? "slaReport.exportCsv" : "slaReport.exportXlsx")}
    </Button>
  );

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, minWidth: 0 }}>
      <ReportTabs />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
            {t("slaReport.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("slaReport.periodRule")}
            {data && !report.isPlaceholderData && (
              <>
                {" "}
                {t("dashboard.range", { from: formatDate(data.range.from), to: formatDate(data.range.to) })}
              </>
            )}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          {exportButton("csv")}
          {exportButton("xlsx")}
        </Stack>
      </Stack>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ flexWrap: "wrap", alignItems: "flex-start" }}>
        <PeriodFields value={form.period} onChange={(next) => change({ ...form, period: next })} />
        <Autocomplete
          multiple
          size="small"
          options={queueOptions}
          value={queueOptions.filter((queue) => form.queueIds.includes(queue.id))}
          getOptionLabel={(queue) => queue.name}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          onChange={(_, picked) => change({ ...form, queueIds: picked.map((queue) => queue.id) })}
          renderOption={({ key, ...props }, queue) => (
            <li key={key} {...props}>
              <QueueDot color={queue.color} />
              {queue.name}
            </li>
          )}
          renderInput={(params) => <TextField {...params} label={t("slaReport.filters.queues")} />}
          sx={{ minWidth: 200, flex: "1 1 200px", maxWidth: 360 }}
        />
        <Autocomplete
          multiple
          size="small"
          options={userOptions}
          value={userOptions.filter((user) => form.userIds.includes(user.id))}
          getOptionLabel={(user) => user.name}
          isOptionEqualToValue={(option, selected) => option.id === selected.id}
          onChange={(_, picked) => change({ ...form, userIds: picked.map((user) => user.id) })}
          renderInput={(params) => <TextField {...params} label={t("slaReport.filters.users")} />}
          sx={{ minWidth: 200, flex: "1 1 200px", maxWidth: 360 }}
        />
      </Stack>
      {filter === null ? (
        <Paper variant="outlined" role="status" sx={{ p: 5, textAlign: "center" }}>
          <Typography variant="h6" component="p">
            {t("dashboard.filter.missing")}
          </Typography>
          <Typography color="text.secondary">{t("reports.filters.missingHint")}</Typography>
        </Paper>
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <SlaFiguresTable
              title={t("slaReport.byQueue")}
              nameHeading={t("slaReport.columns.queue")}
              lines={queueLines}
              total={total}
              loading={loading}
              testId="sla-by-queue"
            />
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <SlaFiguresTable
              title={t("slaReport.byUser")}
              nameHeading={t("slaReport.columns.user")}
              lines={userLines}
              total={total}
              loading={loading}
              testId="sla-by-user"
            />
          </Paper>
          <Paper variant="outlined" component="section" aria-labelledby="sla-breaches-title" sx={{ pt: 2 }}>
            <Typography
              id="sla-breaches-title"
              variant="subtitle1"
              component="h2"
              sx={{ fontWeight: 600, px: 2, mb: 1 }}
            >
              {t("slaReport.breaches.title")}
              {data && (
                <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
                  ({t("slaReport.breaches.count", { count: data.breachCount })})
                </Typography>
              )}
            </Typography>
            <SlaBreachesTable rows={data?.breaches ?? []} loading={loading} />
            <TablePagination
              component="div"
              count={data?.breachCount ?? 0}
              page={(data?.breachCount ?? 0) === 0 ? 0 : page}
              rowsPerPage={pageSize}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setPageSize(Number(event.target.value));
                setPage(0);
              }}
              labelRowsPerPage={t("reports.rowsPerPage")}
              labelDisplayedRows={({ from, to, count }) => t("reports.pageOf", { from, to, count })}
              sx={{ borderTop: 1, borderColor: "divider" }}
            />
          </Paper>
        </>
      )}
    </Box>
  );
}
