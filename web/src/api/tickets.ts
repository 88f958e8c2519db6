import type {
  TicketCreateInput,
  TicketDTO,
  TicketListQuery,
  TicketUpdateInput,
  TicketsPage,
} from "@atende/contracts";
import type { InfiniteData } from "@tanstack/react-query";
import { api, ApiError } from "./http";

/** The list's filters as the server reads them (arrays travel as JSON, like other clients of this API send them). */
export type TicketFilters = Partial<Omit<TicketListQuery, "pageNumber">>;

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => [...ticketKeys.all, "list"] as const,
  list: (filters: TicketFilters) => [...ticketKeys.lists(), filters] as const,
  byUuid: (uuid: string) => [...ticketKeys.all, "uuid", uuid] as const,
  byId: (id: number) => [...ticketKeys.all, "id", id] as const,
  /** The company's tags for the filters and the tag editor (GET /tags/list). */
  tagOptions: () => [...ticketKeys.all, "tag-options"] as const,
  /** The users the filters offer. */
  userOptions: () => [...ticketKeys.all, "user-options"] as const,
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
    orderBy: filters.orderBy,
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

/** A ticket list as TanStack Query keeps it: the pages loaded so far. */
export type TicketPages = InfiniteData<TicketsPage, unknown>;

/** A contact as the new-ticket dialog offers it. */
export type ContactOption = TicketDTO["contact"];

function routeMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.code === "ERR_ROUTE_NOT_FOUND";
}

/**
 * Contacts whose name or number matches `search`, for the new-ticket dialog. GET /contacts is the
 * spec's call; until the contacts module serves it, the contacts of the tickets the user may see
 * (the tickets search matches contact names and numbers too) stand in.
 */
export async function searchContacts(search: string, signal?: AbortSignal): Promise<ContactOption[]> {
  try {
    const page = await api.get<{ contacts: ContactOption[] }>("/contacts", {
      query: { searchParam: search, pageNumber: 1 },
      signal,
    });
    return page.contacts;
  } catch (error) {
    if (!routeMissing(error)) throw error;
  }
  const page = await fetchTickets({ searchParam: search, showAll: true }, 1, signal);
  const byId = new Map<number, ContactOption>();
  for (const ticket of page.tickets) byId.set(ticket.contact.id, ticket.contact);
  return [...byId.values()];
}

export interface TagOption {
  id: number;
  name: string;
  color: string;
}

/** The company's tags (GET /tags/list), or null while the server has no tags module yet. */
export async function fetchTagOptions(signal?: AbortSignal): Promise<TagOption[] | null> {
  try {
    return await api.get<TagOption[]>("/tags/list", { signal });
  } catch (error) {
    if (routeMissing(error)) return null;
    throw error;
  }
}

/** The company's users, for the admin's user filter in the search tab. */
export function fetchUserOptions(signal?: AbortSignal): Promise<{ id: number; name: string }[]> {
  return api.get<{ id: number; name: string }[]>("/users/list", { signal });
}
