import type { WhatsappDTO } from "@atende/contracts";
import CheckIcon from "@mui/icons-material/Check";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import {
  Button,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { useTranslation } from "react-i18next";
import { SessionButtons, StatusIcon, type SessionActions } from "./ConnectionStatus";
import { formatConnectionNumber, formatShortDateTime } from "./format";
import { SkeletonRows } from "../../components/TableStates";
import { useWhatsappHistory } from "../../api/whatsapps";

interface ConnectionsTableProps {
  whatsapps: WhatsappDTO[];
  loading: boolean;
  /** connections-page:actionButtons */
  showSessionButtons: boolean;
  /** connections-page:editOrDeleteConnection */
  canEdit: boolean;
  /** Set when the viewer may add a connection: the empty state offers it. */
  onAdd?: () => void;
  /** Connections whose session call is running. */
  busyIds: ReadonlySet<number>;
  sessionActions: SessionActions;
  onEdit(whatsapp: WhatsappDTO): void;
  onDelete(whatsapp: WhatsappDTO): void;
}

const COLUMNS = 7;

export function ConnectionsTable({
  whatsapps,
  loading,
  showSessionButtons,
  canEdit,
  onAdd,
  busyIds,
  sessionActions,
  onEdit,
  onDelete,
}: ConnectionsTableProps) {
  const { t } = useTranslation();
  const history = useWhatsappHistory();
  return (
    <TableContainer sx={{ flex: 1, minHeight: 0 }}>
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("connections.columns.name")}</TableCell>
            <TableCell>{t("connections.columns.number")}</TableCell>
            <TableCell align="center">{t("connections.columns.status")}</TableCell>
            <TableCell align="center">{t("connections.columns.session")}</TableCell>
            <TableCell align="center">{t("connections.columns.lastUpdate")}</TableCell>
            <TableCell align="center">{t("connections.columns.isDefault")}</TableCell>
            <TableCell align="center">{t("connections.columns.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {!loading &&
            whatsapps.map((whatsapp) => (
              <TableRow key={whatsapp.id} hover>
                <TableCell>
                  {whatsapp.name}
                  {history.has(whatsapp.id) && (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      role="status"
                      sx={{ display: "block" }}
                    >
                      {t("connections.historyImport", { count: history.get(whatsapp.id)!.imported })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{formatConnectionNumber(whatsapp.number)}</TableCell>
                <TableCell align="center">
                  <StatusIcon status={whatsapp.status} />
                </TableCell>
                <TableCell align="center">
                  {showSessionButtons && (
                    <SessionButtons
                      whatsapp={whatsapp}
                      actions={sessionActions}
                      busy={busyIds.has(whatsapp.id)}
                    />
                  )}
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  {formatShortDateTime(whatsapp.updatedAt)}
                </TableCell>
                <TableCell align="center">
                  {whatsapp.isDefault && (
                    <CheckIcon color="success" titleAccess={t("connections.isDefault")} />
                  )}
                </TableCell>
                <TableCell align="center" sx={{ whiteSpace: "nowrap" }}>
                  {canEdit && (
                    <>
                      <IconButton
                        size="small"
                        aria-label={t("connections.edit")}
                        onClick={() => onEdit(whatsapp)}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={t("connections.delete")}
                        onClick={() => onDelete(whatsapp)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          {loading && <SkeletonRows rows={3} columns={COLUMNS} />}
          {!loading && whatsapps.length === 0 && (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <Stack spacing={2} sx={{ py: 4, alignItems: "center" }}>
                  <Typography color="text.secondary" sx={{ textAlign: "center" }}>
                    {t("connections.empty")}
                  </Typography>
                  {onAdd && (
                    <Button variant="outlined" onClick={onAdd}>
                      {t("connections.emptyAction")}
                    </Button>
                  )}
                </Stack>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
