import type { ContactDTO, TicketDTO, UserDTO } from "@atende/contracts";
import { api } from "../../../api/http";

/** Calls only the chat window makes (the shared api/ modules belong to other screens). */
export const chatKeys = {
  contact: (id: number) => ["contacts", "id", id] as const,
  contactSearch: (search: string) => ["contacts", "search", search] as const,
  usersList: ["users", "list"] as const,
  queues: ["queues"] as const,
  /** The company's tags (GET /tags/list); the search tab's tag filter reads the same cache. */
  tagOptions: ["tickets", "tag-options"] as const,
};

export function fetchContact(id: number, signal?: AbortSignal): Promise<ContactDTO> {
  return api.get<ContactDTO>(`/contacts/${id}`, { signal });
}

/** Every user of the company, for the transfer dialog. */
export function fetchUsersList(signal?: AbortSignal): Promise<UserDTO[]> {
  return api.get<UserDTO[]>("/users/list", { signal });
}

/** POST /tags/sync: the ticket ends with exactly these tags; answers the ticket as it is now. */
export function syncTicketTags(ticketId: number, tagIds: number[]): Promise<TicketDTO> {
  return api.post<TicketDTO>("/tags/sync", { ticketId, tags: tagIds });
}
