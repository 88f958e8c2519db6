import type { MessageDTO, MessagesPage, TicketDTO } from "@atende/contracts";
import { useInfiniteQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { fetchMessages, messageKeys } from "../../../api/messages";
import { NOT_REFETCHED_ON_READY, useCompanyEvent, useSocketReady } from "../../../api/SocketProvider";
import { flattenPages, upsertInPages, type MessagePages } from "./conversation";

/** Shows a message at once (an answer to our own call), or replaces it where it is listed. */
export function upsertMessage(queryClient: QueryClient, ticketId: number, message: MessageDTO): void {
  queryClient.setQueryData<MessagePages>(messageKeys.ticket(ticketId), (data) =>
    data ? upsertInPages(data, message).data : data,
  );
}

/** The ticket's conversation (the contact on this connection, earlier tickets included). */
function belongsTo(ticket: TicketDTO, event: { message: MessageDTO; ticket: TicketDTO }): boolean {
  if (event.ticket.contactId !== ticket.contactId) return false;
  return ticket.whatsappId
    ? event.ticket.whatsappId === ticket.whatsappId
    : event.message.ticketId === ticket.id;
}

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

  // Back from a lost connection: the newest page is merged in, so the pages scrolled back to and a
  // message being sent stay. A whole page of messages never seen means more were missed: all again.
  useSocketReady(
    () => {
      const known = new Set(
        flattenPages(queryClient.getQueryData(messageKeys.ticket(ticket.id))).map((m) => m.id),
      );
      fetchMessages(ticket.id, 1)
        .then((page) => {
          const missedMore = known.size > 0 && page.hasMore && page.messages.every((m) => !known.has(m.id));
          if (missedMore)
            void queryClient.resetQueries({ queryKey: messageKeys.ticket(ticket.id), exact: true });
          else page.messages.forEach((m) => upsertMessage(queryClient, ticket.id, m));
        })
        .catch(() => undefined);
    },
    { whenShown: true },
  );

  useCompanyEvent("appMessage", (event) => {
    if (event.message.mediaType === "reactionMessage" || !belongsTo(ticket, event)) return;
    upsertMessage(queryClient, ticket.id, event.message);
    if (event.action === "create" && !event.message.fromMe && watchesAsAgent) markReadSoon();
  });

  return { ...query, messages, markReadSoon };
}
