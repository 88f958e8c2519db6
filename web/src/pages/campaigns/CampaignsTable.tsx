import { type CampaignDTO, isCampaignEditable } from "@atende/contracts";
import AssessmentIcon from "@mui/icons-material/AssessmentOutlined";
import CancelIcon from "@mui/icons-material/CancelScheduleSendOutlined";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import RestartIcon from "@mui/icons-material/RestartAlt";
import ViewIcon from "@mui/icons-material/VisibilityOutlined";
import { IconButton, TableCell, TableRow, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { formatDate, formatTime } from "../../i18n/format";
import { CampaignStatusChip } from "./CampaignStatusChip";

interface CampaignsTableProps {
  list: SearchableList<CampaignDTO>;
  onEdit(record: CampaignDTO): void;
  onDelete(record: CampaignDTO): void;
  onCancel(record: CampaignDTO): void;
  onRestart(record: CampaignDTO): void;
  onReport(record: CampaignDTO): void;
  /** A call in flight for this campaign (cancel, restart): its buttons wait. */
  busyId: number | null;
}

export function dateTime(value: string | null): string {
  return value ? `${formatDate(value)} ${formatTime(value)}` : "";
}

/** The spec's columns: name, status, contact list, connection, scheduled, completed, actions. */
export function CampaignsTable(props: CampaignsTableProps) {
  const { list, onEdit, onDelete, onCancel, onRestart, onReport, busyId } = props;
  const { t } = useTranslation();
  return (
    <InfiniteTable
      list={list}
      aria-label={t("campaigns.title")}
      columns={[
        { label: t("campaigns.columns.name") },
        { label: t("campaigns.columns.status"), align: "center" },
        { label: t("campaigns.columns.audience"), align: "center" },
        { label: t("campaigns.columns.whatsapp"), align: "center" },
        { label: t("campaigns.columns.scheduledAt"), align: "center" },
        { label: t("campaigns.columns.completedAt"), align: "center" },
        { label: t("campaigns.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "campaigns.emptySearch" : "campaigns.empty")}
      renderRow={(record) => {
        const editable = isCampaignEditable(record);
        const label = (action: string) => `${t(`campaigns.actions.${action}`)} ${record.name}`;
        return (
          <TableRow key={record.id} hover data-testid={`campaign-row-${record.id}`}>
            <TableCell sx={{ maxWidth: 320 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
                {record.name}
              </Typography>
            </TableCell>
            <TableCell align="center">
              <CampaignStatusChip campaign={record} />
            </TableCell>
            <TableCell align="center">
              {record.contactList?.name ??
                (record.tagList
                  ? t("campaigns.tagAudience", { name: record.tagList.name })
                  : t("campaigns.noAudience"))}
            </TableCell>
            <TableCell align="center">{record.whatsapp?.name ?? t("campaigns.noAudience")}</TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {dateTime(record.scheduledAt) || t("campaigns.noSchedule")}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {dateTime(record.completedAt) || t("campaigns.notCompleted")}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {record.status === "EM_ANDAMENTO" && (
                <Tooltip title={t("campaigns.actions.cancel")}>
                  <IconButton
                    size="small"
                    aria-label={label("cancel")}
                    disabled={busyId === record.id}
                    onClick={() => onCancel(record)}
                  >
                    <CancelIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
              {record.status === "CANCELADA" && (
                <Tooltip title={t("campaigns.actions.restart")}>
                  <IconButton
                    size="small"
                    aria-label={label("restart")}
                    disabled={busyId === record.id}
                    onClick={() => onRestart(record)}
                  >
                    <RestartIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
              <Tooltip title={t("campaigns.actions.report")}>
                <IconButton size="small" aria-label={label("report")} onClick={() => onReport(record)}>
                  <AssessmentIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title={t(editable ? "campaigns.actions.edit" : "campaigns.actions.view")}>
                <IconButton
                  size="small"
                  aria-label={label(editable ? "edit" : "view")}
                  onClick={() => onEdit(record)}
                >
                  {editable ? <EditIcon fontSize="small" /> : <ViewIcon fontSize="small" />}
                </IconButton>
              </Tooltip>
              <Tooltip title={t("campaigns.actions.delete")}>
                <IconButton size="small" aria-label={label("delete")} onClick={() => onDelete(record)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        );
      }}
    />
  );
}
