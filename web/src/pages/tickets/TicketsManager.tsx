import { LIMITS, type TicketDTO } from "@atende/contracts";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Divider } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { applyTicket, ticketsOf, type Viewer } from "../../api/ticketLists";
import { updateTicket, type TicketFilters, type TicketPages } from "../../api/tickets";
import { toast, toastError } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { can } from "../../auth/permissions";
import { TicketStartDialog } from "../../components/TicketStartDialog";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { TicketViewDialog } from "./chat/TicketViewDialog";
import { CloseAllDialog } from "./CloseAllDialog";
import { ManagerHeader } from "./ManagerHeader";
import { MainTabs, OpenTabs, type MainTab, type OpenTab } from "./ManagerTabs";
import { SearchFilters, type SearchState } from "./SearchFilters";
import type { TicketAction } from "./TicketListItem";
import { EmptyMessage, TicketsList, type EmptyState } from "./TicketsList";
import { useQueueFilter } from "./useQueueFilter";
import { countOf, useTicketList } from "./useTicketList";
import { useQueueList } from "../../api/queues";

const SHOW_ALL_KEY = "tickets.showAll";

/** "Closest to breach first" in the waiting and open lists, remembered in this browser per user. */
function slaOrderKey(userId: number): string {
  return `tickets.slaOrder.${userId}`;
}

/** The tags on the tickets of these lists, once each, by name. */
function tagsOf(lists: (TicketPages | undefined)[]): TicketDTO["tags"] {
  const seen = new Map<number, TicketDTO["tags"][number]>();
  for (const data of lists) {
    for (const ticket of ticketsOf(data)) for (const tag of ticket.tags) seen.set(tag.id, tag);
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

interface TicketsManagerProps {
  viewer: Viewer;
  selectedUuid: string | undefined;
  /** A ticket was opened from the list (the narrow layout then shows the chat). */
  onOpened(): void;
}

/** The left side of the tickets screen: header, tabs (open with its two sub-tabs, resolved, search), lists. */
export function TicketsManager({ viewer, selectedUuid, onOpened }: TicketsManagerProps) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const queueFilter = useQueueFilter(user);
  const mayShowAll = can(user, "tickets-manager:showall");
  const mayCloseAll = can(user, "tickets-manager:closeAll");
  const [tab, setTab] = useState<MainTab>("open");
  const [openTab, setOpenTab] = useState<OpenTab>("open");
  const [showAll, setShowAll] = useState(() => mayShowAll && localStorage.getItem(SHOW_ALL_KEY) === "true");
  const [slaOrder, setSlaOrder] = useState(() => localStorage.getItem(slaOrderKey(user.id)) === "true");
  const [search, setSearch] = useState<SearchState>({ text: "", tags: [], users: [] });
  const searchText = useDebouncedValue(search.text.trim(), LIMITS.searchDebounceMs);
  const [busy, setBusy] = useState<ReadonlyMap<number, TicketAction>>(new Map());
  const [dialog, setDialog] = useState<"new" | "closeAll" | null>(null);
  const [spyId, setSpyId] = useState<number | null>(null);

  // "Go to queue X" (the command palette): that queue's waiting tickets, once per navigation.
  const location = useLocation();
  const askedQueue = (location.state as { queueId?: unknown } | null)?.queueId;
  const [shownAsk, setShownAsk] = useState<string | null>(null);
  if (typeof askedQueue === "number" && shownAsk !== location.key) {
    setShownAsk(location.key);
    queueFilter.change([askedQueue]);
    setTab("open");
    setOpenTab("pending");
  }

  const base: TicketFilters = { queueIds: queueFilter.queueIds, showAll: showAll || undefined };
  const searching = searchText !== "" || search.tags.length > 0 || search.users.length > 0;
  // "Closest to breach first" only where some queue has a target (the company's queues, read by
  // every picker already); until they are read, the remembered choice stands, so the lists load once.
  const queues = useQueueList();
  const slaInUse =
    queues.data?.some((q) => q.slaFirstResponseMinutes !== null || q.slaResolutionMinutes !== null) ?? null;
  const orderBy = slaOrder && slaInUse !== false ? ("slaDue" as const) : undefined;
  const openList = useTicketList({ ...base, status: "open", orderBy });
  const pendingList = useTicketList({ ...base, status: "pending", orderBy });
  const closedList = useTicketList({ ...base, status: "closed" }, tab === "closed");
  const searchList = useTicketList(
    {
      ...base,
      searchParam: searchText || undefined,
      tags: search.tags.map((tag) => tag.id),
      users: search.users.map((u) => u.id),
    },
    tab === "search" && searching,
  );

  const setAction = useCallback((ticketId: number, action: TicketAction | null) => {
    setBusy((current) => {
      const next = new Map(current);
      if (action) next.set(ticketId, action);
      else next.delete(ticketId);
      return next;
    });
  }, []);

  const open = useCallback(
    (ticket: TicketDTO) => {
      void navigate(`/tickets/${ticket.uuid}`);
      onOpened();
    },
    [navigate, onOpened],
  );

  const accept = useCallback(
    async (ticket: TicketDTO) => {
      setAction(ticket.id, "accept");
      try {
        const accepted = await updateTicket(ticket.id, { status: "open", userId: viewer.id });
        applyTicket(queryClient, accepted, viewer);
        setTab("open");
        setOpenTab("open");
        open(accepted);
      } catch (error) {
        toastError(error);
      } finally {
        setAction(ticket.id, null);
      }
    },
    [open, queryClient, setAction, viewer],
  );

  const close = useCallback(
    async (ticket: TicketDTO) => {
      setAction(ticket.id, "close");
      try {
        applyTicket(queryClient, await updateTicket(ticket.id, { status: "closed" }), viewer);
        toast(t("tickets.closed"), "success");
      } catch (error) {
        toastError(error);
      } finally {
        setAction(ticket.id, null);
      }
    },
    [queryClient, setAction, t, viewer],
  );

  const onAccept = useCallback((ticket: TicketDTO) => void accept(ticket), [accept]);
  const onClose = useCallback((ticket: TicketDTO) => void close(ticket), [close]);
  const onSpy = useCallback((ticket: TicketDTO) => setSpyId(ticket.id), []);

  function changeShowAll(value: boolean) {
    setShowAll(value);
    localStorage.setItem(SHOW_ALL_KEY, String(value));
  }

  function changeSlaOrder(value: boolean) {
    setSlaOrder(value);
    localStorage.setItem(slaOrderKey(user.id), String(value));
  }

  // Tags seen on the listed tickets stand in for the tags list while the server has none (only
  // the search tab offers them, and thousands of loaded tickets are not walked for nothing).
  const knownTags = useMemo(
    () =>
      tab === "search" ? tagsOf([openList.data, pendingList.data, closedList.data, searchList.data]) : [],
    [tab, openList.data, pendingList.data, closedList.data, searchList.data],
  );

  const newTicketAction = { label: t("tickets.header.newTicket"), onClick: () => setDialog("new") };
  let list = openList;
  let empty: EmptyState = {
    title: t("tickets.empty.open"),
    hint: t("tickets.empty.openHint"),
    action: newTicketAction,
  };
  if (tab === "open" && openTab === "pending") {
    list = pendingList;
    empty = { title: t("tickets.empty.pending"), hint: t("tickets.empty.pendingHint") };
  } else if (tab === "closed") {
    list = closedList;
    empty = { title: t("tickets.empty.closed") };
  } else if (tab === "search") {
    list = searchList;
    empty = { title: t("tickets.empty.noResults"), hint: t("tickets.empty.noResultsHint") };
  }

  const openCount = countOf(openList);
  const pendingCount = countOf(pendingList);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
      <ManagerHeader
        queueFilter={queueFilter}
        showAll={mayShowAll ? { value: showAll, onChange: changeShowAll } : undefined}
        slaOrder={tab === "open" && slaInUse ? { value: slaOrder, onChange: changeSlaOrder } : undefined}
        onCloseAll={mayCloseAll ? () => setDialog("closeAll") : undefined}
        onNewTicket={() => setDialog("new")}
      />
      <Divider />
      <MainTabs value={tab} onChange={setTab} />
      <Divider />
      {tab === "open" && (
        <>
          <OpenTabs value={openTab} onChange={setOpenTab} openCount={openCount} pendingCount={pendingCount} />
          <Divider />
        </>
      )}
      {tab === "search" && (
        <>
          <SearchFilters
            value={search}
            onChange={setSearch}
            withUserFilter={can(user, "ticket-search:userFilter")}
            knownTags={knownTags}
          />
          <Divider />
        </>
      )}
      <Box role="tabpanel" sx={{ display: "flex", flexDirection: "column", flex: 1, minHeight: 0 }}>
        {tab === "search" && !searching ? (
          <EmptyMessage
            empty={{
              title: t("tickets.empty.searchTitle"),
              hint: t("tickets.empty.searchHint"),
              icon: <SearchIcon fontSize="large" />,
            }}
          />
        ) : (
          <TicketsList
            list={list}
            empty={empty}
            selectedUuid={selectedUuid}
            viewerId={viewer.id}
            busy={busy}
            onOpen={open}
            onAccept={onAccept}
            onClose={onClose}
            onSpy={can(user, "ticket-options:spy") ? onSpy : undefined}
            textSearch={tab === "search" && searchText !== ""}
          />
        )}
      </Box>
      {dialog === "new" && (
        <TicketStartDialog
          queues={queueFilter.options}
          initialQueueId={queueFilter.options.length === 1 ? queueFilter.options[0]!.id : undefined}
          onClose={() => setDialog(null)}
          onStarted={(ticket) => {
            setDialog(null);
            applyTicket(queryClient, ticket, viewer);
            setTab("open");
            setOpenTab("open");
            open(ticket);
          }}
        />
      )}
      {dialog === "closeAll" && (
        <CloseAllDialog
          queues={
            queueFilter.queueIds
              ? queueFilter.options.filter((queue) => queueFilter.queueIds!.includes(queue.id))
              : undefined
          }
          initialStatus={openTab}
          onClose={() => setDialog(null)}
        />
      )}
      {spyId !== null && <TicketViewDialog ticketId={spyId} open onClose={() => setSpyId(null)} />}
    </Box>
  );
}
