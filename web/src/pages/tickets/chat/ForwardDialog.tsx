import { LIMITS } from "@atende/contracts";
import SearchIcon from "@mui/icons-material/Search";
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  LinearProgress,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { forwardMessage } from "../../../api/messages";
import { toast, toastError } from "../../../api/toast";
import { useDebouncedValue } from "../../../hooks/useDebouncedValue";
import { searchContacts, type ContactOption } from "../../../api/tickets";
import { formatPhone, initials } from "./conversation";
import { contactKeys } from "../../../api/contacts";

interface ForwardDialogProps {
  /** The messages to forward, oldest first. */
  messageIds: number[];
  sign: boolean;
  onClose(): void;
  onDone(): void;
}

const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Picks the contact, then sends each chosen message to them, 900 ms apart. */
export function ForwardDialog({ messageIds, sign, onClose, onDone }: ForwardDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const [search, setSearch] = useState("");
  const term = useDebouncedValue(search.trim(), LIMITS.searchDebounceMs);
  const ready = term.length >= LIMITS.contactSearchMinChars;
  const contacts = useQuery({
    queryKey: contactKeys.search(term),
    queryFn: ({ signal }) => searchContacts(term, signal),
    enabled: ready,
  });
  const [sent, setSent] = useState<number | null>(null);
  const cancelled = useRef(false);

  async function forwardTo(contact: ContactOption) {
    setSent(0);
    try {
      for (const [index, id] of messageIds.entries()) {
        if (cancelled.current) return;
        if (index > 0) await pause(LIMITS.forwardPauseMs);
        await forwardMessage(id, contact.id, sign);
        setSent(index + 1);
      }
      toast(t("chat.forward.done", { count: messageIds.length, name: contact.name }), "success");
      onDone();
    } catch (error) {
      toastError(error);
      setSent(null);
    }
  }

  function close() {
    cancelled.current = true;
    onClose();
  }

  const busy = sent !== null;
  return (
    <Dialog open onClose={busy ? undefined : close} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{t("chat.forward.title", { count: messageIds.length })}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 320 }}>
        <TextField
          autoFocus
          fullWidth
          size="small"
          disabled={busy}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          label={t("chat.forward.search")}
          helperText={t("chat.forward.searchHint", { n: LIMITS.contactSearchMinChars })}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        {busy && (
          <Box sx={{ mt: 2 }}>
            <LinearProgress variant="determinate" value={(sent / messageIds.length) * 100} />
            <Typography variant="body2" sx={{ mt: 1 }}>
              {t("chat.forward.progress", { sent, total: messageIds.length })}
            </Typography>
          </Box>
        )}
        {!busy && ready && contacts.isFetching && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 3 }}>
            <CircularProgress size={24} aria-label={t("common.loading")} />
          </Box>
        )}
        {!busy && ready && contacts.isSuccess && (
          <List aria-label={t("chat.forward.contacts")} sx={{ mt: 1 }}>
            {contacts.data.length === 0 && (
              <Typography color="text.secondary" sx={{ py: 2, textAlign: "center" }}>
                {t("chat.forward.noContacts")}
              </Typography>
            )}
            {contacts.data.map((contact) => (
              <ListItemButton
                key={contact.id}
                onClick={() => void forwardTo(contact)}
                sx={{ borderRadius: 1 }}
              >
                <ListItemAvatar>
                  <Avatar src={contact.profilePicUrl || undefined} alt="">
                    {initials(contact.name)}
                  </Avatar>
                </ListItemAvatar>
                <ListItemText primary={contact.name} secondary={formatPhone(contact.number)} />
              </ListItemButton>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {t("common.cancel")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
