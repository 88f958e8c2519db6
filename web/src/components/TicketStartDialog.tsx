import {
  type ContactDTO,
  type OtherOpenTicketError,
  type QueueDTO,
  type TicketDTO,
  queueRequired,
} from "@atende/contracts";
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
import { ApiError } from "../api/http";
import { queueKeys } from "../api/queues";
import { createTicket, fetchTicket, type ContactOption } from "../api/tickets";
import { toastError } from "../api/toast";
import { fetchQueues } from "../api/users";
import { useWhatsapps } from "../api/whatsapps";
import { useSessionUser } from "../auth/AuthContext";
import { can } from "../auth/permissions";
import { ContactSearchField } from "./ContactSearchField";

interface TicketStartDialogProps {
  /** The contact to start with (the contacts page); without one, the dialog searches for it. */
  contact?: ContactDTO;
  /** The queues offered; by default the user's own, every queue of the company with tickets:accessAny. */
  queues?: QueueDTO[];
  /** The queue chosen at first; by default the only queue of a user who has one. */
  initialQueueId?: number;
  onStarted(ticket: TicketDTO): void;
  /** When given, the warning about the contact's other open ticket offers to open that one. */
  onOpenExisting?(ticket: TicketDTO): void;
  onClose(): void;
}

/** "" in the selects: no queue (tickets:accessAny only) / the user's or the company's default connection. */
type Choice = number | "";

function otherOpenOf(error: unknown): OtherOpenTicketError | null {
  if (!(error instanceof ApiError) || error.code !== "ERR_OTHER_OPEN_TICKET") return null;
  return error.body as OtherOpenTicketError;
}

/**
 * Opens a ticket with a contact as the user's own (POST /tickets, status open), in a queue and on a
 * connection. The queue is required unless the user is an admin. A contact who already has an open
 * or waiting ticket (ERR_OTHER_OPEN_TICKET) gets a warning naming who holds it.
 *
 * Two screens open it: the tickets page, where the contact is searched ("Novo Ticket"), and a
 * contact's row, where it is given ("Iniciar atendimento com ..."). Each keeps its own texts and
 * look, as before they shared this dialog.
 */
export function TicketStartDialog({
  contact: givenContact,
  queues: givenQueues,
  initialQueueId,
  onStarted,
  onOpenExisting,
  onClose,
}: TicketStartDialogProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const titleId = useId();
  const fieldId = useId();
  // Access to any ticket (an admin): any queue of the company, or none, as the server's policy allows.
  const anyQueue = can(user, "tickets:accessAny");
  const searching = !givenContact;
  const texts = searching ? "tickets.newTicketDialog" : "contacts.startTicket";

  const companyQueues = useQuery({
    queryKey: queueKeys.all,
    queryFn: ({ signal }) => fetchQueues(signal),
    enabled: anyQueue && !givenQueues,
  });
  const queues: QueueDTO[] = givenQueues ?? (anyQueue ? (companyQueues.data ?? []) : user.queues);
  const ownQueue = !anyQueue && user.queues.length === 1 ? user.queues[0]!.id : undefined;

  const [picked, setPicked] = useState<ContactOption | null>(null);
  const [queueId, setQueueId] = useState<Choice>((givenQueues ? initialQueueId : ownQueue) ?? "");
  const [whatsappId, setWhatsappId] = useState<Choice>(user.whatsappId ?? "");
  const [queueMissing, setQueueMissing] = useState(false);
  const [otherOpen, setOtherOpen] = useState<OtherOpenTicketError | null>(null);
  const [saving, setSaving] = useState(false);
  const whatsapps = useWhatsapps();
  const contactId = givenContact?.id ?? picked?.id;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (contactId === undefined) return;
    if (queueId === "" && queueRequired(user)) {
      setQueueMissing(true);
      return;
    }
    setSaving(true);
    setOtherOpen(null);
    try {
      const ticket = await createTicket({
        contactId,
        queueId: queueId === "" ? null : queueId,
        whatsappId: whatsappId === "" ? undefined : whatsappId,
        userId: user.id,
        status: "open",
      });
      onStarted(ticket);
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
      onOpenExisting?.(await fetchTicket(ticketId));
    } catch (error) {
      toastError(error);
    }
  }

  function otherOpenText(holder: OtherOpenTicketError): string {
    const key = holder.userName ? "otherOpen" : "otherOpenWaiting";
    return t(`${texts}.${key}${holder.queueName ? "" : "NoQueue"}`, {
      user: holder.userName,
      queue: holder.queueName,
    });
  }

  // The searching dialog shows its empty choices ("Sem fila", "Conexão padrão") in the fields.
  const showEmpty = { inputLabel: { shrink: true }, select: { displayEmpty: true } };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>
          {givenContact
            ? t("contacts.startTicket.title", { name: givenContact.name })
            : t("tickets.newTicketDialog.title")}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {searching && (
              <ContactSearchField
                texts="tickets.newTicketDialog"
                autoFocus
                value={picked}
                onChange={(value) => {
                  setPicked(value);
                  setOtherOpen(null);
                }}
              />
            )}
            <TextField
              select
              id={`${fieldId}-queue`}
              label={t(`${texts}.queue`)}
              value={queueId}
              required={queueRequired(user)}
              slotProps={searching && anyQueue ? showEmpty : undefined}
              error={queueMissing}
              helperText={queueMissing ? t(`${texts}.selectQueue`) : undefined}
              onChange={(event) => {
                setQueueId(event.target.value === "" ? "" : Number(event.target.value));
                setQueueMissing(false);
              }}
            >
              {anyQueue && (
                <MenuItem value="">
                  <em>{t(`${texts}.noQueue`)}</em>
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
              id={`${fieldId}-connection`}
              label={t(`${texts}.connection`)}
              value={whatsappId}
              slotProps={searching ? showEmpty : undefined}
              onChange={(event) => setWhatsappId(event.target.value === "" ? "" : Number(event.target.value))}
            >
              <MenuItem value="">
                <em>{t(`${texts}.defaultConnection`)}</em>
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
                  onOpenExisting && (
                    <Button
                      color="inherit"
                      size="small"
                      onClick={() => void openExisting(otherOpen.ticketId)}
                    >
                      {t("contacts.startTicket.openExisting")}
                    </Button>
                  )
                }
              >
                {otherOpenText(otherOpen)}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" loading={saving} disabled={contactId === undefined}>
            {searching ? t("tickets.newTicketDialog.create") : t("contacts.startTicket.start")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
