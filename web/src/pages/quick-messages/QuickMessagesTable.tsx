import { type QuickMessageDTO, quickMessagePreview } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import PublicIcon from "@mui/icons-material/Public";
import { Box, Chip, IconButton, TableCell, TableRow, Tooltip, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../auth/AuthContext";
import { InfiniteTable } from "../../components/InfiniteTable";
import type { SearchableList } from "../../hooks/useSearchableList";
import { mayEditQuickMessage } from "./permissions";

interface QuickMessagesTableProps {
  list: SearchableList<QuickMessageDTO>;
  onEdit(quickMessage: QuickMessageDTO): void;
  onDelete(quickMessage: QuickMessageDTO): void;
}

/** The quick messages by shortcode, loading the next page within 100 px of the end. */
export function QuickMessagesTable({ list, onEdit, onDelete }: QuickMessagesTableProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  return (
    <InfiniteTable
      list={list}
      columns={[
        { label: t("quickMessages.columns.shortcode") },
        { label: t("quickMessages.columns.message") },
        { label: t("quickMessages.columns.media") },
        { label: t("quickMessages.columns.owner") },
        { label: t("quickMessages.columns.actions"), align: "center" },
      ]}
      empty={t(list.search !== "" ? "quickMessages.emptySearch" : "quickMessages.empty")}
      renderRow={(record) => {
        const editable = mayEditQuickMessage(user, record);
        return (
          <TableRow key={record.id} hover data-testid={`quick-message-row-${record.id}`}>
            <TableCell sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>/{record.shortcode}</TableCell>
            <TableCell sx={{ maxWidth: 420 }}>
              <Typography variant="body2" noWrap title={record.message}>
                {quickMessagePreview(record.message)}
              </Typography>
            </TableCell>
            <TableCell sx={{ maxWidth: 200 }}>
              {record.mediaName && (
                <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
                  <AttachFileIcon fontSize="small" color="action" />
                  <Typography variant="body2" noWrap title={record.mediaName}>
                    {record.mediaName}
                  </Typography>
                </Box>
              )}
            </TableCell>
            <TableCell sx={{ whiteSpace: "nowrap" }}>
              {record.geral ? (
                <Tooltip title={t("quickMessages.globalHint")}>
                  <Chip
                    size="small"
                    color="primary"
                    icon={<PublicIcon />}
                    label={t("quickMessages.global")}
                  />
                </Tooltip>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {record.user?.name ?? t("quickMessages.personal")}
                </Typography>
              )}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
              {editable && (
                <>
                  <IconButton
                    size="small"
                    aria-label={`${t("quickMessages.edit")} /${record.shortcode}`}
                    onClick={() => onEdit(record)}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={`${t("quickMessages.delete")} /${record.shortcode}`}
                    onClick={() => onDelete(record)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </>
              )}
            </TableCell>
          </TableRow>
        );
      }}
    />
  );
}
