import type { WhatsappDTO } from "@atende/contracts";
import AddIcon from "@mui/icons-material/Add";
import RestartAltIcon from "@mui/icons-material/RestartAlt";
import { Box, Button, Paper, Stack, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast, toastError } from "../../api/toast";
import {
  deleteWhatsapp,
  disconnectSession,
  removeWhatsapp,
  requestNewQrCode,
  restartConnections,
  startSession,
  useWhatsapps,
} from "../../api/whatsapps";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { ConnectionDialog } from "./ConnectionDialog/ConnectionDialog";
import type { SessionActions } from "./ConnectionStatus";
import { ConnectionsTable } from "./ConnectionsTable";
import { QrCodeDialog } from "./QrCodeDialog";

/** Which connection the dialog edits: null adds one; undefined means the dialog is closed. */
type Editing = number | null | undefined;

export function ConnectionsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const list = useWhatsapps();
  const whatsapps = list.data ?? [];
  const [editing, setEditing] = useState<Editing>(undefined);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<WhatsappDTO | null>(null);
  const [disconnecting, setDisconnecting] = useState<WhatsappDTO | null>(null);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(new Set());
  const [restarting, setRestarting] = useState(false);
  const canAdd = can(user, "connections-page:addConnection");
  const closeQr = useCallback(() => setQrFor(null), []);
  const closeEditor = useCallback(() => setEditing(undefined), []);

  async function sessionCall(whatsapp: WhatsappDTO, call: (id: number) => Promise<void>) {
    setBusyIds((ids) => new Set(ids).add(whatsapp.id));
    try {
      await call(whatsapp.id);
    } catch (error) {
      toastError(error);
    } finally {
      setBusyIds((ids) => {
        const next = new Set(ids);
        next.delete(whatsapp.id);
        return next;
      });
    }
  }

  const sessionActions: SessionActions = {
    showQr: (whatsapp) => setQrFor(whatsapp.id),
    tryAgain: (whatsapp) => void sessionCall(whatsapp, startSession),
    newQr: (whatsapp) => void sessionCall(whatsapp, requestNewQrCode),
    disconnect: setDisconnecting,
  };

  async function restart() {
    setRestarting(true);
    try {
      await restartConnections();
      toast(t("connections.restarting"), "warning");
    } catch (error) {
      toastError(error);
    } finally {
      setRestarting(false);
    }
  }

  async function confirm(action: () => Promise<void>, close: () => void) {
    setConfirmBusy(true);
    try {
      await action();
      close();
    } catch (error) {
      toastError(error);
    } finally {
      setConfirmBusy(false);
    }
  }

  const confirmDelete = (whatsapp: WhatsappDTO) =>
    confirm(
      async () => {
        await deleteWhatsapp(whatsapp.id);
        removeWhatsapp(queryClient, whatsapp.id);
        toast(t("connections.deleted"), "success");
      },
      () => setDeleting(null),
    );

  const confirmDisconnect = (whatsapp: WhatsappDTO) =>
    confirm(
      () => disconnectSession(whatsapp.id),
      () => setDisconnecting(null),
    );

  return (
    <Box
      sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2, flex: 1, minHeight: 0 }}
    >
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 600 }}>
          {t("connections.title")}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<RestartAltIcon />}
          loading={restarting}
          loadingPosition="start"
          onClick={() => void restart()}
        >
          {t("connections.restart")}
        </Button>
        {canAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
            {t("connections.add")}
          </Button>
        )}
      </Stack>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        <ConnectionsTable
          whatsapps={whatsapps}
          loading={list.isPending}
          showSessionButtons={can(user, "connections-page:actionButtons")}
          canEdit={can(user, "connections-page:editOrDeleteConnection")}
          onAdd={canAdd ? () => setEditing(null) : undefined}
          busyIds={busyIds}
          sessionActions={sessionActions}
          onEdit={(whatsapp) => setEditing(whatsapp.id)}
          onDelete={setDeleting}
        />
      </Paper>
      {editing !== undefined && <ConnectionDialog whatsappId={editing} onClose={closeEditor} />}
      {qrFor !== null && <QrCodeDialog whatsapp={whatsapps.find((w) => w.id === qrFor)} onClose={closeQr} />}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("connections.deleteTitle", { name: deleting?.name ?? "" })}
        message={t("connections.deleteConfirm")}
        busy={confirmBusy}
        onConfirm={() => deleting && void confirmDelete(deleting)}
        onClose={() => setDeleting(null)}
      />
      <ConfirmationDialog
        open={disconnecting !== null}
        title={t("connections.disconnectTitle", { name: disconnecting?.name ?? "" })}
        message={t("connections.disconnectConfirm")}
        busy={confirmBusy}
        onConfirm={() => disconnecting && void confirmDisconnect(disconnecting)}
        onClose={() => setDisconnecting(null)}
      />
    </Box>
  );
}
