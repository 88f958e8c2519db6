import type { MessageDTO, TicketDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { flattenPages, upsertMessage } from "./messagePages";
import { fetchMessages, messageKeys } from "./messages";
import { useCompanyEvent, useSocketReady } from "./SocketProvider";

/** The ticket's conversation (the contact on this connection, earlier tickets included). */
function belongsTo(ticket: TicketDTO, event: { message: MessageDTO; ticket: TicketDTO }): boolean {
  if (event.ticket.contactId !== ticket.contactId) return false;
  return ticket.whatsappId
    ? event.ticket.whatsappId === ticket.whatsappId
    : event.message.ticketId === ticket.id;
}

/**
 * Keeps a ticket's conversation (its cached message pages) current while mounted: messages sent,
 * received or edited arrive in it, and `onReceived` hears each new one from the contact. The
 * conversation's query is marked NOT_REFETCHED_ON_READY: when the channel is back this merges the
 * newest page in, so the pages scrolled back to and a message being sent stay.
 */
export function useConversationLive(ticket: TicketDTO, onReceived: () => void): void {
  const queryClient = useQueryClient();

  // A whole page of messages never seen means more were missed: all again.
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
    if (event.action === "create" && !event.message.fromMe) onReceived();
  });
}
