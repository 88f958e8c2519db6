import { kanbanLaneOf, type TicketDTO } from "@atende/contracts";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { putTicketOnBoards } from "../../api/kanbanBoards";
import { useKanbanLive } from "../../api/kanbanLive";
import {
  enterKanbanLane,
  fetchKanbanLanes,
  fetchKanbanPage,
  kanbanKeys,
  leaveKanbanLane,
  tagKeys,
} from "../../api/tags";
import { toast, toastError } from "../../api/toast";
import { useSessionUser } from "../../auth/AuthContext";
import { buildLanes, type LaneId, movedTicket } from "./board";

/** The board's lanes and tickets, kept live, and the move of a card from one lane to another. */
export function useKanbanBoard(showAll: boolean) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useSessionUser();

  const lanesQuery = useQuery({
    queryKey: tagKeys.kanbanLanes(),
    queryFn: ({ signal }) => fetchKanbanLanes(signal),
  });
  const ticketsQuery = useInfiniteQuery({
    queryKey: kanbanKeys.board(showAll),
    queryFn: ({ pageParam, signal }) => fetchKanbanPage(pageParam, { showAll }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });

  const tags = useMemo(() => lanesQuery.data ?? [], [lanesQuery.data]);
  const tickets = useMemo(() => {
    // A ticket can appear on two pages when it moved between the loads; keep the newer copy.
    const byId = new Map<number, TicketDTO>();
    for (const page of ticketsQuery.data?.pages ?? [])
      for (const ticket of page.tickets) {
        const seen = byId.get(ticket.id);
        if (!seen || seen.updatedAt <= ticket.updatedAt) byId.set(ticket.id, ticket);
      }
    return [...byId.values()];
  }, [ticketsQuery.data]);
  const lanes = useMemo(() => buildLanes(tickets, tags), [tickets, tags]);

  // Cards being moved here, whose echoes useKanbanLive leaves to the move's own answers.
  const moving = useRef(new Set<number>());
  useKanbanLive(user, (ticketId) => moving.current.has(ticketId));

  /** Drops a card in a lane: the old lane's tag goes (DELETE), the new one's comes (PUT), each with its toast. */
  async function move(ticket: TicketDTO, to: LaneId) {
    const laneIds = new Set(tags.map((tag) => tag.id));
    if (kanbanLaneOf(ticket, laneIds) === to) return;
    const lane = to === null ? null : (tags.find((tag) => tag.id === to) ?? null);
    putTicketOnBoards(queryClient, movedTicket(ticket, lane, laneIds), user);
    moving.current.add(ticket.id);
    try {
      let saved = await leaveKanbanLane(ticket.id);
      toast(t("kanban.removed"), "success");
      if (lane) {
        saved = await enterKanbanLane(ticket.id, lane.id);
        toast(t("kanban.added"), "success");
      }
      putTicketOnBoards(queryClient, saved, user);
    } catch (error) {
      toastError(error);
      void queryClient.invalidateQueries({ queryKey: kanbanKeys.boards() });
    } finally {
      moving.current.delete(ticket.id);
    }
  }

  function refresh() {
    void queryClient.invalidateQueries({ queryKey: tagKeys.kanbanLanes() });
    void queryClient.invalidateQueries({ queryKey: kanbanKeys.boards() });
  }

  return {
    lanes,
    hasLanes: tags.length > 0,
    loading: lanesQuery.isPending || ticketsQuery.isPending,
    error: lanesQuery.error ?? ticketsQuery.error,
    hasMore: Boolean(ticketsQuery.hasNextPage),
    loadingMore: ticketsQuery.isFetchingNextPage,
    loadMore: () => void ticketsQuery.fetchNextPage(),
    move,
    refresh,
  };
}
