import type { MessageDTO, MessagesPage } from "@atende/contracts";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { messageKeys } from "./messages";

export type MessagePages = InfiniteData<MessagesPage, number>;

/** The conversation, oldest first, each message once, without reactions (they sit under their target). */
export function flattenPages(data: MessagePages | undefined): MessageDTO[] {
  if (!data) return [];
  const byId = new Map<number, MessageDTO>();
  // Pages come newest first; a later page may repeat messages after new ones shifted the offsets.
  for (let p = data.pages.length - 1; p >= 0; p--) {
    for (const message of data.pages[p]!.messages) {
      if (message.mediaType !== "reactionMessage") byId.set(message.id, message);
    }
  }
  // Thousands of messages when the agent has scrolled far back: each date is read once.
  const timed = [...byId.values()].map((message) => ({ at: Date.parse(message.createdAt), message }));
  timed.sort((a, b) => a.at - b.at || a.message.id - b.message.id);
  return timed.map((entry) => entry.message);
}

/** Adds the message to the newest page, or replaces it where it is; false when it was not there before. */
export function upsertInPages(
  data: MessagePages,
  message: MessageDTO,
): { data: MessagePages; added: boolean } {
  const listed = data.pages.some((page) => page.messages.some((m) => m.id === message.id));
  if (listed) {
    return {
      added: false,
      data: {
        ...data,
        pages: data.pages.map((page) =>
          page.messages.some((m) => m.id === message.id)
            ? { ...page, messages: page.messages.map((m) => (m.id === message.id ? message : m)) }
            : page,
        ),
      },
    };
  }
  const [newest, ...older] = data.pages;
  if (!newest) return { data, added: false };
  return {
    added: true,
    data: {
      ...data,
      pages: [{ ...newest, messages: [...newest.messages, message], count: newest.count + 1 }, ...older],
    },
  };
}

/** Shows a message at once (an answer to our own call), or replaces it where it is listed. */
export function upsertMessage(queryClient: QueryClient, ticketId: number, message: MessageDTO): void {
  queryClient.setQueryData<MessagePages>(messageKeys.ticket(ticketId), (data) =>
    data ? upsertInPages(data, message).data : data,
  );
}
