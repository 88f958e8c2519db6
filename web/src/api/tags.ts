import type { KanbanPage, TagDTO, TagsPage, TicketDTO } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const tagKeys = {
  all: ["tags"] as const,
  /** Every cached page list of tags, whatever the search text (the key's last part). */
  lists: () => [...tagKeys.all, "pages"] as const,
  list: (search: string) => [...tagKeys.lists(), search] as const,
  /** The kanban lanes: the tags flagged kanban. */
  kanbanLanes: () => [...tagKeys.all, "kanban"] as const,
};

export const kanbanKeys = {
  all: ["kanban"] as const,
  /** Every cached board, whatever its showAll (the key's last part). */
  boards: () => [...kanbanKeys.all, "tickets"] as const,
  board: (showAll: boolean) => [...kanbanKeys.boards(), showAll] as const,
};

export function fetchTagsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<TagsPage> {
  return api.get<TagsPage>("/tags", { query: { searchParam: search, pageNumber }, signal });
}

export interface TagPayload {
  name: string;
  color: string;
  /** Sent only by who may switch it (admin, supervisor). */
  kanban?: 0 | 1;
}

export function saveTag(id: number | null, payload: TagPayload): Promise<TagDTO> {
  return id === null ? api.post<TagDTO>("/tags", payload) : api.put<TagDTO>(`/tags/${id}`, payload);
}

export function deleteTag(id: number): Promise<void> {
  return api.delete(`/tags/${id}`);
}

/** The kanban lanes: the tags flagged kanban. */
export async function fetchKanbanLanes(signal?: AbortSignal): Promise<TagDTO[]> {
  return (await api.get<{ lista: TagDTO[] }>("/tags/kanban", { signal })).lista;
}

export function fetchKanbanPage(
  pageNumber: number,
  options: { showAll: boolean },
  signal?: AbortSignal,
): Promise<KanbanPage> {
  return api.get<KanbanPage>("/ticket/kanban", {
    query: { pageNumber, showAll: options.showAll || undefined },
    signal,
  });
}

/** Out of every kanban lane (back to 'Em aberto'). */
export function leaveKanbanLane(ticketId: number): Promise<TicketDTO> {
  return api.delete<TicketDTO>(`/ticket-tags/${ticketId}`);
}

/** Into the lane of `tagId`. */
export function enterKanbanLane(ticketId: number, tagId: number): Promise<TicketDTO> {
  return api.put<TicketDTO>(`/ticket-tags/${ticketId}/${tagId}`);
}

function matchesSearch(tag: TagDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return !text || tag.name.toLowerCase().includes(text);
}

const tagLists: PagedLists<"tags", TagDTO> = {
  key: tagKeys.lists(),
  field: "tags",
  matches: matchesSearch,
};

/** Create or update: replaces the tag where listed, else adds it first to the lists it matches. */
export function upsertTagInLists(queryClient: QueryClient, tag: TagDTO): void {
  upsertInLists(queryClient, tagLists, tag);
}

export function removeTagFromLists(queryClient: QueryClient, tagId: number): void {
  removeFromLists(queryClient, tagLists, tagId);
}

/** A lane created, renamed, recoloured, switched on or off, or deleted. */
export function applyTagToLanes(
  queryClient: QueryClient,
  event: { action: "create" | "update"; tag: TagDTO } | { action: "delete"; tagId: number },
): void {
  queryClient.setQueryData<TagDTO[]>(tagKeys.kanbanLanes(), (lanes) => {
    if (!lanes) return lanes;
    const id = event.action === "delete" ? event.tagId : event.tag.id;
    const others = lanes.filter((lane) => lane.id !== id);
    if (event.action === "delete" || event.tag.kanban !== 1) return others;
    return [...others, event.tag].sort((x, y) => x.name.localeCompare(y.name) || x.id - y.id);
  });
}
