import { and, eq, inArray } from "drizzle-orm";
import type { TicketDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { contacts, queues, tags, ticketTags, tickets, users, whatsapps } from "../../db/schema/index.js";

export type TicketRow = typeof tickets.$inferSelect;

/** Loads tickets with what the list shows of their contact, agent, queue and connection. */
export async function loadTickets(db: Executor, companyId: number, ids: number[]): Promise<TicketDTO[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      t: tickets,
      contact: {
        id: contacts.id,
        name: contacts.name,
        number: contacts.number,
        profilePicUrl: contacts.profilePicUrl,
        isGroup: contacts.isGroup,
      },
      user: { id: users.id, name: users.name },
      queue: { id: queues.id, name: queues.name, color: queues.color },
      whatsapp: { id: whatsapps.id, name: whatsapps.name },
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, tickets.userId))
    .leftJoin(queues, eq(queues.id, tickets.queueId))
    .leftJoin(whatsapps, eq(whatsapps.id, tickets.whatsappId))
    .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, ids)));
  const tagRows = await db
    .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(and(eq(ticketTags.companyId, companyId), inArray(ticketTags.ticketId, ids)));
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

export async function loadTicket(db: Executor, companyId: number, id: number): Promise<TicketDTO | null> {
  return (await loadTickets(db, companyId, [id]))[0] ?? null;
}
