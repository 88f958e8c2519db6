import { LIMITS, type OtherOpenTicketError, type QueueDTO, type TicketDTO } from "@atende/contracts";
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/http";
import { type ContactOption, createTicket, searchContacts, ticketKeys } from "../../api/tickets";
import { toastError } from "../../api/toast";
import { useWhatsapps } from "../../api/whatsapps";
import { useSessionUser } from "../../auth/AuthContext";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { ContactAvatar } from "../../components/ContactAvatar";

interface NewTicketDialogProps {
  /** The queues the user may open a ticket in (the user's own; every queue for an admin). */
  queues: QueueDTO[];
  onCreated(ticket: TicketDTO): void;
  onClose(): void;
}

/** "" in the selects: no queue (admins only) / the user's or the company's default connection. */
type Choice = number | "";

function otherOpenOf(error: unknown): OtherOpenTicketError | null {
  if (!(error instanceof ApiError) || error.code !== "ERR_OTHER_OPEN_TICKET") return null;
  return error.body as OtherOpenTicketError;
}

/** New-ticket dialog: search a contact, pick a queue and a connection; the ticket opens as the user's. */
export function NewTicketDialog({ queues, onCreated, onClose }: NewTicketDialogProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const titleId = useId();
  const isAdmin = user.profile === "admin";
  const [contact, setContact] = useState<ContactOption | null>(null);
  const [inputText, setInputText] = useState("");
  const search = useDebouncedValue(inputText.trim(), LIMITS.searchDebounceMs);
  const [queueId, setQueueId] = useState<Choice>(queues.length === 1 ? queues[0]!.id : "");
  const [whatsappId, setWhatsappId] = useState<Choice>(user.whatsappId ?? "");
  const [queueMissing, setQueueMissing] = useState(false);
  const [otherOpen, setOtherOpen] = useState<OtherOpenTicketError | null>(null);
  const [saving, setSaving] = useState(false);
  const whatsapps = useWhatsapps();

  const searchable = search.length >= LIMITS.contactSearchMinChars;
  const contacts = useQuery({
    queryKey: ticketKeys.contactSearch(search),
    queryFn: ({ signal }) => searchContacts(search, signal),
    enabled: searchable,
    staleTime: 10_000,
  });
  const typing = inputText.trim() !== search;
  const options = searchable && contacts.data ? contacts.data : [];
  // Keep the chosen contact among the options, so the field keeps showing it.
  const shown = contact && !options.some((c) => c.id === contact.id) ? [contact, ...options] : options;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!contact) return;
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
      onCreated(ticket);
    } catch (error) {
      const holder = otherOpenOf(error);
      if (holder) setOtherOpen(holder);
      else toastError(error);
    } finally {
      setSaving(false);
    }
  }

  function otherOpenText(holder: OtherOpenTicketError): string {
    const key = holder.userName ? "otherOpen" : "otherOpenWaiting";
    return t(`tickets.newTicketDialog.${key}${holder.queueName ? "" : "NoQueue"}`, {
      user: holder.userName,
      queue: holder.queueName,
    });
  }

  let noOptionsText = t("tickets.newTicketDialog.contactHint");
  if (searchable && (typing || contacts.isFetching)) noOptionsText = t("tickets.newTicketDialog.searching");
  else if (searchable) noOptionsText = t("tickets.newTicketDialog.noContacts");

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t("tickets.newTicketDialog.title")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Autocomplete
              value={contact}
              onChange={(_, value) => {
                setContact(value);
                setOtherOpen(null);
              }}
              inputValue={inputText}
              onInputChange={(_, value) => setInputText(value)}
              options={shown}
              filterOptions={(list) => list}
              getOptionLabel={(option) => option.name || option.number}
              isOptionEqualToValue={(option, value) => option.id === value.id}
              loading={searchable && (typing || contacts.isFetching)}
              loadingText={t("tickets.newTicketDialog.searching")}
              noOptionsText={noOptionsText}
              renderOption={({ key, ...props }, option) => (
                <Box component="li" key={key} {...props} sx={{ gap: 1.5 }}>
                  <ContactAvatar contact={option} size={32} />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="body2" noWrap>
                      {option.name || option.number}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="p">
                      {option.number}
                    </Typography>
                  </Box>
                </Box>
              )}
              renderInput={(params) => (
                <TextField
                  {...params}
                  autoFocus
                  required
                  label={t("tickets.newTicketDialog.contact")}
                  helperText={contact ? undefined : t("tickets.newTicketDialog.contactHint")}
                />
              )}
            />
            <TextField
              select
              id="new-ticket-queue"
              label={t("tickets.newTicketDialog.queue")}
              value={queueId}
              required={!isAdmin}
              slotProps={
                isAdmin ? { inputLabel: { shrink: true }, select: { displayEmpty: true } } : undefined
              }
              error={queueMissing}
              helperText={queueMissing ? t("tickets.newTicketDialog.selectQueue") : undefined}
              onChange={(event) => {
                setQueueId(event.target.value === "" ? "" : Number(event.target.value));
                setQueueMissing(false);
              }}
            >
              {isAdmin && (
                <MenuItem value="">
                  <em>{t("tickets.newTicketDialog.noQueue")}</em>
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
              id="new-ticket-connection"
              label={t("tickets.newTicketDialog.connection")}
              value={whatsappId}
              slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
              onChange={(event) => setWhatsappId(event.target.value === "" ? "" : Number(event.target.value))}
            >
              <MenuItem value="">
                <em>{t("tickets.newTicketDialog.defaultConnection")}</em>
              </MenuItem>
              {(whatsapps.data ?? []).map((whatsapp) => (
                <MenuItem key={whatsapp.id} value={whatsapp.id}>
                  {whatsapp.name}
                </MenuItem>
              ))}
            </TextField>
            {otherOpen && <Alert severity="warning">{otherOpenText(otherOpen)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" loading={saving} disabled={!contact}>
            {t("tickets.newTicketDialog.create")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
