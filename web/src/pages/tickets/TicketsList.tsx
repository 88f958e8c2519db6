import { LIMITS, TICKET_SEARCH_COUNT_CAP, type TicketDTO } from "@atende/contracts";
import { Box, Button, CircularProgress, Skeleton, Stack, Typography } from "@mui/material";
import {
  defaultRangeExtractor,
  observeElementOffset,
  useVirtualizer,
  type Range,
} from "@tanstack/react-virtual";
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { useTranslation } from "react-i18next";
import { ticketsOf } from "../../api/ticketLists";
import { useClock } from "../../hooks/useClock";
import { TicketListItem, TicketRows, type TicketAction } from "./TicketListItem";
import { useScrollAnchor } from "./useScrollAnchor";
import type { TicketListQuery } from "./useTicketList";

export interface EmptyState {
  title: string;
  hint?: string;
  action?: { label: string; onClick(): void };
  icon?: ReactNode;
}

interface TicketsListProps {
  list: TicketListQuery;
  empty: EmptyState;
  selectedUuid: string | undefined;
  viewerId: number;
  busy: ReadonlyMap<number, TicketAction>;
  onOpen(ticket: TicketDTO): void;
  onAccept(ticket: TicketDTO): void;
  onClose(ticket: TicketDTO): void;
  onSpy?: (ticket: TicketDTO) => void;
  /** A text search: its count stops at TICKET_SEARCH_COUNT_CAP (one past it means "more"). */
  textSearch?: boolean;
}

function SkeletonItems() {
  return Array.from({ length: 6 }, (_, index) => (
    <Stack
      key={index}
      direction="row"
      spacing={1.5}
      aria-hidden
      sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider" }}
    >
      <Skeleton variant="circular" width={40} height={40} sx={{ flexShrink: 0 }} />
      <Box sx={{ flex: 1 }}>
        <Skeleton width="55%" />
        <Skeleton width="85%" />
        <Skeleton width="35%" height={16} />
      </Box>
    </Stack>
  ));
}

export function EmptyMessage({ empty }: { empty: EmptyState }) {
  return (
    <Stack
      spacing={1}
      sx={{ alignItems: "center", textAlign: "center", px: 3, py: 6, color: "text.secondary" }}
    >
      {empty.icon}
      <Typography variant="subtitle1" component="p" sx={{ color: "text.primary", fontWeight: 600 }}>
        {empty.title}
      </Typography>
      {empty.hint && <Typography variant="body2">{empty.hint}</Typography>}
      {empty.action && (
        <Button variant="outlined" size="small" onClick={empty.action.onClick} sx={{ mt: 1 }}>
          {empty.action.label}
        </Button>
      )}
    </Stack>
  );
}

/** Heights of a row before it is measured. */
const ESTIMATED_ROW_PX = 84;
const ESTIMATED_WAITING_ROW_PX = 120;
/** Rows rendered beyond each edge of the view, so a quick scroll does not show blanks. */
const OVERSCAN_ROWS = 6;

const NAVIGATION_KEYS = new Set(["ArrowDown", "ArrowUp", "Home", "End"]);

/** A row's height before it is measured: a waiting ticket has its buttons under the text. */
function estimateTicket(ticket: TicketDTO | undefined): number {
  return ticket?.status === "pending" ? ESTIMATED_WAITING_ROW_PX : ESTIMATED_ROW_PX;
}

/**
 * One list of tickets, windowed: only the rows in view (and a few around) are in the page, so ten
 * thousand tickets scroll like forty. Loads the next page within 100 px of the end, skeletons while
 * loading; arrows, Home and End move between tickets; a ticket arriving above the view does not
 * push the rows being read.
 */
export function TicketsList({
  list,
  empty,
  selectedUuid,
  viewerId,
  busy,
  onOpen,
  onAccept,
  onClose,
  onSpy,
  textSearch = false,
}: TicketsListProps) {
  const { t } = useTranslation();
  const now = useClock();
  const scroller = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const tickets = useMemo(() => ticketsOf(list.data), [list.data]);
  const indexById = useMemo(() => new Map(tickets.map((ticket, index) => [ticket.id, index])), [tickets]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const total = list.data?.pages[0]?.count;
  const capped = textSearch && total !== undefined && total > TICKET_SEARCH_COUNT_CAP;
  const setSize = hasNextPage ? (capped ? -1 : (total ?? -1)) : tickets.length;

  // The focused row stays rendered while scrolled out of view, so focus is not lost with it.
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const focusedIndex = focusedId === null ? -1 : (indexById.get(focusedId) ?? -1);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex < 0 || indexes.includes(focusedIndex)) return indexes;
      return [...indexes, focusedIndex].sort((a, b) => a - b);
    },
    [focusedIndex],
  );
  const estimateSize = useCallback((index: number) => estimateTicket(tickets[index]), [tickets]);
  const getItemKey = useCallback((index: number) => tickets[index]?.id ?? -index, [tickets]);

  // The next page is asked for within 100 px of the end, worked out from the scroll offset the
  // virtualizer has just read and the heights it knows: reading the page's scrollHeight in a
  // scroll handler would force a layout at every scroll event.
  const loadNearEnd = useRef<(offset: number) => void>(() => undefined);
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey,
    overscan: OVERSCAN_ROWS,
    rangeExtractor,
    // Offsets and the list's height are written to the page directly: a row measured taller than
    // estimated moves the rows below it without rendering them again.
    directDomUpdates: true,
    observeElementOffset: (instance, notify) =>
      observeElementOffset(instance, (offset, isScrolling) => {
        notify(offset, isScrolling);
        loadNearEnd.current(offset);
      }),
  });
  const setListElement = useCallback(
    (element: HTMLUListElement | null) => {
      listRef.current = element;
      virtualizer.containerRef(element);
    },
    [virtualizer],
  );

  useEffect(() => {
    loadNearEnd.current = (offset) => {
      const left = virtualizer.getTotalSize() - offset - (virtualizer.scrollRect?.height ?? 0);
      if (left < LIMITS.infiniteScrollThresholdPx && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    };
    // A page that does not fill the box leaves nothing to scroll: ask for the next one right away.
    loadNearEnd.current(virtualizer.scrollOffset ?? 0);
  }, [virtualizer, tickets.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  useScrollAnchor(virtualizer, tickets, indexById, estimateTicket);

  function focusTarget(index: number): HTMLElement | null {
    return (
      listRef.current?.querySelector<HTMLElement>(`li[data-index="${index}"] [data-ticket-focus]`) ?? null
    );
  }

  // A row asked for by the keyboard that was not rendered yet gets focus once it is.
  const pendingFocus = useRef<number | null>(null);
  useEffect(() => {
    if (pendingFocus.current === null) return;
    const index = indexById.get(pendingFocus.current);
    const target = index === undefined ? null : focusTarget(index);
    if (target) {
      pendingFocus.current = null;
      target.focus({ preventScroll: true });
    }
  });

  function moveFocus(event: KeyboardEvent<HTMLElement>) {
    if (!NAVIGATION_KEYS.has(event.key)) return;
    const row = (event.target as HTMLElement).closest<HTMLElement>("li[data-index]");
    if (!row) return;
    const from = Number(row.dataset.index);
    const last = tickets.length - 1;
    const to =
      event.key === "Home" ? 0 : event.key === "End" ? last : from + (event.key === "ArrowDown" ? 1 : -1);
    if (to < 0 || to > last || to === from) return;
    event.preventDefault();
    const target = focusTarget(to);
    if (target) {
      target.focus();
      target.scrollIntoView({ block: "nearest" });
      return;
    }
    pendingFocus.current = tickets[to]!.id;
    setFocusedId(tickets[to]!.id);
    virtualizer.scrollToIndex(to, { align: to > from ? "end" : "start" });
  }

  function trackFocus(event: FocusEvent<HTMLElement>) {
    const row = (event.target as HTMLElement).closest<HTMLElement>("li[data-ticket-id]");
    setFocusedId(row ? Number(row.dataset.ticketId) : null);
  }

  function dropFocus(event: FocusEvent<HTMLElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedId(null);
  }

  return (
    <Box
      ref={scroller}
      // The browser's own anchoring would fight useScrollAnchor's.
      sx={{ flex: 1, minHeight: 0, overflowY: "auto", overflowAnchor: "none" }}
    >
      {list.isPending && list.fetchStatus !== "idle" && <SkeletonItems />}
      {list.isError && tickets.length === 0 && (
        <EmptyMessage
          empty={{
            title: t("tickets.loadError"),
            action: { label: t("tickets.tryAgain"), onClick: () => void list.refetch() },
          }}
        />
      )}
      {list.isSuccess && tickets.length === 0 && <EmptyMessage empty={empty} />}
      {tickets.length > 0 && (
        <TicketRows
          ref={setListElement}
          aria-label={t("tickets.listLabel")}
          onKeyDown={moveFocus}
          onFocus={trackFocus}
          onBlur={dropFocus}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const ticket = tickets[item.index]!;
            return (
              <TicketListItem
                key={item.key}
                ticket={ticket}
                index={item.index}
                setSize={setSize}
                measureRef={virtualizer.measureElement}
                selected={ticket.uuid === selectedUuid}
                viewerId={viewerId}
                now={now}
                busy={busy.get(ticket.id) ?? null}
                onOpen={onOpen}
                onAccept={onAccept}
                onClose={onClose}
                onSpy={onSpy}
              />
            );
          })}
        </TicketRows>
      )}
      {isFetchingNextPage && (
        <Box sx={{ display: "grid", placeItems: "center", py: 2 }}>
          <CircularProgress size={24} aria-label={t("tickets.loadingMore")} />
        </Box>
      )}
    </Box>
  );
}
