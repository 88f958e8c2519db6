import { isScheduleEditable, mayEditSchedule, type ScheduleDTO } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import VisibilityIcon from "@mui/icons-material/VisibilityOutlined";
import { Box, IconButton, TableCell, TableRow, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { useSessionUser } from "../../auth/AuthContext";
import { ContactAvatar } from "../../components/ContactAvatar";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { formatDate, formatTime } from "../../i18n/format";
import { ScheduleStatusChip } from "./scheduleStatus";

interface SchedulesTableProps {
  list: SearchableList<ScheduleDTO>;
  onOpen(schedule: ScheduleDTO): void;
  onDelete(schedule: ScheduleDTO): void;
}

export const dateTime = (value: string | null) => (value ? `${formatDate(value)} ${formatTime(value)}` : "");

/** Schedules, latest send time first, loading the next page within 100 px of the end. */
export function SchedulesTable({ list, onOpen, onDelete }: SchedulesTableProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("schedules.columns.contact") },
        { label: t("schedules.columns.body") },
        { label: t("schedules.columns.sendAt") },
        { label: t("schedules.columns.sentAt") },
        { label: t("schedules.columns.status") },
        { label: t("schedules.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "schedules.emptySearch" : "schedules.empty")}
      renderRow={(schedule) => {
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
      }}
    />
  );
}
