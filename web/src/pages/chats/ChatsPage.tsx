import type { ChatDTO, ChatsPage as ChatsAnswer } from "@atende/contracts";
import { Box, Paper, Tab, Tabs, Typography, useMediaQuery, useTheme } from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { chatKeys, deleteChat, fetchChat, fetchChatsPage, removeChat, upsertChat } from "../../api/chats";
import { toast, toastError } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { ConfirmationDialog } from "../../components/ConfirmationDialog";
import { FullPageLoader } from "../../components/FullPageLoader";
import { useSearchableList } from "../../hooks/useSearchableList";
import { ChatDialog } from "./ChatDialog";
import { ChatList } from "./ChatList";
import { ChatPanel } from "./ChatPanel";

const REDIRECT_MS = 1_000;

/** /chats/:id? — the internal chat; the plan flag useInternalChat is checked here (toast, then /). */
export function ChatsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  const allowed = user.company.plan?.useInternalChat === true;

  useEffect(() => {
    if (allowed) return;
    toast(t("internalChat.planMissing"), "error");
    const timer = window.setTimeout(() => void navigate("/", { replace: true }), REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [allowed, navigate, t]);

  return allowed ? <InternalChat /> : <FullPageLoader />;
}

function InternalChat() {
  const { t } = useTranslation();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"), { noSsr: true });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useSessionUser();
  const { id: uuid } = useParams();
  const [tab, setTab] = useState<"chats" | "messages">(uuid ? "messages" : "chats");
  const [editing, setEditing] = useState<ChatDTO | "new" | null>(null);
  const [deleting, setDeleting] = useState<ChatDTO | null>(null);
  const [busy, setBusy] = useState(false);

  const list = useSearchableList<ChatsAnswer, ChatDTO>({
    queryKey: chatKeys.list,
    fetchPage: fetchChatsPage,
    itemsOf: (page) => page.records,
  });
  const listed = list.items.find((c) => c.uuid === uuid);
  const opened = useQuery({
    queryKey: chatKeys.chat(uuid ?? ""),
    queryFn: ({ signal }) => fetchChat(uuid!, signal),
    enabled: Boolean(uuid) && !listed,
    retry: false,
    meta: { silent: true },
  });
  const chat = listed ?? opened.data;

  const select = (c: ChatDTO) => {
    setTab("messages");
    void navigate(`/chats/${c.uuid}`);
  };

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteChat(deleting.id);
      removeChat(queryClient, deleting);
      setDeleting(null);
      setTab("chats");
      void navigate("/chats", { replace: true });
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  }

  const listPane = (
    <ChatList
      list={list}
      meId={me.id}
      selectedUuid={uuid}
      onSelect={select}
      onNew={() => setEditing("new")}
    />
  );
  const panel = chat ? (
    <ChatPanel
      key={chat.id}
      chat={chat}
      meId={me.id}
      onEdit={() => setEditing(chat)}
      onDelete={() => setDeleting(chat)}
      onBack={narrow ? () => setTab("chats") : undefined}
    />
  ) : (
    <Box sx={{ flex: 1, display: "grid", placeItems: "center", p: 3 }}>
      <Typography color="text.secondary">
        {uuid && opened.isError ? t("internalChat.notFound") : t("internalChat.pickOne")}
      </Typography>
    </Box>
  );

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", p: { xs: 0, sm: 2 } }}>
      <Typography
        component="h1"
        variant="h6"
        sx={{ px: { xs: 2, sm: 0 }, py: { xs: 1, sm: 0 }, mb: { sm: 1 } }}
      >
        {t("internalChat.title")}
      </Typography>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minHeight: 0, display: "flex", flexDirection: "column", overflow: "hidden" }}
      >
        {narrow ? (
          <>
            <Tabs
              value={tab}
              onChange={(_, value: "chats" | "messages") => setTab(value)}
              variant="fullWidth"
            >
              <Tab value="chats" label={t("internalChat.tabs.chats")} />
              <Tab value="messages" label={t("internalChat.tabs.messages")} />
            </Tabs>
            <Box sx={{ flex: 1, minHeight: 0, display: "flex" }}>{tab === "chats" ? listPane : panel}</Box>
          </>
        ) : (
          <Box sx={{ flex: 1, minHeight: 0, display: "flex" }}>
            <Box sx={{ width: 340, flexShrink: 0, borderRight: 1, borderColor: "divider", display: "flex" }}>
              {listPane}
            </Box>
            {panel}
          </Box>
        )}
      </Paper>
      {editing && (
        <ChatDialog
          chat={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            upsertChat(queryClient, saved);
            setEditing(null);
            select(saved);
          }}
        />
      )}
      <ConfirmationDialog
        open={deleting !== null}
        title={t("internalChat.confirmDeleteTitle")}
        message={t("internalChat.confirmDelete")}
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
