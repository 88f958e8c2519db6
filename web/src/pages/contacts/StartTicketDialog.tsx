import type { ContactDTO, OtherOpenTicketError, QueueDTO } from "@atende/contracts";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ApiError } from "../../api/http";
import { createTicket, fetchTicket } from "../../api/tickets";
import { toastError } from "../../api/toast";
import { fetchQueues } from "../../api/users";
import { useWhatsapps } from "../../api/whatsapps";
import { useSessionUser } from "../../auth/AuthContext";
import { queueKeys } from "../../api/queues";

interface StartTicketDialogProps {
  contact: ContactDTO;
  onClose(): void;
}

/** "" in the selects: no queue (admins only) / the user's or the company's default connection. */
type Choice = number | "";

function otherOpenOf(error: unknown): OtherOpenTicketError | null {
  if (!(error instanceof ApiError) || error.code !== "ERR_OTHER_OPEN_TICKET") return null;
  return error.body as OtherOpenTicketError;
}

/**
 * Opens a new ticket with the contact (POST /tickets, status open, for the current user) and goes
 * to its chat. The queue is required unless the user is an admin; with one queue it is preselected.
 */
export function StartTicketDialog({ contact, onClose }: StartTicketDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  const titleId = useId();
  const isAdmin = user.profile === "admin";
  const allQueues = useQuery({
    queryKey: queueKeys.all,
    queryFn: ({ signal }) => fetchQueues(signal),
    enabled: isAdmin,
  });
  const queues: QueueDTO[] = isAdmin ? (allQueues.data ?? []) : user.queues;
  const [queueId, setQueueId] = useState<Choice>(
    !isAdmin && user.queues.length === 1 ? user.queues[0]!.id : "",
  );
  const [whatsappId, setWhatsappId] = useState<Choice>(user.whatsappId ?? "");
  const [queueMissing, setQueueMissing] = useState(false);
  const [otherOpen, setOtherOpen] = useState<OtherOpenTicketError | null>(null);
  const [saving, setSaving] = useState(false);
  const whatsapps = useWhatsapps();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (queueId === "" && !isAdmin) {
      setQueueMissing(true);
      return;
    }
    setSaving(true);
    setOtherOpen(null);
    try {
      const ticket = await createTicket({
        contactId: contact.id,
        queueId: queueId === "" ? null : queueId,
        whatsappId: whatsappId === "" ? undefined : whatsappId,
        userId: user.id,
        status: "open",
      });
      void navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      const holder = otherOpenOf(error);
      if (holder) setOtherOpen(holder);
      else toastError(error);
    } finally {
      setSaving(false);
    }
  }

  async function openExisting(ticketId: number) {
    try {
      const ticket = await fetchTicket(ticketId);
      void navigate(`/tickets/${ticket.uuid}`);
    } catch (error) {
      toastError(error);
    }
  }

  function otherOpenText(holder: OtherOpenTicketError): string {
    const key = holder.userName ? "otherOpen" : "otherOpenWaiting";
    return t(`contacts.startTicket.${key}${holder.queueName ? "" : "NoQueue"}`, {
      user: holder.userName,
      queue: holder.queueName,
    });
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t("contacts.startTicket.title", { name: contact.name })}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              id="start-ticket-queue"
              label={t("contacts.startTicket.queue")}
              value={queueId}
              required={!isAdmin}
              error={queueMissing}
              helperText={queueMissing ? t("contacts.startTicket.selectQueue") : undefined}
              onChange={(event) => {
                setQueueId(event.target.value === "" ? "" : Number(event.target.value));
                setQueueMissing(false);
              }}
            >
              {isAdmin && (
                <MenuItem value="">
                  <em>{t("contacts.startTicket.noQueue")}</em>
                </MenuItem>
              )}
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  <Box
                    component="span"
                    sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: queue.color, mr: 1 }}
                  />
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              id="start-ticket-connection"
              label={t("contacts.startTicket.connection")}
              value={whatsappId}
              onChange={(event) => setWhatsappId(event.target.value === "" ? "" : Number(event.target.value))}
            >
              <MenuItem value="">
                <em>{t("contacts.startTicket.defaultConnection")}</em>
              </MenuItem>
              {(whatsapps.data ?? []).map((whatsapp) => (
                <MenuItem key={whatsapp.id} value={whatsapp.id}>
                  {whatsapp.name}
                </MenuItem>
              ))}
            </TextField>
            {otherOpen && (
              <Alert
                severity="warning"
                action={
                  <Button color="inherit" size="small" onClick={() => void openExisting(otherOpen.ticketId)}>
                    {t("contacts.startTicket.openExisting")}
                  </Button>
                }
              >
                {otherOpenText(otherOpen)}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" loading={saving}>
            {t("contacts.startTicket.start")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
