import { mayDeleteTicketNote, type TicketNoteDTO, ticketNoteField } from "@atende/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { UseFormSetError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  addTicketNote,
  deleteTicketNote,
  fetchTicketNotes,
  ticketNoteKeys,
  withNote,
} from "../api/ticketNotes";
import { useTicketNotesLive } from "../api/ticketNotesLive";
import { toast, toastError } from "../api/toast";
import { useSessionUser } from "../auth/AuthContext";
import { formatDate, formatTime } from "../i18n/format";
import { ConfirmationDialog } from "./ConfirmationDialog";
import { applyServerErrors, fieldErrorText } from "./formFields";

interface NotesPanelProps {
  ticketId: number;
  contactId: number;
}

/**
 * The ticket's private notes, for the contact drawer: add one (at least 2 characters), see each with
 * its author and time, delete one's own (admin and supervisor any). Colleagues' notes arrive live.
 */
export function NotesPanel({ ticketId, contactId }: NotesPanelProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const inputId = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<TicketNoteDTO | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const key = ticketNoteKeys.ticket(ticketId);

  const notes = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchTicketNotes(ticketId, contactId, signal),
  });

  useTicketNotesLive(ticketId);

  // The note is plain state, not a react-hook-form field: the answer's `note` error is put in it.
  const showServerError: UseFormSetError<{ note: string }> = (_field, { message }) => setError(message);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = ticketNoteField.safeParse(text);
    if (!checked.success) {
      setError(fieldErrorText({ message: checked.error.issues[0]?.message }));
      return;
    }
    setSaving(true);
    try {
      const note = await addTicketNote({ ticketId, contactId, note: checked.data });
      queryClient.setQueryData<TicketNoteDTO[]>(key, (list) => withNote(list, note));
      setText("");
      setError(undefined);
      toast(t("notes.added"), "success");
    } catch (failure) {
      applyServerErrors(failure, showServerError, {
        fieldOf: (path) => (path === "note" ? "note" : undefined),
      });
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await deleteTicketNote(deleting.id);
      queryClient.setQueryData<TicketNoteDTO[]>(key, (list) => list?.filter((n) => n.id !== deleting.id));
      toast(t("notes.deleted"), "success");
      setDeleting(null);
    } catch (failure) {
      toastError(failure);
    } finally {
      setDeleteBusy(false);
    }
  }

  const mayDelete = (note: TicketNoteDTO) => mayDeleteTicketNote(user, user.id, note);

  return (
    <Box component="section" aria-labelledby={`${inputId}-title`} sx={{ px: 2.5, py: 2 }}>
      <Typography
        id={`${inputId}-title`}
        component="h3"
        variant="overline"
        color="text.secondary"
        sx={{ display: "block", lineHeight: 2, mb: 1 }}
      >
        {t("notes.title")}
      </Typography>
      <Stack component="form" spacing={1} onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          id={inputId}
          size="small"
          multiline
          minRows={2}
          maxRows={6}
          placeholder={t("notes.placeholder")}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (error) setError(undefined);
          }}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ htmlInput: { "aria-label": t("notes.placeholder") } }}
        />
        <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
          <Button type="submit" size="small" variant="contained" loading={saving}>
            {t("notes.add")}
          </Button>
        </Box>
      </Stack>
      {notes.isPending ? (
        <Stack spacing={1} sx={{ mt: 1.5 }} aria-hidden>
          <Skeleton variant="rounded" height={48} />
          <Skeleton variant="rounded" height={48} />
        </Stack>
      ) : (notes.data ?? []).length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {t("notes.empty")}
        </Typography>
      ) : (
        <List dense disablePadding aria-label={t("notes.title")} sx={{ mt: 1 }}>
          {(notes.data ?? []).map((note) => (
            <ListItem
              key={note.id}
              disableGutters
              divider
              secondaryAction={
                mayDelete(note) ? (
                  <IconButton
                    edge="end"
                    size="small"
                    aria-label={t("notes.delete")}
                    onClick={() => setDeleting(note)}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                ) : undefined
              }
              sx={{ alignItems: "flex-start", pr: 5 }}
            >
              <ListItemText
                primary={note.note}
                secondary={t("notes.byOn", {
                  name: note.user?.name ?? t("notes.unknownAuthor"),
                  date: formatDate(note.createdAt),
                  time: formatTime(note.createdAt),
                })}
                slotProps={{ primary: { sx: { whiteSpace: "pre-wrap", wordBreak: "break-word" } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("notes.deleteTitle")}
        message={t("notes.deleteConfirm")}
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
