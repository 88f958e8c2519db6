import type { ContactDTO, TicketDTO, UserDTO } from "@atende/contracts";
import { api } from "../../../api/http";

/** Calls only the chat window makes (the shared api/ modules belong to other screens); their cache keys are the domains' (contactKeys, userKeys...). */

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
