import { isScheduleEditable, LIMITS, mayEditSchedule, type ScheduleDTO } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import VisibilityIcon from "@mui/icons-material/VisibilityOutlined";
import {
  Box,
  IconButton,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { useSessionUser } from "../../auth/AuthContext";
import { formatDate, formatTime } from "../../i18n/format";
import { ContactAvatar } from "../../components/ContactAvatar";
import { ScheduleStatusChip } from "./scheduleStatus";

interface SchedulesTableProps {
  schedules: ScheduleDTO[];
  loading: boolean;
  hasMore: boolean;
  searching: boolean;
  onLoadMore(): void;
  onOpen(schedule: ScheduleDTO): void;
  onDelete(schedule: ScheduleDTO): void;
}

const COLUMNS = 6;

function SkeletonRows() {
  return Array.from({ length: 3 }, (_, row) => (
    <TableRow key={`skeleton-${row}`} aria-hidden>
      {Array.from({ length: COLUMNS }, (_, cell) => (
        <TableCell key={cell}>
          <Skeleton />
        </TableCell>
      ))}
    </TableRow>
  ));
}

export const dateTime = (value: string | null) => (value ? `${formatDate(value)} ${formatTime(value)}` : "");

/** Schedules, latest send time first, loading the next page within 100 px of the end. */
export function SchedulesTable({
  schedules,
  loading,
  hasMore,
  searching,
  onLoadMore,
  onOpen,
  onDelete,
}: SchedulesTableProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const scroller = useRef<HTMLDivElement>(null);

  function nearEnd(element: HTMLElement): boolean {
    return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
  }

  useEffect(() => {
    const element = scroller.current;
    if (element && hasMore && !loading && nearEnd(element)) onLoadMore();
  }, [schedules.length, hasMore, loading, onLoadMore]);

  return (
    <TableContainer
      ref={scroller}
      onScroll={(event) => {
        if (hasMore && !loading && nearEnd(event.currentTarget)) onLoadMore();
      }}
      sx={{ flex: 1, minHeight: 0 }}
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("schedules.columns.contact")}</TableCell>
            <TableCell>{t("schedules.columns.body")}</TableCell>
            <TableCell>{t("schedules.columns.sendAt")}</TableCell>
            <TableCell>{t("schedules.columns.sentAt")}</TableCell>
            <TableCell>{t("schedules.columns.status")}</TableCell>
            <TableCell align="center">{t("schedules.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {schedules.map((schedule) => {
            const mine = mayEditSchedule(user, user.id, schedule);
            const editable = mine && isScheduleEditable(schedule);
            return (
              <TableRow key={schedule.id} hover data-testid={`schedule-row-${schedule.id}`}>
                <TableCell sx={{ maxWidth: 240 }}>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, minWidth: 0 }}>
                    <ContactAvatar contact={{ ...schedule.contact, isGroup: false }} size={32} />
                    <Box sx={{ minWidth: 0 }}>
                      <Typography variant="body2" noWrap>
                        {schedule.contact.name}
                      </Typography>
                      <Typography variant="caption" color="text.secondary" noWrap component="p">
                        {schedule.contact.number}
                      </Typography>
                    </Box>
                  </Box>
                </TableCell>
                <TableCell sx={{ maxWidth: 360 }}>
                  <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
                    {schedule.mediaName && (
                      <AttachFileIcon fontSize="small" color="action" titleAccess={schedule.mediaName} />
                    )}
                    <Typography variant="body2" noWrap title={schedule.body}>
                      {schedule.body}
                    </Typography>
                  </Box>
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{dateTime(schedule.sendAt)}</TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{dateTime(schedule.sentAt)}</TableCell>
                <TableCell>
                  <ScheduleStatusChip schedule={schedule} />
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  <IconButton
                    size="small"
                    aria-label={`${t(editable ? "schedules.edit" : "schedules.details")} ${schedule.contact.name}`}
                    onClick={() => onOpen(schedule)}
                  >
                    {editable ? <EditIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
                  </IconButton>
                  {schedule.ticket && (
                    <IconButton
                      size="small"
                      component={RouterLink}
                      to={`/tickets/${schedule.ticket.uuid}`}
                      aria-label={`${t("schedules.openTicket")} ${schedule.contact.name}`}
                    >
                      <OpenInNewIcon fontSize="small" />
                    </IconButton>
                  )}
                  {mine && (
                    <IconButton
                      size="small"
                      aria-label={`${t("schedules.delete")} ${schedule.contact.name}`}
                      onClick={() => onDelete(schedule)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
          {loading && <SkeletonRows />}
          {!loading && schedules.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
                  {t(searching ? "schedules.emptySearch" : "schedules.empty")}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
