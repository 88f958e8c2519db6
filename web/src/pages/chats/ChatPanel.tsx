import { type ChatDTO, CHAT_LIMITS, mayManageChat, unreadsOf } from "@atende/contracts";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { Box, CircularProgress, IconButton, Tooltip, Typography, useTheme } from "@mui/material";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import {
  addChatMessages,
  bumpChat,
  chatKeys,
  fetchChatMessages,
  markChatRead,
  messagesOf,
  sendChatMessage,
  upsertChat,
} from "../../api/chats";
import { toastError } from "../../api/toast";
import { WALLPAPER } from "../tickets/chat/MessageList";
import { ChatBubble } from "./ChatBubble";
import { ChatComposer } from "./ChatComposer";

interface ChatPanelProps {
  chat: ChatDTO;
  meId: number;
  onEdit(): void;
  onDelete(): void;
  /** Narrow screens: back to the list tab. */
  onBack?(): void;
}

/** A chat's messages (older ones load near the top), its header and the message box. */
export function ChatPanel({ chat, meId, onEdit, onDelete, onBack }: ChatPanelProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const queryClient = useQueryClient();
  const scroller = useRef<HTMLDivElement>(null);
  const fromBottom = useRef(0);
  const edges = useRef<{ first?: number; last?: number }>({});
  const pages = useInfiniteQuery({
    queryKey: chatKeys.messages(chat.id),
    queryFn: ({ pageParam, signal }) => fetchChatMessages(chat.id, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
  });
  const messages = messagesOf(pages.data);
  const myUnread = unreadsOf(chat, meId);

  // Selecting a chat (and any message arriving while it is on screen) marks it read.
  useEffect(() => {
    if (myUnread === 0) return;
    const read = () => {
      if (document.visibilityState !== "visible") return;
      // Failures of the chat are swallowed (spec §8): the next message tries again.
      markChatRead(chat.id, meId).then(
        (saved) => upsertChat(queryClient, saved),
        () => undefined,
      );
    };
    read();
    document.addEventListener("visibilitychange", read);
    return () => document.removeEventListener("visibilitychange", read);
  }, [chat.id, meId, myUnread, queryClient]);

  // Older messages keep the reader where they were; a new one at the end follows if they were at the end.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || messages.length === 0) return;
    const first = messages[0]!.id;
    const last = messages[messages.length - 1]!.id;
    const before = edges.current;
    if (before.first === undefined) el.scrollTop = el.scrollHeight;
    else if (first < before.first) el.scrollTop = el.scrollHeight - el.clientHeight - fromBottom.current;
    else if (
      last !== before.last &&
      (fromBottom.current < 120 || messages[messages.length - 1]!.senderId === meId)
    )
      el.scrollTop = el.scrollHeight;
    edges.current = { first, last };
  });

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    fromBottom.current = el.scrollHeight - el.clientHeight - el.scrollTop;
    if (el.scrollTop < CHAT_LIMITS.loadOlderWithinPx && pages.hasNextPage && !pages.isFetchingNextPage)
      void pages.fetchNextPage();
  }

  async function send(text: string, files: File[]): Promise<boolean> {
    try {
      const sent = await sendChatMessage(chat.id, text, files);
      addChatMessages(queryClient, chat.id, sent);
      const last = sent[sent.length - 1];
      if (last) bumpChat(queryClient, { ...chat, updatedAt: last.createdAt });
      return true;
    } catch (error) {
      toastError(error);
      return false;
    }
  }

  const owner = mayManageChat(chat, meId);
  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0, minWidth: 0 }}>
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          px: 2,
          py: 1,
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        {onBack && (
          <IconButton edge="start" aria-label={t("internalChat.back")} onClick={onBack}>
            <ArrowBackIcon />
          </IconButton>
        )}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography component="h2" variant="subtitle1" noWrap sx={{ fontWeight: 600 }}>
            {chat.title}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {chat.users.map((u) => (u.userId === meId ? t("internalChat.you") : u.user.name)).join(", ")}
          </Typography>
        </Box>
        {owner && (
          <>
            <Tooltip title={t("internalChat.editChat")}>
              <IconButton aria-label={t("internalChat.editChat")} onClick={onEdit}>
                <EditIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title={t("internalChat.deleteChat")}>
              <IconButton aria-label={t("internalChat.deleteChat")} onClick={onDelete}>
                <DeleteIcon />
              </IconButton>
            </Tooltip>
          </>
        )}
      </Box>
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={t("internalChat.tabs.messages")}
        sx={{ flex: 1, overflowY: "auto", py: 1, ...WALLPAPER[theme.palette.mode] }}
      >
        {pages.isFetchingNextPage && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 1 }}>
            <CircularProgress size={20} aria-label={t("internalChat.loadingOlder")} />
          </Box>
        )}
        {pages.isPending && (
          <Box sx={{ display: "flex", justifyContent: "center", py: 4 }}>
            <CircularProgress size={28} aria-label={t("common.loading")} />
          </Box>
        )}
        {!pages.isPending && messages.length === 0 && (
          <Typography color="text.secondary" sx={{ textAlign: "center", py: 4 }}>
            {t("internalChat.noMessages")}
          </Typography>
        )}
        {messages.map((message, i) => (
          <ChatBubble
            key={message.id}
            message={message}
            mine={message.senderId === meId}
            firstOfGroup={i === 0 || messages[i - 1]!.senderId !== message.senderId}
          />
        ))}
      </Box>
      <ChatComposer key={chat.id} onSend={send} />
    </Box>
  );
}
