import type { TicketReportRow } from "@atende/contracts";
import {
  Box,
  Chip,
  Rating,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { EmptyRow, SkeletonRows } from "../../components/TableStates";
import { formatDate, formatMinutes, formatTime } from "../../i18n/format";
import { visuallyHidden } from "../../components/visuallyHidden";
import { OpenTicketButton } from "./OpenTicketButton";

const COLUMNS = 10;
const STATUS_COLOR = { pending: "warning", open: "primary", closed: "default" } as const;

/** The day, with the time under it in small print. */
function DateTime({ value }: { value: string | null }) {
  if (!value) return "—";
  return (
    <>
      {formatDate(value)}
      <Typography variant="caption" color="text.secondary" component="div">
        {formatTime(value)}
      </Typography>
    </>
  );
}

interface ReportTableProps {
  rows: TicketReportRow[];
  loading: boolean;
}

/** One line per ticket: who, where, when, how long it waited and was served, and its rating. */
export function ReportTable({ rows, loading }: ReportTableProps) {
  const { t, i18n } = useTranslation();
  const minutes = (value: number | null) => formatMinutes(value, i18n.language);

  return (
    <TableContainer sx={{ flex: 1, minHeight: 0 }}>
      <Table
        stickyHeader
        size="small"
        aria-label={t("reports.title")}
        sx={{ "& th, & td": { px: 1 }, "& th:first-of-type, & td:first-of-type": { pl: 2 } }}
      >
        <TableHead>
          <TableRow>
            <TableCell>{t("reports.columns.contact")}</TableCell>
            <TableCell>{t("reports.columns.user")}</TableCell>
            <TableCell>{t("reports.columns.queue")}</TableCell>
            <TableCell>{t("reports.columns.status")}</TableCell>
            <TableCell>{t("reports.columns.createdAt")}</TableCell>
            <TableCell>{t("reports.columns.closedAt")}</TableCell>
            <TableCell align="right">{t("reports.columns.waitTime")}</TableCell>
            <TableCell align="right">{t("reports.columns.supportTime")}</TableCell>
            <TableCell align="center">{t("reports.columns.rating")}</TableCell>
            <TableCell align="center">
              <Box component="span" sx={visuallyHidden}>
                {t("reports.columns.open")}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        {/* While new rows load the old ones stay, dimmed, and are said to be out of date. */}
        <TableBody
          aria-busy={loading && rows.length > 0}
          sx={{ opacity: loading && rows.length > 0 ? 0.6 : 1 }}
        >
          {rows.map((row) => (
            <TableRow key={row.id} hover data-testid={`report-row-${row.id}`}>
              <TableCell sx={{ minWidth: 140 }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {row.contact.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t("reports.ticketNumber", { id: row.id })} · {row.contact.number}
                </Typography>
              </TableCell>
              <TableCell>{row.user?.name ?? "—"}</TableCell>
              <TableCell sx={{ minWidth: 110 }}>
                {row.queue ? (
                  <Box component="span" sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                    <Box
                      component="span"
                      aria-hidden
                      sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: row.queue.color }}
                    />
                    {row.queue.name}
                  </Box>
                ) : (
                  "—"
                )}
                {row.whatsapp && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {row.whatsapp.name}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={STATUS_COLOR[row.status]}
                  label={t(`reports.status.${row.status}`)}
                />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                <DateTime value={row.createdAt} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                <DateTime value={row.closedAt} />
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {minutes(row.waitTime)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {minutes(row.supportTime)}
              </TableCell>
              <TableCell align="center">
                {row.rating === null ? (
                  "—"
                ) : (
                  <Rating
                    readOnly
                    size="small"
                    max={3}
                    value={row.rating}
                    getLabelText={(value) => t("dashboard.attendants.ratingValue", { value })}
                  />
                )}
              </TableCell>
              <TableCell align="center">
                <OpenTicketButton id={row.id} uuid={row.uuid} />
              </TableCell>
            </TableRow>
          ))}
          {loading && rows.length === 0 && <SkeletonRows rows={4} columns={COLUMNS} />}
          {!loading && rows.length === 0 && (
            <EmptyRow columns={COLUMNS} py={5}>
              {t("reports.empty")}
            </EmptyRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
