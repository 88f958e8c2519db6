import type { ContactDTO, UserDTO } from "@atende/contracts";
import { api } from "../../../api/http";

/** Calls only the chat window makes (the shared api/ modules belong to other screens). */
export const chatKeys = {
  contact: (id: number) => ["contacts", "id", id] as const,
  contactSearch: (search: string) => ["contacts", "search", search] as const,
  usersList: ["users", "list"] as const,
  queues: ["queues"] as const,
};

export function fetchContact(id: number, signal?: AbortSignal): Promise<ContactDTO> {
  return api.get<ContactDTO>(`/contacts/${id}`, { signal });
}

/** Every user of the company, for the transfer dialog. */
export function fetchUsersList(signal?: AbortSignal): Promise<UserDTO[]> {
  return api.get<UserDTO[]>("/users/list", { signal });
}
