import { LIMITS, type MessageDTO } from "@atende/contracts";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import { Box, Button, CircularProgress, Fab, Skeleton, Typography, useTheme } from "@mui/material";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../api/toast";
import { formatDate, formatTime } from "../../../i18n/format";
import { buildRows, localDay } from "./conversation";
import { MessageBubble } from "./MessageBubble";
import type { MessageHandlers } from "./MessageMenu";
import type { useConversation } from "./useConversation";

type Conversation = ReturnType<typeof useConversation>;

interface MessageListProps {
  conversation: Conversation;
  contactName: string;
  meId: number;
  /** Absent: a read-only view. */
  handlers?: MessageHandlers;
  /** Forward mode: the chosen message ids; null when not choosing. */
  selection?: ReadonlySet<number> | null;
  onToggleSelect?(message: MessageDTO): void;
}

/** Within this distance of the bottom the list follows new messages. */
const STICK_PX = 80;

export const WALLPAPER = {
  light: {
    backgroundColor: "#efeae2",
    backgroundImage: "radial-gradient(rgba(11,20,26,0.06) 1px, transparent 1.2px)",
    backgroundSize: "18px 18px",
  },
  dark: {
    backgroundColor: "#0b141a",
    backgroundImage: "radial-gradient(rgba(255,255,255,0.035) 1px, transparent 1.2px)",
    backgroundSize: "18px 18px",
  },
};

function DayDivider({ day }: { day: string }) {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const today = localDay(new Date().toISOString());
  const yesterday = localDay(new Date(Date.now() - 86_400_000).toISOString());
  const label = day === today ? t("chat.today") : day === yesterday ? t("chat.yesterday") : formatDate(day);
  return (
    <Box role="separator" aria-label={label} sx={{ display: "flex", justifyContent: "center", my: 1.25 }}>
      <Typography
        variant="caption"
        sx={{
          px: 1.5,
          py: 0.5,
          borderRadius: 2,
          fontSize: 12.5,
          textTransform: "uppercase",
          bgcolor: mode === "dark" ? "#182229" : "#ffffff",
          color: mode === "dark" ? "#8696a0" : "#54656f",
          boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
        }}
      >
        {label}
      </Typography>
    </Box>
  );
}

function TicketDivider({ endedAt, startedAt }: { endedAt: string; startedAt: string }) {
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const chip = {
    px: 1.5,
    py: 0.5,
    borderRadius: 2,
    fontSize: 12.5,
    bgcolor: mode === "dark" ? "#182229" : "#fff5c4",
    color: mode === "dark" ? "#ffd279" : "#54656f",
    boxShadow: "0 1px 0.5px rgba(11,20,26,.13)",
  };
  return (
    <Box
      role="separator"
      aria-label={t("chat.divider.aria")}
      sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 0.75, my: 2 }}
    >
      <Typography variant="caption" sx={chip}>
        {t("chat.divider.ended", { date: `${formatDate(endedAt)} ${formatTime(endedAt)}` })}
      </Typography>
      <Box sx={{ width: "60%", borderTop: 1, borderColor: "divider", borderStyle: "dashed" }} />
      <Typography variant="caption" sx={chip}>
        {t("chat.divider.started", { date: `${formatDate(startedAt)} ${formatTime(startedAt)}` })}
      </Typography>
    </Box>
  );
}

function LoadingBubbles() {
  const { t } = useTranslation();
  return (
    <Box
      aria-label={t("common.loading")}
      sx={{ px: "6%", py: 2, display: "flex", flexDirection: "column", gap: 1 }}
    >
      {[180, 260, 140, 300, 200].map((width, index) => (
        <Skeleton
          key={index}
          variant="rounded"
          width={width}
          height={36}
          sx={{ alignSelf: index % 2 ? "flex-end" : "flex-start", maxWidth: "70%" }}
        />
      ))}
    </Box>
  );
}

/**
 * The conversation as WhatsApp Web draws it: day dividers, conversation dividers, bubbles grouped by
 * sender. Older pages load near the top without moving what is on screen; new messages follow at the
 * bottom, or show a count on the jump button when the agent has scrolled up to read.
 */
export function MessageList(props: MessageListProps) {
  const { conversation, contactName, meId, handlers, selection = null, onToggleSelect } = props;
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const { messages, hasNextPage, isFetchingNextPage, fetchNextPage } = conversation;
  const pageCount = conversation.data?.pages.length ?? 0;
  const rows = useMemo(() => buildRows(messages), [messages]);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastId = useRef<number | null>(null);
  /** Where the oldest message sat on screen when older ones were asked for. */
  const anchor = useRef<{ id: number; top: number; pages: number } | null>(null);
  const [unseen, setUnseen] = useState(0);
  const [farFromBottom, setFarFromBottom] = useState(false);
  const [highlighted, setHighlighted] = useState<number | null>(null);

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? "smooth" : "auto" });
    atBottom.current = true;
    setUnseen(0);
    setFarFromBottom(false);
  }, []);

  const loadOlder = useCallback(() => {
    const el = scroller.current;
    if (!el || !hasNextPage || isFetchingNextPage) return;
    const first = content.current?.querySelector<HTMLElement>("[data-message-id]");
    anchor.current = first
      ? { id: Number(first.dataset.messageId), top: first.getBoundingClientRect().top, pages: pageCount }
      : null;
    void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, pageCount]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    atBottom.current = distance < STICK_PX;
    setFarFromBottom(distance > 240);
    if (atBottom.current) setUnseen(0);
    if (el.scrollTop < LIMITS.olderMessagesThresholdPx) loadOlder();
  }

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Older messages arrived: keep the message that was on top where it was.
    const saved = anchor.current;
    if (saved && pageCount > saved.pages) {
      anchor.current = null;
      const same = content.current?.querySelector<HTMLElement>(`[data-message-id="${saved.id}"]`);
      if (same) el.scrollTop += same.getBoundingClientRect().top - saved.top;
    }
    const last = messages.at(-1);
    if (!last || last.id === lastId.current) return;
    const previousIndex = lastId.current === null ? -1 : messages.findIndex((m) => m.id === lastId.current);
    const first = lastId.current === null;
    lastId.current = last.id;
    if (first) {
      scrollToBottom();
    } else if (previousIndex >= 0 && previousIndex < messages.length - 1) {
      const arrived = messages.slice(previousIndex + 1);
      if (atBottom.current || arrived.some((m) => m.fromMe && m.userId === meId)) scrollToBottom(true);
      else setUnseen((n) => n + arrived.filter((m) => !m.fromMe).length);
    }
  }, [messages, pageCount, meId, scrollToBottom]);

  // A short first page does not fill the screen (no scrolling, so no scroll event): load more.
  useEffect(() => {
    const el = scroller.current;
    if (el && el.scrollHeight <= el.clientHeight + LIMITS.olderMessagesThresholdPx) loadOlder();
  }, [messages, loadOlder]);

  // Images and players take their size after loading: stay at the bottom when we were there.
  useEffect(() => {
    const el = scroller.current;
    const inner = content.current;
    if (!el || !inner) return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(inner);
    // The box shrinks when a reply preview or a longer text opens below it.
    observer.observe(el);
    return () => observer.disconnect();
  }, [conversation.isSuccess]);

  const jumpTo = useCallback(
    (messageId: number) => {
      const target = content.current?.querySelector<HTMLElement>(`[data-message-id="${messageId}"]`);
      if (!target) {
        toast(t("chat.quote.notLoaded"));
        return;
      }
      target.scrollIntoView({ block: "center", behavior: "smooth" });
      setHighlighted(messageId);
      window.setTimeout(() => setHighlighted((id) => (id === messageId ? null : id)), 1600);
    },
    [t],
  );

  return (
    <Box sx={{ position: "relative", flex: 1, minHeight: 0, display: "flex", ...WALLPAPER[mode] }}>
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={t("chat.messages")}
        tabIndex={0}
        sx={{ flex: 1, overflowY: "auto", overflowX: "hidden", outline: "none", py: 1 }}
      >
        <Box ref={content} sx={{ pb: 1.5 }}>
          {isFetchingNextPage && (
            <Box sx={{ display: "flex", justifyContent: "center", py: 1 }}>
              <CircularProgress size={22} aria-label={t("chat.loadingOlder")} />
            </Box>
          )}
          {!hasNextPage && conversation.isSuccess && messages.length > 0 && (
            <Typography
              variant="caption"
              component="p"
              sx={{ textAlign: "center", color: mode === "dark" ? "#8696a0" : "#54656f", py: 1 }}
            >
              {t("chat.beginning")}
            </Typography>
          )}
          {conversation.isPending && <LoadingBubbles />}
          {conversation.isError && (
            <Box sx={{ textAlign: "center", py: 6 }}>
              <Typography sx={{ mb: 1 }}>{t("chat.loadError")}</Typography>
              <Button variant="outlined" onClick={() => void conversation.refetch()}>
                {t("chat.tryAgain")}
              </Button>
            </Box>
          )}
          {conversation.isSuccess && messages.length === 0 && (
            <Typography
              sx={{
                textAlign: "center",
                mx: "auto",
                mt: 6,
                px: 2,
                py: 1,
                maxWidth: 320,
                borderRadius: 2,
                bgcolor: mode === "dark" ? "#182229" : "#fff",
                color: "text.secondary",
              }}
            >
              {t("chat.empty")}
            </Typography>
          )}
          {rows.map((row) => {
            if (row.kind === "day") return <DayDivider key={row.key} day={row.day} />;
            if (row.kind === "ticket")
              return <TicketDivider key={row.key} endedAt={row.endedAt} startedAt={row.startedAt} />;
            return (
              <MessageBubble
                key={row.key}
                message={row.message}
                firstOfGroup={row.firstOfGroup}
                contactName={contactName}
                meId={meId}
                handlers={handlers}
                selecting={selection !== null}
                selected={selection?.has(row.message.id) ?? false}
                onToggleSelect={onToggleSelect}
                highlighted={highlighted === row.message.id}
                onQuoteClick={jumpTo}
              />
            );
          })}
        </Box>
      </Box>
      {farFromBottom && unseen === 0 && (
        <Fab
          size="small"
          onClick={() => scrollToBottom(true)}
          aria-label={t("chat.toBottom")}
          sx={{
            position: "absolute",
            right: 20,
            bottom: 16,
            zIndex: 3,
            bgcolor: mode === "dark" ? "#202c33" : "#fff",
            color: "text.secondary",
          }}
        >
          <KeyboardArrowDownIcon />
        </Fab>
      )}
      {unseen > 0 && (
        <Button
          variant="contained"
          size="small"
          endIcon={<KeyboardArrowDownIcon />}
          onClick={() => scrollToBottom(true)}
          sx={{
            position: "absolute",
            left: "50%",
            transform: "translateX(-50%)",
            bottom: 16,
            zIndex: 3,
            borderRadius: 4,
          }}
        >
          {t("chat.newMessages", { count: unseen })}
        </Button>
      )}
    </Box>
  );
}
