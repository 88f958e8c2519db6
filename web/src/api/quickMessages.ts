import type { QuickMessageDTO, QuickMessagesPage } from "@atende/contracts";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { api } from "./http";
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

type QuickMessagesPages = InfiniteData<QuickMessagesPage, number>;

function matchesSearch(quickMessage: QuickMessageDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return (
    !text ||
    quickMessage.shortcode.toLowerCase().includes(text) ||
    quickMessage.message.toLowerCase().includes(text)
  );
}

/** Create or update: replaces the quick message where listed, else adds it first to the lists it matches. */
export function upsertQuickMessageInLists(queryClient: QueryClient, quickMessage: QuickMessageDTO): void {
  for (const [key, data] of queryClient.getQueriesData<QuickMessagesPages>({
    queryKey: quickMessageKeys.lists(),
  })) {
    if (!data) continue;
    const listed = data.pages.some((page) => page.records.some((r) => r.id === quickMessage.id));
    const search = String(key[key.length - 1] ?? "");
    if (!listed && !matchesSearch(quickMessage, search)) continue;
    const pages = listed
      ? data.pages.map((page) => ({
          ...page,
          records: page.records.map((r) => (r.id === quickMessage.id ? quickMessage : r)),
        }))
      : data.pages.map((page, index) =>
          index === 0 ? { ...page, records: [quickMessage, ...page.records], count: page.count + 1 } : page,
        );
    queryClient.setQueryData<QuickMessagesPages>(key, { ...data, pages });
  }
  void queryClient.invalidateQueries({ queryKey: quickMessageKeys.chat() });
}

export function removeQuickMessageFromLists(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<QuickMessagesPages>({ queryKey: quickMessageKeys.lists() }, (data) => {
    if (!data?.pages.some((page) => page.records.some((r) => r.id === id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        records: page.records.filter((r) => r.id !== id),
        count: Math.max(0, page.count - 1),
      })),
    };
  });
  queryClient.setQueryData<QuickMessageDTO[]>(quickMessageKeys.chat(), (list) =>
    list?.filter((r) => r.id !== id),
  );
}
