import type { QuickMessageDTO, QuickMessagesPage } from "@atende/contracts";
import type { QueryClient } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";
import { fetchMediaBlob } from "./media";

export const quickMessageKeys = {
  all: ["quickMessages"] as const,
  /** Every cached page list of quick messages, whatever the search text (the key's last part). */
  lists: () => [...quickMessageKeys.all, "pages"] as const,
  list: (search: string) => [...quickMessageKeys.lists(), search] as const,
  /** The chat's '/' list: the user's own quick messages and the global ones. */
  chat: () => [...quickMessageKeys.all, "chat"] as const,
};

export function fetchQuickMessagesPage(
  search: string,
  pageNumber: number,
  signal?: AbortSignal,
): Promise<QuickMessagesPage> {
  return api.get<QuickMessagesPage>("/quick-messages", {
    query: { searchParam: search, pageNumber },
    signal,
  });
}

export function fetchChatQuickMessages(signal?: AbortSignal): Promise<QuickMessageDTO[]> {
  return api.get<QuickMessageDTO[]>("/quick-messages/list", { signal });
}

export interface QuickMessagePayload {
  shortcode: string;
  message: string;
  /** Sent only by admins; the server refuses a change from anyone else. */
  geral?: boolean;
}

export function saveQuickMessage(id: number | null, payload: QuickMessagePayload): Promise<QuickMessageDTO> {
  return id === null
    ? api.post<QuickMessageDTO>("/quick-messages", payload)
    : api.put<QuickMessageDTO>(`/quick-messages/${id}`, payload);
}

export function deleteQuickMessage(id: number): Promise<void> {
  return api.delete(`/quick-messages/${id}`);
}

export function uploadQuickMessageMedia(id: number, file: File): Promise<QuickMessageDTO> {
  const form = new FormData();
  form.append("typeArch", "quickMessage");
  form.append("file", file, file.name);
  return api.post<QuickMessageDTO>(`/quick-messages/${id}/media-upload`, form);
}

export function removeQuickMessageMedia(id: number): Promise<QuickMessageDTO> {
  return api.delete<QuickMessageDTO>(`/quick-messages/${id}/media-upload`);
}

/** A quick message's attachment as a File, ready to send from the chat like any attached file. */
export async function quickMessageFile(
  quickMessage: QuickMessageDTO,
  signal?: AbortSignal,
): Promise<File | null> {
  if (!quickMessage.mediaUrl) return null;
  const blob = await fetchMediaBlob(quickMessage.mediaUrl, signal);
  return new File([blob], quickMessage.mediaName ?? "arquivo", { type: blob.type });
}

function matchesSearch(quickMessage: QuickMessageDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return (
    !text ||
    quickMessage.shortcode.toLowerCase().includes(text) ||
    quickMessage.message.toLowerCase().includes(text)
  );
}

const quickMessageLists: PagedLists<"records", QuickMessageDTO> = {
  key: quickMessageKeys.lists(),
  field: "records",
  matches: matchesSearch,
};

/** Create or update: replaces the quick message where listed, else adds it first to the lists it matches. */
export function upsertQuickMessageInLists(queryClient: QueryClient, quickMessage: QuickMessageDTO): void {
  upsertInLists(queryClient, quickMessageLists, quickMessage);
  void queryClient.invalidateQueries({ queryKey: quickMessageKeys.chat() });
}

export function removeQuickMessageFromLists(queryClient: QueryClient, id: number): void {
  removeFromLists(queryClient, quickMessageLists, id);
  queryClient.setQueryData<QuickMessageDTO[]>(quickMessageKeys.chat(), (list) =>
    list?.filter((r) => r.id !== id),
  );
}
