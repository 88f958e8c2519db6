import { LIMITS, REPORT_PAGE_SIZE, type DashboardRange } from "@atende/contracts";
import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import { Box, Button, CircularProgress, Paper, Stack, TablePagination, Typography } from "@mui/material";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast, toastError } from "../../api/toast";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { filterOf, initialFilterForm } from "../../components/PeriodFields";
import { fetchReportPage, downloadReportCsv, reportKeys, type ReportFilter } from "./reportsApi";
import { ReportFilters, type ReportFilterForm } from "./ReportFilters";
import { ReportTable } from "./ReportTable";
import { ReportTabs } from "./ReportTabs";

const PAGE_SIZES = [REPORT_PAGE_SIZE, 50, 100];

function initialForm(): ReportFilterForm {
  return { period: initialFilterForm(), queueIds: [], userId: null, status: null, search: "" };
}

/** Named after the days it covers, as the server resolved them (else as the filter says). */
function fileName(filter: ReportFilter, range: DashboardRange | undefined): string {
  const { period } = filter;
  if (range) return `atendimentos-${range.from}-${range.to}.csv`;
  return period.kind === "period"
    ? `atendimentos-${period.days}-dias.csv`
    : `atendimentos-${period.from}-${period.to}.csv`;
}

/** /reports for admins: the tickets of a period, filtered, paged, and exported as CSV. */
export function ReportsPage() {
  const { t } = useTranslation();
  const [form, setForm] = useState<ReportFilterForm>(initialForm);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(REPORT_PAGE_SIZE);
  const [downloading, setDownloading] = useState(false);
  const search = useDebouncedValue(form.search.trim(), LIMITS.searchDebounceMs);

  const period = filterOf(form.period);
  // Query keys compare by value, so a filter rebuilt at each render is the same query.
  const filter: ReportFilter | null =
    period && period !== "invalid"
      ? { period, queueIds: form.queueIds, userId: form.userId, status: form.status, search }
      : null;

  const report = useQuery({
    queryKey: reportKeys.page(filter, page + 1, pageSize),
    queryFn: filter ? ({ signal }) => fetchReportPage(filter, page + 1, pageSize, signal) : skipToken,
    placeholderData: keepPreviousData,
  });
  const rows = report.data?.tickets ?? [];
  const count = report.data?.count ?? 0;

  function change(next: ReportFilterForm) {
    setForm(next);
    setPage(0);
  }

  async function download() {
    if (!filter) {
      toast(t("dashboard.filter.missing"), "warning");
      return;
    }
    setDownloading(true);
    try {
      await downloadReportCsv(
        filter,
        fileName(filter, report.isPlaceholderData ? undefined : report.data?.range),
      );
      toast(t("reports.downloaded"), "success");
    } catch (error) {
      toastError(error);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <ReportTabs />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {t("reports.title")}
          {report.data && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1, fontSize: "1rem" }}>
              ({t("reports.total", { count })})
            </Typography>
          )}
        </Typography>
        <Button
          variant="contained"
          onClick={() => void download()}
          disabled={downloading || filter === null}
          aria-busy={downloading}
          startIcon={downloading ? <CircularProgress size={18} color="inherit" /> : <DownloadIcon />}
        >
          {downloading ? t("reports.downloading") : t("reports.download")}
        </Button>
      </Stack>
      <ReportFilters value={form} onChange={change} />
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 320, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        {filter === null ? (
          <Box role="status" sx={{ p: 5, textAlign: "center" }}>
            <Typography variant="h6" component="p">
              {t("dashboard.filter.missing")}
            </Typography>
            <Typography color="text.secondary">{t("reports.filters.missingHint")}</Typography>
          </Box>
        ) : (
          <>
            <ReportTable rows={rows} loading={report.isFetching} />
            <TablePagination
              component="div"
              count={count}
              page={count === 0 ? 0 : page}
              rowsPerPage={pageSize}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setPageSize(Number(event.target.value));
                setPage(0);
              }}
              labelRowsPerPage={t("reports.rowsPerPage")}
              labelDisplayedRows={({ from, to, count: total }) =>
                t("reports.pageOf", { from, to, count: total })
              }
              sx={{ borderTop: 1, borderColor: "divider", flexShrink: 0 }}
            />
          </>
        )}
      </Paper>
    </Box>
  );
}
