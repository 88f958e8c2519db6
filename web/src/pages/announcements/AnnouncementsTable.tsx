import type { AnnouncementAdminDTO } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import { Chip, TableCell, TableRow, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { AnnouncementPriorityChip } from "../../components/AnnouncementPriorityChip";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { RowActions } from "../../components/RowActions";

interface AnnouncementsTableProps {
  list: SearchableList<AnnouncementAdminDTO>;
  onEdit(record: AnnouncementAdminDTO): void;
  onDelete(record: AnnouncementAdminDTO): void;
}

/** The announcements, newest first, loading the next page within 100 px of the end. */
export function AnnouncementsTable({ list, onEdit, onDelete }: AnnouncementsTableProps) {
  const { t } = useTranslation();
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("announcements.columns.title") },
        { label: t("announcements.columns.priority"), align: "center" },
        { label: t("announcements.columns.status"), align: "center" },
        { label: t("announcements.columns.audience"), align: "center" },
        { label: t("announcements.columns.media"), align: "center" },
        { label: t("announcements.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "announcements.emptySearch" : "announcements.empty")}
      renderRow={(record) => (
        <TableRow key={record.id} hover data-testid={`announcement-row-${record.id}`}>
          <TableCell sx={{ maxWidth: 420 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
              {record.title}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="p">
              {record.text}
            </Typography>
          </TableCell>
          <TableCell align="center">
            <AnnouncementPriorityChip priority={record.priority} />
          </TableCell>
          <TableCell align="center">
            <Chip
              size="small"
              variant="outlined"
              color={record.status ? "success" : "default"}
              label={t(record.status ? "announcements.status.active" : "announcements.status.inactive")}
            />
          </TableCell>
          <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
            {record.allCompanies
              ? t("announcements.audience.all")
              : t("announcements.audience.chosen", { count: record.companyIds.length })}
          </TableCell>
          <TableCell align="center">
            {record.mediaName && (
              <Tooltip title={record.mediaName}>
                <AttachFileIcon fontSize="small" titleAccess={record.mediaName} />
              </Tooltip>
            )}
          </TableCell>
          <RowActions
            name={record.title}
            editLabel={t("announcements.edit")}
            deleteLabel={t("announcements.delete")}
            onEdit={() => onEdit(record)}
            onDelete={() => onDelete(record)}
          />
        </TableRow>
      )}
    />
  );
}
