import { useQueryClient } from "@tanstack/react-query";
import { quickMessageKeys, removeQuickMessageFromLists, upsertQuickMessageInLists } from "./quickMessages";
import { useCompanyEvent } from "./SocketProvider";

/** Keeps the quick message lists current while mounted: messages other users add, edit or delete. */
export function useQuickMessagesLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent("quickmessage", (payload) => {
    if (payload.action === "delete") removeQuickMessageFromLists(queryClient, payload.id);
    else upsertQuickMessageInLists(queryClient, payload.record);
  });
}

/**
 * Keeps the chat's quick message choices current while mounted. Which of them the user may pick
 * is the server's to say, so any change reads them again.
 */
export function useChatQuickMessagesLive(): void {
  const queryClient = useQueryClient();
  useCompanyEvent(
    "quickmessage",
    () => void queryClient.invalidateQueries({ queryKey: quickMessageKeys.chat() }),
  );
}
