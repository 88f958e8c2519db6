import { LIMITS, type MessageDTO } from "@atende/contracts";
import KeyboardArrowDownIcon from "@mui/icons-material/KeyboardArrowDown";
import { Box, Button, CircularProgress, Fab, Typography, useTheme } from "@mui/material";
import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../../api/toast";
import { buildRows, type ChatRow } from "./conversation";
import { ConversationStart, DayDivider, LoadingBubbles, TicketDivider } from "./Dividers";
import { MessageBubble, type MessageBubbleProps } from "./MessageBubble";
import type { MessageHandlers } from "./MessageMenu";
import { estimateRowHeight, keepsReadingPosition } from "./rowLayout";
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
/** Rows drawn beyond each edge of the screen, so a fast wheel does not show blank space. */
const OVERSCAN = 8;
/** A reply's quoted message not loaded yet: at most this many older pages are fetched to find it. */
const QUOTE_SEARCH_PAGES = 50;
const BEGINNING_KEY = "beginning";

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

interface RowContentProps extends Omit<MessageBubbleProps, "message" | "firstOfGroup"> {
  row: ChatRow;
}

/** A message with the dividers above it; drawn again only when something of its own changes. */
const RowContent = memo(function RowContent({ row, ...bubble }: RowContentProps) {
  return (
    <>
      {row.day && <DayDivider day={row.day} />}
      {row.ticketChange && (
        <TicketDivider endedAt={row.ticketChange.endedAt} startedAt={row.ticketChange.startedAt} />
      )}
      <MessageBubble message={row.message} firstOfGroup={row.firstOfGroup} {...bubble} />
    </>
  );
});

interface ReadingAnchor {
  /** The message (data-message-id) at the top of the screen. */
  id: string;
  /** Its top, from the top of the list's box. */
  top: number;
}

/** The first message whose bubble shows at the top of the list's box, and where it sits. */
function readingAnchor(el: HTMLElement): ReadingAnchor | null {
  const top = el.getBoundingClientRect().top;
  for (const node of el.querySelectorAll<HTMLElement>("[data-message-id]")) {
    const rect = node.getBoundingClientRect();
    if (rect.bottom > top && node.dataset.messageId)
      return { id: node.dataset.messageId, top: rect.top - top };
  }
  return null;
}

/**
 * The conversation as WhatsApp Web draws it: day dividers, conversation dividers, bubbles grouped by
 * sender. Only the rows on screen (and a few beyond) are in the page, so thousands of messages
 * scroll as lightly as twenty. Older pages load near the top without moving what is on screen; new
 * messages follow at the bottom, or show a count on the jump button when the agent has scrolled up.
 */
export function MessageList(props: MessageListProps) {
  const { conversation, contactName, meId, handlers, selection = null, onToggleSelect } = props;
  const { t } = useTranslation();
  const mode = useTheme().palette.mode;
  const { messages, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = conversation;
  const rows = useMemo(() => buildRows(messages), [messages]);
  const estimates = useMemo(() => rows.map(estimateRowHeight), [rows]);
  // Once every page is in, the list opens with the 'start of the conversation' line.
  const lead = !hasNextPage && conversation.isSuccess && rows.length > 0 ? 1 : 0;
  const count = rows.length + lead;
  // Stable between renders: a new function makes the virtualizer lay out every row again.
  const getItemKey = useCallback(
    (index: number) => (index < lead ? BEGINNING_KEY : rows[index - lead]!.key),
    [rows, lead],
  );
  const estimateSize = useCallback(
    (index: number) => (index < lead ? 34 : estimates[index - lead]!),
    [estimates, lead],
  );
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const lastId = useRef<number | null>(null);
  /** The row that was first before older pages arrived: its dividers may change above its bubble. */
  const reshaped = useRef<string | null>(null);
  const firstKey = useRef<string | null>(null);
  const [unseen, setUnseen] = useState(0);
  const [farFromBottom, setFarFromBottom] = useState(false);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const [seeking, setSeeking] = useState<{ id: number; pages: number } | null>(null);
  /** Older pages about to go in above: the message at the top of the screen and where it sat. */
  const prepended = useRef<ReadingAnchor | null>(null);
  // Read while the page still shows the list as it was (this render is not committed yet).
  if (firstKey.current && rows[0] && rows[0].key !== firstKey.current && !seeking && scroller.current)
    prepended.current = readingAnchor(scroller.current);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey,
    overscan: OVERSCAN,
    paddingStart: 8,
    paddingEnd: 20,
    // Older pages go in above without moving the row being read; new messages are followed when
    // the list was at the bottom (at once while the conversation opens, smoothly afterwards).
    anchorTo: "end",
    followOnAppend: lastId.current === null ? true : "smooth",
    scrollEndThreshold: STICK_PX,
  });
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    const isReshaped = item.key === reshaped.current;
    if (isReshaped && instance.itemSizeCache.has(item.key)) reshaped.current = null;
    return keepsReadingPosition(item, instance, isReshaped);
  };

  // Older pages arrived: the row that was first may lose its day divider or gain a ticket divider.
  useLayoutEffect(() => {
    const first = rows[0]?.key ?? null;
    if (firstKey.current && first !== firstKey.current) reshaped.current = firstKey.current;
    firstKey.current = first;
  }, [rows]);

  // The virtualizer keeps the reading position as older pages go in, but its scroll write lands in
  // the same commit as the taller list and the browser can clamp it at the old height (seen with a
  // picture in the first page and dividers in the new one: the screen jumped 230-280 px). Once laid
  // out, the message that was at the top is put back where it was, for a few frames, until it
  // holds still; the reader's own wheel, pointer (touch, scroll bar) or keys end it at once.
  useLayoutEffect(() => {
    const anchor = prepended.current;
    const el = scroller.current;
    if (!anchor || !el) return;
    let frames = 0;
    let still = 0;
    let raf = 0;
    const stop = () => {
      window.cancelAnimationFrame(raf);
      if (prepended.current === anchor) prepended.current = null;
      el.removeEventListener("wheel", stop);
      el.removeEventListener("pointerdown", stop);
      el.removeEventListener("keydown", stop);
    };
    const hold = () => {
      const node = el.querySelector<HTMLElement>(`[data-message-id="${anchor.id}"]`);
      const row = node?.closest<HTMLElement>("[data-index]");
      const list = row?.parentElement;
      if (node && row && list) {
        // The row where the virtualizer put it, not where its rect says: for a frame or two after an
        // older page goes in, Chromium's rect is still the row's old place although its style already
        // holds the new one, and following the rect pulled the screen back by the page's height.
        const rowTop = row.getBoundingClientRect().top;
        const listTop = list.getBoundingClientRect().top;
        const start = virtualizer.measurementsCache[Number(row.dataset.index)]?.start ?? rowTop - listTop;
        const top = listTop + start + node.getBoundingClientRect().top - rowTop;
        const drift = top - el.getBoundingClientRect().top - anchor.top;
        if (Math.abs(drift) >= 0.5) {
          el.scrollTop += drift;
          still = 0;
        } else still++;
      }
      if (still >= 3 || ++frames >= 60) stop();
      else raf = window.requestAnimationFrame(hold);
    };
    el.addEventListener("wheel", stop, { passive: true });
    el.addEventListener("pointerdown", stop, { passive: true });
    el.addEventListener("keydown", stop);
    raf = window.requestAnimationFrame(hold);
    return stop;
  }, [rows, virtualizer]);

  const scrollToBottom = useCallback(
    (smooth = false) => {
      virtualizer.scrollToEnd({ behavior: smooth ? "smooth" : "auto" });
      atBottom.current = true;
      setUnseen(0);
      setFarFromBottom(false);
    },
    [virtualizer],
  );

  const loadOlder = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    atBottom.current = distance < STICK_PX;
    setFarFromBottom(distance > 240);
    if (atBottom.current) setUnseen(0);
    if (el.scrollTop < LIMITS.olderMessagesThresholdPx) loadOlder();
  }

  // The conversation opens at its newest message; what arrives later is followed at the bottom
  // (followOnAppend), brought into view when the agent sent it, or counted on the pill.
  useLayoutEffect(() => {
    const last = messages.at(-1);
    if (!last || last.id === lastId.current) return;
    const previous = lastId.current;
    lastId.current = last.id;
    if (previous === null) {
      virtualizer.scrollToEnd();
      return;
    }
    const previousIndex = messages.findIndex((m) => m.id === previous);
    if (previousIndex < 0 || previousIndex === messages.length - 1 || atBottom.current) return;
    const arrived = messages.slice(previousIndex + 1);
    if (arrived.some((m) => m.fromMe && m.userId === meId)) scrollToBottom(true);
    else setUnseen((n) => n + arrived.filter((m) => !m.fromMe).length);
  }, [messages, meId, scrollToBottom, virtualizer]);

  // A short first page does not fill the screen (no scrolling, so no scroll event): load more.
  useEffect(() => {
    const el = scroller.current;
    if (el && el.scrollHeight <= el.clientHeight + LIMITS.olderMessagesThresholdPx) loadOlder();
  }, [messages, loadOlder]);

  // The box shrinks when a reply preview or a longer text opens below it: stay at the bottom.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      if (el.clientHeight !== height && atBottom.current) virtualizer.scrollToEnd();
      height = el.clientHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [conversation.isSuccess, virtualizer]);

  const flash = useCallback((messageId: number) => {
    setHighlighted(messageId);
    window.setTimeout(() => setHighlighted((id) => (id === messageId ? null : id)), 1600);
  }, []);

  // A reply's quoted message: scrolled to (drawn or not), after loading older pages if need be.
  useEffect(() => {
    if (!seeking) return;
    const index = rows.findIndex((row) => row.message.id === seeking.id);
    if (index >= 0) {
      setSeeking(null);
      const target = virtualizer.getOffsetForIndex(index + lead, "center")?.[0] ?? 0;
      const far =
        Math.abs(target - (virtualizer.scrollOffset ?? 0)) > 3 * (scroller.current?.clientHeight ?? 0);
      virtualizer.scrollToIndex(index + lead, { align: "center", behavior: far ? "auto" : "smooth" });
      flash(seeking.id);
    } else if (!hasNextPage || seeking.pages >= QUOTE_SEARCH_PAGES || isFetchNextPageError) {
      setSeeking(null);
      toast(t(hasNextPage ? "chat.quote.notLoaded" : "chat.quote.notFound"));
    } else if (!isFetchingNextPage) {
      setSeeking({ ...seeking, pages: seeking.pages + 1 });
      void fetchNextPage();
    }
  }, [
    seeking,
    rows,
    lead,
    hasNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
    fetchNextPage,
    virtualizer,
    flash,
    t,
  ]);

  const jumpTo = useCallback((messageId: number) => setSeeking({ id: messageId, pages: 0 }), []);

  const items = virtualizer.getVirtualItems();

  return (
    <Box sx={{ position: "relative", flex: 1, minHeight: 0, display: "flex" }}>
      <Box
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-label={t("chat.messages")}
        aria-busy={isFetchingNextPage}
        tabIndex={0}
        sx={{
          flex: 1,
          overflowY: "auto",
          overflowX: "hidden",
          outline: "none",
          // The virtualizer keeps the reading position itself; the browser's own anchoring would fight it.
          overflowAnchor: "none",
          // The wallpaper scrolls with the messages: an opaque scrolling layer the browser can move
          // without painting the list again on every frame.
          ...WALLPAPER[mode],
          backgroundAttachment: "local",
        }}
      >
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
        {count > 0 && (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
            {items.map((item) => {
              const row = item.index < lead ? null : rows[item.index - lead]!;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  style={{
                    position: "absolute",
                    top: 0,
                    left: 0,
                    width: "100%",
                    transform: `translateY(${item.start}px)`,
                    // The bubble's margins count in the row's measured height.
                    display: "flow-root",
                  }}
                >
                  {row === null ? (
                    <ConversationStart />
                  ) : (
                    <RowContent
                      row={row}
                      contactName={contactName}
                      meId={meId}
                      handlers={handlers}
                      selecting={selection !== null}
                      selected={selection?.has(row.message.id) ?? false}
                      onToggleSelect={onToggleSelect}
                      highlighted={highlighted === row.message.id}
                      onQuoteClick={jumpTo}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </Box>
      {(isFetchingNextPage || seeking) && (
        // Over the list, not in it: showing it must not push the messages down.
        <Box
          sx={{
            position: "absolute",
            top: 12,
            left: "50%",
            transform: "translateX(-50%)",
            zIndex: 3,
            display: "flex",
            p: 0.75,
            borderRadius: "50%",
            bgcolor: mode === "dark" ? "#202c33" : "#fff",
            boxShadow: 2,
          }}
        >
          <CircularProgress size={20} aria-label={t("chat.loadingOlder")} />
        </Box>
      )}
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
