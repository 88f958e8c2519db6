import type { TicketDTO } from "@atende/contracts";
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from "@mui/material";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { updateTicket } from "../../../api/tickets";
import { toastError } from "../../../api/toast";
import { saveNoteFirst } from "./noteFirst";
import { SummaryNoteField } from "./SummaryNoteField";

interface ResolveDialogProps {
  ticket: TicketDTO;
  onClose(): void;
  onResolved(ticket: TicketDTO): void;
}

/** Resolve with a note (shown where the AI can summarize): the note is saved first, then the ticket resolved. */
export function ResolveDialog({ ticket, onClose, onResolved }: ResolveDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [note, setNote] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      setSaved(await saveNoteFirst(ticket, note, saved));
      onResolved(await updateTicket(ticket.id, { status: "closed" }));
    } catch (error) {
      toastError(error);
      setSaving(false);
    }
  }

  return (
    <Dialog open onClose={saving ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{t("assist.resolveTitle")}</DialogTitle>
        <DialogContent>
          <Box sx={{ pt: 1 }}>
            <SummaryNoteField ticketId={ticket.id} value={note} onChange={setNote} disabled={saving} />
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="contained" loading={saving}>
            {t("assist.resolve")}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
