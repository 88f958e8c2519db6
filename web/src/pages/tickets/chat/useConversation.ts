import type { MessagesPage, TicketDTO } from "@atende/contracts";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { flattenPages, upsertMessage, type MessagePages } from "../../../api/messagePages";
import { fetchMessages, messageKeys } from "../../../api/messages";
import { useConversationLive } from "../../../api/messagesLive";
import { NOT_REFETCHED_ON_READY } from "../../../api/SocketProvider";

const MARK_READ_DELAY_MS = 800;

/**
 * The messages of a ticket's conversation, page by page (newest first), kept current by the live
 * channel. While the assigned agent has it on screen, what the contact sends is read at once (the
 * server marks read when the newest page is fetched).
 */
export function useConversation(ticket: TicketDTO, opts: { meId: number; readOnly?: boolean }) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery<MessagesPage, Error, MessagePages, readonly unknown[], number>({
    queryKey: messageKeys.ticket(ticket.id),
    queryFn: ({ pageParam, signal }) => fetchMessages(ticket.id, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (last.hasMore ? all.length + 1 : undefined),
    meta: NOT_REFETCHED_ON_READY,
  });
  const messages = useMemo(() => flattenPages(query.data), [query.data]);
  const readTimer = useRef<number | undefined>(undefined);
  const watchesAsAgent = !opts.readOnly && ticket.status === "open" && ticket.userId === opts.meId;

  function markReadSoon() {
    window.clearTimeout(readTimer.current);
    readTimer.current = window.setTimeout(() => {
      if (document.visibilityState !== "visible") return;
      fetchMessages(ticket.id, 1)
        .then((page) => page.messages.forEach((m) => upsertMessage(queryClient, ticket.id, m)))
        .catch(() => undefined);
    }, MARK_READ_DELAY_MS);
  }

  useEffect(() => () => window.clearTimeout(readTimer.current), []);

  useConversationLive(ticket, () => {
    if (watchesAsAgent) markReadSoon();
  });

  return { ...query, messages, markReadSoon };
}
