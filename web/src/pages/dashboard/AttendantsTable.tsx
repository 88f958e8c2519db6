import type { DashboardAttendant } from "@atende/contracts";
import {
  Box,
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
import { formatMinutes } from "../../i18n/format";

const COLUMNS = 4;
/** Ratings go from 1 (unsatisfied) to 3 (very satisfied). */
const MAX_RATING = 3;

function OnlineStatus({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 1 }}>
      <Box
        component="span"
        aria-hidden
        sx={{
          width: 10,
          height: 10,
          borderRadius: "50%",
          bgcolor: online ? "success.main" : "action.disabled",
          boxShadow: online ? (theme) => `0 0 0 3px ${theme.palette.success.main}33` : "none",
        }}
      />
      {t(online ? "dashboard.attendants.online" : "dashboard.attendants.offline")}
    </Box>
  );
}

interface AttendantsTableProps {
  attendants: DashboardAttendant[] | undefined;
}

/** Every agent of the company: average rating as stars, average service time, online or not. */
export function AttendantsTable({ attendants }: AttendantsTableProps) {
  const { t, i18n } = useTranslation();

  return (
    <TableContainer>
      <Table size="small" aria-label={t("dashboard.attendants.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("dashboard.attendants.name")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.rating")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.avgSupportTime")}</TableCell>
            <TableCell align="center">{t("dashboard.attendants.status")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {attendants?.map((attendant) => (
            <TableRow key={attendant.id} hover data-testid={`attendant-${attendant.id}`}>
              <TableCell sx={{ fontWeight: 500 }}>{attendant.name}</TableCell>
              <TableCell align="center">
                {attendant.rating === null ? (
                  <Typography variant="body2" color="text.secondary">
                    {t("dashboard.attendants.noRating")}
                  </Typography>
                ) : (
                  <Rating
                    readOnly
                    size="small"
                    max={MAX_RATING}
                    precision={0.1}
                    value={attendant.rating}
                    getLabelText={(value) =>
                      t("dashboard.attendants.ratingValue", {
                        value: new Intl.NumberFormat(i18n.language).format(value),
                      })
                    }
                  />
                )}
              </TableCell>
              <TableCell align="center">{formatMinutes(attendant.avgSupportTime, i18n.language)}</TableCell>
              <TableCell align="center">
                <OnlineStatus online={attendant.online} />
              </TableCell>
            </TableRow>
          ))}
          {!attendants && <SkeletonRows rows={3} columns={COLUMNS} />}
          {attendants?.length === 0 && (
            <EmptyRow columns={COLUMNS}>{t("dashboard.attendants.empty")}</EmptyRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
