import type { CompanyEventPayloads } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCompanyEvent } from "./SocketProvider";
import { addChatMessages, bumpChat, removeChat, upsertChat } from "./chats";

/**
 * Keeps the chat lists, the opened chats and their messages current while mounted (the app shell
 * mounts it, for the unread dot and the popover). `onEvent` hears each event after the caches.
 */
export function useChatsLive(onEvent?: (event: CompanyEventPayloads["chat"]) => void): void {
  const queryClient = useQueryClient();
  useCompanyEvent("chat", (event) => {
    if (event.action === "delete") removeChat(queryClient, event);
    else if (event.action === "new-message") {
      bumpChat(queryClient, event.chat);
      addChatMessages(queryClient, event.chat.id, [event.newMessage]);
    } else upsertChat(queryClient, event.chat);
    onEvent?.(event);
  });
}
