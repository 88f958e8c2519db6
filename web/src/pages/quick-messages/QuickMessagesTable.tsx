import { LIMITS, type QuickMessageDTO, quickMessagePreview } from "@atende/contracts";
import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import PublicIcon from "@mui/icons-material/Public";
import {
  Box,
  Chip,
  IconButton,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from "@mui/material";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../auth/AuthContext";
import { mayEditQuickMessage } from "./permissions";

interface QuickMessagesTableProps {
  records: QuickMessageDTO[];
  loading: boolean;
  hasMore: boolean;
  searching: boolean;
  onLoadMore(): void;
  onEdit(quickMessage: QuickMessageDTO): void;
  onDelete(quickMessage: QuickMessageDTO): void;
}

const COLUMNS = 5;

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

/** The quick messages by shortcode, loading the next page within 100 px of the end. */
export function QuickMessagesTable({
  records,
  loading,
  hasMore,
  searching,
  onLoadMore,
  onEdit,
  onDelete,
}: QuickMessagesTableProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const scroller = useRef<HTMLDivElement>(null);

  function nearEnd(element: HTMLElement): boolean {
    return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
  }

  // A first page that does not fill the box leaves nothing to scroll: ask for more right away.
  useEffect(() => {
    const element = scroller.current;
    if (element && hasMore && !loading && nearEnd(element)) onLoadMore();
  }, [records.length, hasMore, loading, onLoadMore]);

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
            <TableCell>{t("quickMessages.columns.shortcode")}</TableCell>
            <TableCell>{t("quickMessages.columns.message")}</TableCell>
            <TableCell>{t("quickMessages.columns.media")}</TableCell>
            <TableCell>{t("quickMessages.columns.owner")}</TableCell>
            <TableCell align="center">{t("quickMessages.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((record) => {
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
          })}
          {loading && <SkeletonRows />}
          {!loading && records.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }}>
                  {t(searching ? "quickMessages.emptySearch" : "quickMessages.empty")}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
