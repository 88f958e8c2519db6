import type { AllTicket, Profile, QueueDTO, UserDTO, UsersPage } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const userKeys = {
  all: ["users"] as const,
  /** Every cached page list of users, whatever the search text (the key's last part). */
  lists: () => [...userKeys.all, "pages"] as const,
  list: (search: string) => [...userKeys.lists(), search] as const,
  /** Every user of the company in one answer (GET /users/list), for pickers. */
  everyone: () => [...userKeys.all, "list"] as const,
};

export function fetchUsersPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<UsersPage> {
  return api.get<UsersPage>("/users", { query: { searchParam: search, pageNumber }, signal });
}

/** What the user dialog sends: fields the editor may not change are left out. */
export interface UserPayload {
  name: string;
  email: string;
  password?: string;
  /** The current password, when users change their own. */
  oldPassword?: string;
  profile?: Profile;
  queueIds?: number[];
  whatsappId?: number | null;
  allTicket?: AllTicket;
}

export function saveUser(id: number | null, payload: UserPayload): Promise<UserDTO | undefined> {
  return id === null ? api.post<UserDTO>("/users", payload) : api.put<UserDTO>(`/users/${id}`, payload);
}

export function deleteUser(id: number): Promise<void> {
  return api.delete(`/users/${id}`);
}

export function fetchQueues(signal?: AbortSignal): Promise<QueueDTO[]> {
  return api.get<QueueDTO[]>("/queue", { signal });
}

/** A WhatsApp connection as the default-connection select needs it. */
export interface ConnectionOption {
  id: number;
  name: string;
}

export function fetchConnections(signal?: AbortSignal): Promise<ConnectionOption[]> {
  return api.get<ConnectionOption[]>("/whatsapp", { signal });
}

function matchesSearch(user: UserDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return !text || user.name.toLowerCase().includes(text) || user.email.toLowerCase().includes(text);
}

const userLists: PagedLists<"users", UserDTO> = {
  key: userKeys.lists(),
  field: "users",
  matches: matchesSearch,
};

/** Create or update: replaces the user where listed, else adds it first to the lists it matches. */
export function upsertUserInLists(queryClient: QueryClient, user: UserDTO): void {
  upsertInLists(queryClient, userLists, user);
}

export function removeUserFromLists(queryClient: QueryClient, userId: number): void {
  removeFromLists(queryClient, userLists, userId);
}
