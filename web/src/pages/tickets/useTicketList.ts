import { useInfiniteQuery } from "@tanstack/react-query";
import { fetchTickets, ticketKeys, type TicketFilters } from "../../api/tickets";

/** One list of the manager (open, waiting, resolved, search): pages of 40, newest activity first. */
export function useTicketList(filters: TicketFilters, enabled = true) {
  return useInfiniteQuery({
    queryKey: ticketKeys.list(filters),
    queryFn: ({ pageParam, signal }) => fetchTickets(filters, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
    // Comparing every loaded ticket with its previous copy at each page costs more than it saves
    // once thousands are loaded: pages already loaded keep their identity anyway.
    structuralSharing: false,
  });
}

export type TicketListQuery = ReturnType<typeof useTicketList>;

/** The list's total as the server counted it, kept current by live events (see ticketLists.ts). */
export function countOf(list: TicketListQuery): number | undefined {
  return list.data?.pages[0]?.count;
}
