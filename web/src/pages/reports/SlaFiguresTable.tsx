import { SLA_TARGETS, type SlaTargetFigures } from "@atende/contracts";
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
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EmptyRow, SkeletonRows } from "../../components/TableStates";
import { formatMinutes } from "../../i18n/format";

export interface SlaFiguresLine {
  key: string;
  name: ReactNode;
  firstResponse: SlaTargetFigures;
  resolution: SlaTargetFigures;
}

const PER_TARGET = ["counted", "met", "breached", "metPercent", "median", "p90"] as const;
const COLUMNS = 1 + PER_TARGET.length * SLA_TARGETS.length;

interface SlaFiguresTableProps {
  title: string;
  /** The first column's heading: queue or agent. */
  nameHeading: string;
  lines: SlaFiguresLine[];
  total?: SlaFiguresLine;
  loading: boolean;
  testId: string;
}

/** One line per queue (or agent): each target's tickets, met, breached, % met, median and p90. */
export function SlaFiguresTable({ title, nameHeading, lines, total, loading, testId }: SlaFiguresTableProps) {
  const { t, i18n } = useTranslation();
  const titleId = `${testId}-title`;
  const duration = (seconds: number | null) =>
    formatMinutes(seconds === null ? null : seconds / 60, i18n.language);
  const percent = (value: number | null) =>
    value === null
      ? "—"
      : t("slaReport.percent", {
          value: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value),
        });

  const cells = (line: SlaFiguresLine) =>
    SLA_TARGETS.flatMap((target) => {
      const f = line[target];
      return [
        <TableCell key={`${target}-counted`} align="right" sx={{ borderLeft: 1, borderColor: "divider" }}>
          {f.counted}
        </TableCell>,
        <TableCell key={`${target}-met`} align="right">
          {f.met}
        </TableCell>,
        <TableCell
          key={`${target}-breached`}
          align="right"
          sx={{ color: f.breached > 0 ? "error.main" : undefined }}
        >
          {f.breached}
        </TableCell>,
        <TableCell key={`${target}-pct`} align="right" sx={{ fontWeight: 600 }}>
          {percent(f.metPercent)}
        </TableCell>,
        <TableCell key={`${target}-median`} align="right" sx={{ whiteSpace: "nowrap" }}>
          {duration(f.medianSeconds)}
        </TableCell>,
        <TableCell key={`${target}-p90`} align="right" sx={{ whiteSpace: "nowrap" }}>
          {duration(f.p90Seconds)}
        </TableCell>,
      ];
    });

  return (
    <Box component="section" aria-labelledby={titleId} data-testid={testId}>
      <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {/* A wide table scrolls sideways on a narrow screen: the box takes the keyboard's focus so it
          can be scrolled without a mouse, even with no link inside (WCAG 2.1.1). */}
      <TableContainer tabIndex={0} role="region" aria-labelledby={titleId}>
        <Table size="small" aria-labelledby={titleId} sx={{ "& th, & td": { px: 0.75 } }}>
          <TableHead>
            <TableRow>
              <TableCell rowSpan={2}>{nameHeading}</TableCell>
              {SLA_TARGETS.map((target) => (
                <TableCell
                  key={target}
                  colSpan={PER_TARGET.length}
                  align="center"
                  sx={{ borderLeft: 1, borderColor: "divider", fontWeight: 600 }}
                >
                  {t(`slaReport.targets.${target}`)}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              {SLA_TARGETS.flatMap((target) =>
                PER_TARGET.map((column, i) => (
                  <TableCell
                    key={`${target}-${column}`}
                    align="right"
                    sx={i === 0 ? { borderLeft: 1, borderColor: "divider" } : undefined}
                  >
                    {t(`slaReport.columns.${column}`)}
                  </TableCell>
                )),
              )}
            </TableRow>
          </TableHead>
          <TableBody aria-busy={loading} sx={{ opacity: loading && lines.length > 0 ? 0.6 : 1 }}>
            {lines.map((line) => (
              <TableRow key={line.key} hover>
                <TableCell component="th" scope="row" sx={{ fontWeight: 500 }}>
                  {line.name}
                </TableCell>
                {cells(line)}
              </TableRow>
            ))}
            {total && lines.length > 1 && (
              <TableRow sx={{ "& td, & th": { fontWeight: 700 } }}>
                <TableCell component="th" scope="row">
                  {total.name}
                </TableCell>
                {cells(total)}
              </TableRow>
            )}
            {loading && lines.length === 0 && <SkeletonRows rows={2} columns={COLUMNS} />}
            {!loading && lines.length === 0 && <EmptyRow columns={COLUMNS}>{t("slaReport.empty")}</EmptyRow>}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
