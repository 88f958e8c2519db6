import type { TicketDTO, UserDTO } from "@atende/contracts";
import {
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
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { updateTicket } from "../../../api/tickets";
import { toastError } from "../../../api/toast";
import { fetchQueues, userKeys } from "../../../api/users";
import { useWhatsapps } from "../../../api/whatsapps";
import { fetchUsersList } from "./chatApi";
import { queueKeys } from "../../../api/queues";
import { saveNoteFirst } from "./noteFirst";
import { SummaryNoteField } from "./SummaryNoteField";
import { useAssistAvailable } from "./useAssist";

interface TransferDialogProps {
  ticket: TicketDTO;
  onClose(): void;
  /** The ticket moved: the chat leaves it. */
  onTransferred(ticket: TicketDTO): void;
}

/**
 * Moves the ticket to a queue (required), optionally to an agent, and to a connection. A queue with
 * no agent puts it back to waiting in that queue. Where the AI can summarize, a note (typed, or the
 * summary reviewed) is saved first.
 */
export function TransferDialog({ ticket, onClose, onTransferred }: TransferDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const users = useQuery({ queryKey: userKeys.everyone(), queryFn: ({ signal }) => fetchUsersList(signal) });
  const queues = useQuery({ queryKey: queueKeys.all, queryFn: ({ signal }) => fetchQueues(signal) });
  const whatsapps = useWhatsapps();
  const [user, setUser] = useState<UserDTO | null>(null);
  const [queueId, setQueueId] = useState<number | "">(ticket.queueId ?? "");
  const [whatsappId, setWhatsappId] = useState<number | "">(ticket.whatsappId ?? "");
  const [checked, setChecked] = useState(false);
  const [saving, setSaving] = useState(false);
  const assistOn = useAssistAvailable();
  const [note, setNote] = useState("");
  const [savedNote, setSavedNote] = useState<string | null>(null);

  // An agent's own queues first: a ticket should land where its agent works.
  const queueOptions =
    user && user.queues.length > 0
      ? (queues.data ?? []).filter((q) => user.queues.some((uq) => uq.id === q.id))
      : (queues.data ?? []);

  function pickUser(next: UserDTO | null) {
    setUser(next);
    if (next && next.queues.length > 0 && !next.queues.some((q) => q.id === queueId)) {
      setQueueId(next.queues.length === 1 ? next.queues[0]!.id : "");
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (queueId === "" || whatsappId === "") return;
    setSaving(true);
    try {
      setSavedNote(await saveNoteFirst(ticket, note, savedNote));
      const updated = await updateTicket(ticket.id, {
        queueId,
        whatsappId,
        ...(user ? { userId: user.id } : {}),
      });
      onTransferred(updated);
    } catch (error) {
      toastError(error);
      setSaving(false);
    }
  }

  return (
    <Dialog open onClose={saving ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t("chat.transfer.title")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            <Autocomplete
              options={users.data ?? []}
              loading={users.isPending}
              value={user}
              onChange={(_, next) => pickUser(next)}
              getOptionLabel={(option) => option.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t("chat.transfer.user")}
                  helperText={t("chat.transfer.userHint")}
                />
              )}
            />
            <TextField
              select
              required
              label={t("chat.transfer.queue")}
              value={queueId}
              onChange={(event) => setQueueId(Number(event.target.value))}
              error={checked && queueId === ""}
              helperText={checked && queueId === "" ? t("chat.transfer.queueRequired") : undefined}
            >
              {queueOptions.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  <Box
                    component="span"
                    aria-hidden
                    sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: queue.color, mr: 1 }}
                  />
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              required
              label={t("chat.transfer.connection")}
              value={whatsappId}
              onChange={(event) => setWhatsappId(Number(event.target.value))}
              error={checked && whatsappId === ""}
              helperText={checked && whatsappId === "" ? t("chat.transfer.connectionRequired") : undefined}
            >
              {(whatsapps.data ?? []).map((whatsapp) => (
                <MenuItem key={whatsapp.id} value={whatsapp.id}>
                  {whatsapp.name}
                </MenuItem>
              ))}
            </TextField>
            {assistOn && (
              <SummaryNoteField ticketId={ticket.id} value={note} onChange={setNote} disabled={saving} />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" loading={saving}>
            {t("chat.transfer.submit")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
