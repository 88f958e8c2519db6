import type { ChatDTO } from "@atende/contracts";
import { Autocomplete, Stack, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { saveChat } from "../../api/chats";
import { toast, toastError } from "../../api/toast";
import { fetchUserOptions, ticketKeys } from "../../api/tickets";
import { useSessionUser } from "../../auth/AuthContext";
import { FormDialog } from "../../components/FormDialog";

interface ChatDialogProps {
  /** The chat to edit (its owner only); null makes a new one. */
  chat: ChatDTO | null;
  onClose(): void;
  onSaved(chat: ChatDTO): void;
}

type Option = { id: number; name: string };

/** A chat's title and members; the spec's two alerts when either is missing. */
export function ChatDialog({ chat, onClose, onSaved }: ChatDialogProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const [title, setTitle] = useState(chat?.title ?? "");
  const [users, setUsers] = useState<Option[]>(
    chat?.users.filter((u) => u.userId !== me.id).map((u) => ({ id: u.userId, name: u.user.name })) ?? [],
  );
  const [saving, setSaving] = useState(false);
  const options = useQuery({
    queryKey: ticketKeys.userOptions(),
    queryFn: ({ signal }) => fetchUserOptions(signal),
  });
  const colleagues = (options.data ?? []).filter((u) => u.id !== me.id);

  async function submit() {
    if (!title.trim()) return toast(t("internalChat.titleRequired"), "warning");
    if (users.length === 0) return toast(t("internalChat.usersRequired"), "warning");
    setSaving(true);
    try {
      onSaved(await saveChat(chat?.id ?? null, { title: title.trim(), users: users.map((u) => u.id) }));
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  }

  return (
    <FormDialog
      title={chat ? t("internalChat.dialogTitleEdit") : t("internalChat.dialogTitleNew")}
      onClose={onClose}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      submitting={saving}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label={t("internalChat.chatTitle")}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          autoFocus
          fullWidth
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <Autocomplete
          multiple
          options={colleagues}
          value={users}
          loading={options.isPending}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_, value) => setUsers(value)}
          noOptionsText={t("internalChat.noUsers")}
          filterSelectedOptions
          renderInput={(params) => <TextField {...params} label={t("internalChat.users")} />}
        />
      </Stack>
    </FormDialog>
  );
}
