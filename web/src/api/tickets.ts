import type {
  TicketCreateInput,
  TicketDTO,
  TicketListQuery,
  TicketUpdateInput,
  TicketsPage,
} from "@atende/contracts";
import { api } from "./http";

/** The list's filters as the server reads them (arrays travel as JSON, like other clients of this API send them). */
export type TicketFilters = Partial<Omit<TicketListQuery, "pageNumber">>;

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => [...ticketKeys.all, "list"] as const,
  list: (filters: TicketFilters) => [...ticketKeys.lists(), filters] as const,
  byUuid: (uuid: string) => [...ticketKeys.all, "uuid", uuid] as const,
  byId: (id: number) => [...ticketKeys.all, "id", id] as const,
};

export function fetchTickets(
  filters: TicketFilters,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<TicketsPage> {
  const query: Record<string, string | number | boolean | undefined> = {
    pageNumber,
    searchParam: filters.searchParam,
    status: filters.status,
    showAll: filters.showAll,
    withUnreadMessages: filters.withUnreadMessages,
    date: filters.date,
    updatedAt: filters.updatedAt,
  };
  if (filters.queueIds?.length) query.queueIds = JSON.stringify(filters.queueIds);
  if (filters.tags?.length) query.tags = JSON.stringify(filters.tags);
  if (filters.users?.length) query.users = JSON.stringify(filters.users);
  return api.get<TicketsPage>("/tickets", { query, signal });
}

export function fetchTicketByUuid(uuid: string, signal?: AbortSignal): Promise<TicketDTO> {
  return api.get<TicketDTO>(`/tickets/u/${uuid}`, { signal });
}

export function fetchTicket(id: number, signal?: AbortSignal): Promise<TicketDTO> {
  return api.get<TicketDTO>(`/tickets/${id}`, { signal });
}

export function createTicket(input: Partial<TicketCreateInput> & { contactId: number }): Promise<TicketDTO> {
  return api.post<TicketDTO>("/tickets", input);
}

/** Accept, resolve, return, reopen and transfer are all this call with different fields. */
export function updateTicket(id: number, input: TicketUpdateInput): Promise<TicketDTO> {
  return api.put<TicketDTO>(`/tickets/${id}`, input);
}

export function deleteTicket(id: number): Promise<void> {
  return api.delete(`/tickets/${id}`);
}

export function closeAllTickets(
  status: "pending" | "open",
  selectedQueueIds: number[],
): Promise<{ closed: number }> {
  return api.post<{ closed: number }>("/tickets/closeAll", { status, selectedQueueIds });
}
