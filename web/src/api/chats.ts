import type { ChatDTO, ChatMessageDTO, ChatMessagesPage, ChatsPage } from "@atende/contracts";
import { unreadsOf } from "@atende/contracts";
import { type InfiniteData, type QueryClient, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "./http";
import { type PagedLists, removeFromLists, upsertInLists } from "./pagedLists";

export const chatKeys = {
  all: ["chats"] as const,
  /** Every cached page list of chats, whatever the search text (the key's last part). */
  lists: () => [...chatKeys.all, "pages"] as const,
  list: (search: string) => [...chatKeys.lists(), search] as const,
  /** One chat opened by its uuid. */
  chat: (uuid: string) => [...chatKeys.all, "chat", uuid] as const,
  /** A chat's messages, a page at a time from the newest. */
  messages: (chatId: number) => [...chatKeys.all, "messages", chatId] as const,
};

export function fetchChatsPage(search: string, pageNumber: number, signal?: AbortSignal): Promise<ChatsPage> {
  return api.get<ChatsPage>("/chats", { query: { searchParam: search, pageNumber }, signal });
}

export function fetchChat(uuid: string, signal?: AbortSignal): Promise<ChatDTO> {
  return api.get<ChatDTO>(`/chats/${encodeURIComponent(uuid)}`, { signal });
}

export function fetchChatMessages(chatId: number, pageNumber: number, signal?: AbortSignal) {
  return api.get<ChatMessagesPage>(`/chats/${chatId}/messages`, { query: { pageNumber }, signal });
}

export interface ChatPayload {
  title: string;
  users: number[];
}

export function saveChat(id: number | null, payload: ChatPayload): Promise<ChatDTO> {
  return id === null ? api.post<ChatDTO>("/chats", payload) : api.put<ChatDTO>(`/chats/${id}`, payload);
}

export function deleteChat(id: number): Promise<void> {
  return api.delete(`/chats/${id}`);
}

/** Text, or files with the text on the first one (multipart "medias", as the chat window sends). */
export async function sendChatMessage(
  chatId: number,
  message: string,
  files: File[],
): Promise<ChatMessageDTO[]> {
  if (files.length === 0) return [await api.post<ChatMessageDTO>(`/chats/${chatId}/messages`, { message })];
  const form = new FormData();
  form.append("message", message);
  for (const file of files) form.append("medias", file, file.name);
  const sent = await api.post<ChatMessageDTO | ChatMessageDTO[]>(`/chats/${chatId}/messages`, form);
  return Array.isArray(sent) ? sent : [sent];
}

export function markChatRead(chatId: number, userId: number): Promise<ChatDTO> {
  return api.post<ChatDTO>(`/chats/${chatId}/read`, { userId });
}

function matchesSearch(chat: ChatDTO, search: string): boolean {
  const text = search.trim().toLowerCase();
  return !text || chat.title.toLowerCase().includes(text);
}

const chatLists: PagedLists<"records", ChatDTO> = {
  key: chatKeys.lists(),
  field: "records",
  matches: matchesSearch,
};

/** A chat made or changed: replaced where listed (and where opened), else added first. */
export function upsertChat(queryClient: QueryClient, chat: ChatDTO): void {
  upsertInLists(queryClient, chatLists, chat);
  queryClient.setQueryData<ChatDTO>(chatKeys.chat(chat.uuid), (old) => (old ? chat : old));
}

/** A chat with a new message: first in every list it matches (the lists are by latest activity). */
export function bumpChat(queryClient: QueryClient, chat: ChatDTO): void {
  removeFromLists(queryClient, chatLists, chat.id);
  upsertChat(queryClient, chat);
}

export function removeChat(queryClient: QueryClient, chat: { id: number; uuid: string }): void {
  removeFromLists(queryClient, chatLists, chat.id);
  queryClient.removeQueries({ queryKey: chatKeys.chat(chat.uuid) });
  queryClient.removeQueries({ queryKey: chatKeys.messages(chat.id) });
}

type MessagePages = InfiniteData<ChatMessagesPage, number>;

/** Adds messages to an opened chat's newest page (once each, whoever adds it first: the answer or the event). */
export function addChatMessages(queryClient: QueryClient, chatId: number, messages: ChatMessageDTO[]): void {
  queryClient.setQueryData<MessagePages>(chatKeys.messages(chatId), (data) => {
    if (!data?.pages.length) return data;
    const known = new Set(data.pages.flatMap((p) => p.records.map((m) => m.id)));
    const fresh = messages.filter((m) => !known.has(m.id));
    if (fresh.length === 0) return data;
    const [newest, ...older] = data.pages;
    return {
      ...data,
      pages: [
        { ...newest!, records: [...newest!.records, ...fresh], count: newest!.count + fresh.length },
        ...older,
      ],
    };
  });
}

/** The messages of an opened chat's cached pages, oldest first, each once. */
export function messagesOf(data: InfiniteData<ChatMessagesPage, unknown> | undefined): ChatMessageDTO[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: ChatMessageDTO[] = [];
  for (const page of [...data.pages].reverse())
    for (const m of page.records)
      if (!seen.has(m.id)) {
        seen.add(m.id);
        out.push(m);
      }
  return out.sort((a, b) => a.id - b.id);
}

/** What the user has unread in the chats of the first page of the unsearched list. */
export function unreadTotal(data: InfiniteData<ChatsPage, unknown> | undefined, userId: number): number {
  return (data?.pages ?? []).flatMap((p) => p.records).reduce((n, chat) => n + unreadsOf(chat, userId), 0);
}

/**
 * The user's chats by latest activity (the unsearched list, shared with the /chats page): the top
 * bar's popover and the menu's unread dot read it. Nothing is asked when the plan lacks the chat.
 */
export function useRecentChats(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: chatKeys.list(""),
    queryFn: ({ pageParam, signal }) => fetchChatsPage("", pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
    meta: { silent: true },
  });
}
