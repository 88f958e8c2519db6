import type { TicketDTO } from "@atende/contracts";
import type { TicketListRow, TicketTagRow } from "./queries.js";

/** The tickets in the order of `ids` as the list shows them: contact, agent, queue, connection, tags. */
export function presentTickets(ids: number[], rows: TicketListRow[], tagRows: TicketTagRow[]): TicketDTO[] {
  const tagsOf = new Map<number, TicketDTO["tags"]>();
  for (const { ticketId, ...tag } of tagRows) tagsOf.set(ticketId, [...(tagsOf.get(ticketId) ?? []), tag]);
  const byId = new Map<number, TicketDTO>(
    rows.map(({ t, contact, user, queue, whatsapp }) => [
      t.id,
      {
        id: t.id,
        uuid: t.uuid,
        status: t.status,
        contactId: t.contactId,
        contact,
        userId: t.userId,
        user: user?.id ? user : null,
        queueId: t.queueId,
        queue: queue?.id ? queue : null,
        whatsappId: t.whatsappId,
        whatsapp: whatsapp?.id ? whatsapp : null,
        lastMessage: t.lastMessage,
        unreadMessages: t.unreadMessages,
        isGroup: t.isGroup,
        chatbot: t.chatbot,
        tags: tagsOf.get(t.id) ?? [],
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
      },
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((t): t is TicketDTO => Boolean(t));
}
