import type { SlaBreachRow } from "@atende/contracts";
import {
  Box,
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
import { formatDate, formatTime } from "../../i18n/format";
import { visuallyHidden } from "../../components/visuallyHidden";
import { OpenTicketButton } from "./OpenTicketButton";

const COLUMNS = 7;

function When({ value }: { value: string }) {
  return (
    <>
      {formatDate(value)}
      <Typography variant="caption" color="text.secondary" component="div">
        {formatTime(value)}
      </Typography>
    </>
  );
}

interface SlaBreachesTableProps {
  rows: SlaBreachRow[];
  loading: boolean;
}

/** One line per missed target: the ticket (a link to it), where, who, which target, due and reached. */
export function SlaBreachesTable({ rows, loading }: SlaBreachesTableProps) {
  const { t } = useTranslation();
  return (
    // Scrolls sideways on a narrow screen: focusable so the keyboard can scroll it (WCAG 2.1.1).
    <TableContainer tabIndex={0} role="region" aria-labelledby="sla-breaches-title">
      <Table size="small" aria-labelledby="sla-breaches-title" sx={{ "& th, & td": { px: 1 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{t("slaReport.breaches.contact")}</TableCell>
            <TableCell>{t("slaReport.breaches.queue")}</TableCell>
            <TableCell>{t("slaReport.breaches.user")}</TableCell>
            <TableCell>{t("slaReport.breaches.target")}</TableCell>
            <TableCell>{t("slaReport.breaches.dueAt")}</TableCell>
            <TableCell>{t("slaReport.breaches.reachedAt")}</TableCell>
            <TableCell align="center">
              <Box component="span" sx={visuallyHidden}>
                {t("slaReport.breaches.open")}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody aria-busy={loading} sx={{ opacity: loading && rows.length > 0 ? 0.6 : 1 }}>
          {rows.map((row) => (
            <TableRow key={`${row.ticketId}-${row.target}`} hover data-testid={`sla-breach-${row.ticketId}`}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {row.contact.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {t("reports.ticketNumber", { id: row.ticketId })}
                </Typography>
              </TableCell>
              <TableCell>
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
              </TableCell>
              <TableCell>{row.user?.name ?? "—"}</TableCell>
              <TableCell>{t(`slaReport.targets.${row.target}`)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                <When value={row.dueAt} />
              </TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {row.reachedAt ? (
                  <When value={row.reachedAt} />
                ) : (
                  <Typography variant="body2" color="error.main">
                    {t("slaReport.breaches.stillOpen")}
                  </Typography>
                )}
              </TableCell>
              <TableCell align="center">
                <OpenTicketButton id={row.ticketId} uuid={row.uuid} />
              </TableCell>
            </TableRow>
          ))}
          {loading && rows.length === 0 && <SkeletonRows rows={3} columns={COLUMNS} />}
          {!loading && rows.length === 0 && (
            <EmptyRow columns={COLUMNS}>{t("slaReport.breaches.empty")}</EmptyRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
