import { LIMITS, type TicketDTO } from "@atende/contracts";
import { Box, Button, CircularProgress, Skeleton, Stack, Typography } from "@mui/material";
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useClock } from "./elapsed";
import { ticketsOf } from "./ticketLists";
import { TicketListItem, type TicketAction } from "./TicketListItem";
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

/** Up and down arrows move between tickets (the row, or a waiting ticket's accept button). */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const targets = [...event.currentTarget.querySelectorAll<HTMLElement>("[data-ticket-focus]")];
  const item = (event.target as HTMLElement).closest("li");
  const index = targets.findIndex((target) => target.closest("li") === item);
  const next = targets[index + (event.key === "ArrowDown" ? 1 : -1)];
  if (!next) return;
  event.preventDefault();
  next.focus();
  next.scrollIntoView({ block: "nearest" });
}

/** One list of tickets: loads the next page within 100 px of the end, skeletons while loading. */
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
}: TicketsListProps) {
  const { t } = useTranslation();
  const now = useClock();
  const scroller = useRef<HTMLDivElement>(null);
  const tickets = ticketsOf(list.data);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  function nearEnd(element: HTMLElement): boolean {
    return element.scrollHeight - element.scrollTop - element.clientHeight < LIMITS.infiniteScrollThresholdPx;
  }

  function loadMore() {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }

  // A page that does not fill the box leaves nothing to scroll: ask for the next one right away.
  useEffect(() => {
    const element = scroller.current;
    if (element && hasNextPage && !isFetchingNextPage && nearEnd(element)) void fetchNextPage();
  }, [tickets.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Box
      ref={scroller}
      onScroll={(event) => nearEnd(event.currentTarget) && loadMore()}
      sx={{ flex: 1, minHeight: 0, overflowY: "auto" }}
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
        <Box component="ul" aria-label={t("tickets.listLabel")} onKeyDown={moveFocus} sx={{ m: 0, p: 0 }}>
          {tickets.map((ticket) => (
            <TicketListItem
              key={ticket.id}
              ticket={ticket}
              selected={ticket.uuid === selectedUuid}
              viewerId={viewerId}
              now={now}
              busy={busy.get(ticket.id) ?? null}
              onOpen={onOpen}
              onAccept={onAccept}
              onClose={onClose}
              onSpy={onSpy}
            />
          ))}
        </Box>
      )}
      {isFetchingNextPage && (
        <Box sx={{ display: "grid", placeItems: "center", py: 2 }}>
          <CircularProgress size={24} aria-label={t("tickets.loadingMore")} />
        </Box>
      )}
    </Box>
  );
}
