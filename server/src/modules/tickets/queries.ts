import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { TicketDTO } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { columnList, tableRow } from "../../db/prepared.js";
import {
  contacts,
  messages,
  queues,
  tags,
  ticketTags,
  ticketTracking,
  tickets,
  users,
  whatsapps,
} from "../../db/schema/index.js";
import { presentTickets } from "./present.js";

export type TicketRecord = typeof tickets.$inferSelect;
export type TicketPatch = Partial<typeof tickets.$inferInsert>;

export async function findTicketRow(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
  return row ?? null;
}

/** A contact's tickets on one connection (its conversation's history): who may see each. */
export async function conversationTickets(
  db: Executor,
  companyId: number,
  contactId: number,
  whatsappId: number,
) {
  return db
    .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
      ),
    );
}

export async function findTicketByUuid(db: Executor, companyId: number, uuid: string) {
  // Anything not shaped like a uuid is simply not found (the database would refuse the cast).
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) return null;
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.uuid, uuid)));
  return row ?? null;
}

/** The contact's live (not closed) ticket on a connection, with who holds it. */
export async function liveTicketOf(
  db: Executor,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
) {
  const rows = await queryRows<{ id: number; user_name: string | null; queue_name: string | null }>(
    db,
    sql`select t.id, u.name as user_name, q.name as queue_name from tickets t
        left join users u on u.id = t.user_id left join queues q on q.id = t.queue_id
        where t.company_id = ${companyId} and t.contact_id = ${contactId} and t.status <> 'closed'
          and t.whatsapp_id is not distinct from ${whatsappId}
        limit 1`,
  );
  return rows[0] ?? null;
}

function ticketListRows(db: Executor, companyId: number, ids: number[]) {
  return db
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
}
export type TicketListRow = Awaited<ReturnType<typeof ticketListRows>>[number];

function ticketTagRows(db: Executor, companyId: number, ids: number[]) {
  return db
    .select({ ticketId: ticketTags.ticketId, id: tags.id, name: tags.name, color: tags.color })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(and(eq(ticketTags.companyId, companyId), inArray(ticketTags.ticketId, ids)));
}
export type TicketTagRow = Awaited<ReturnType<typeof ticketTagRows>>[number];

/** Loads tickets with what the list shows of their contact, agent, queue and connection. */
export async function loadTickets(db: Executor, companyId: number, ids: number[]): Promise<TicketDTO[]> {
  if (ids.length === 0) return [];
  return presentTickets(
    ids,
    await ticketListRows(db, companyId, ids),
    await ticketTagRows(db, companyId, ids),
  );
}

export async function loadTicket(db: Executor, companyId: number, id: number): Promise<TicketDTO | null> {
  return (await loadTickets(db, companyId, [id]))[0] ?? null;
}

export async function queueNameOf(db: Executor, companyId: number, queueId: number): Promise<string | null> {
  const [row] = await db
    .select({ name: queues.name })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  return row?.name ?? null;
}

export async function findContactRow(db: Executor, companyId: number, contactId: number) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)));
  return row ?? null;
}

/** The company's default connection, where a ticket goes when neither the agent nor the caller picks one. */
export async function defaultWhatsappId(db: Executor, companyId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
  return row?.id ?? null;
}

/** The ticket's unread customer messages become read; answers their WhatsApp ids (for read receipts). */
export async function markTicketRead(tx: Executor, companyId: number, ticketId: number): Promise<string[]> {
  const unread = await tx
    .update(messages)
    .set({ read: true })
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        eq(messages.fromMe, false),
        eq(messages.read, false),
      ),
    )
    .returning({ wid: messages.wid });
  await tx
    .update(tickets)
    .set({ unreadMessages: 0 })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
  return unread.map((m) => m.wid).filter((w): w is string => Boolean(w));
}

/**
 * Writes `patch` only if the ticket's status and agent are still `seen`: two agents accepting the
 * same ticket at once must not both get it. False when another change landed first.
 */
export async function updateTicketIfUnchanged(
  tx: Executor,
  companyId: number,
  id: number,
  seen: { status: TicketRecord["status"]; userId: number | null },
  patch: TicketPatch,
): Promise<boolean> {
  const changed = await tx
    .update(tickets)
    .set(patch)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.id, id),
        eq(tickets.status, seen.status),
        seen.userId === null ? isNull(tickets.userId) : eq(tickets.userId, seen.userId),
      ),
    )
    .returning({ id: tickets.id });
  return changed.length > 0;
}

/**
 * The contact's live ticket on the connection, or a new one opened with `opening` when there is
 * none, in one statement: the unique index on live tickets decides a race (an inbound message, another
 * sender), and the loser gets the winner's ticket, untouched. `opened` says which. The new ticket
 * takes the contact's group flag; a contact not of the company answers null.
 */
export async function upsertLiveTicket(
  tx: Executor,
  companyId: number,
  key: { contactId: number; whatsappId: number },
  opening: { userId: number | null; queueId: number | null; status: "open" | "pending" },
  at: Date,
): Promise<{ ticket: typeof tickets.$inferSelect; opened: boolean } | null> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`insert into tickets as t (company_id, contact_id, whatsapp_id, user_id, queue_id, status, is_group,
          created_at, updated_at)
        select c.company_id, c.id, ${key.whatsappId}, ${opening.userId}, ${opening.queueId}, ${opening.status},
          c.is_group, ${at.toISOString()}, ${at.toISOString()}
        from contacts c where c.company_id = ${companyId} and c.id = ${key.contactId}
        on conflict (company_id, contact_id, whatsapp_id) where status <> 'closed'
          do update set updated_at = t.updated_at
        returning ${columnList(tickets, "t")}, (t.xmax = 0) as opened__`,
  );
  const row = rows[0];
  return row ? { ticket: tableRow(tickets, row), opened: row.opened__ === true } : null;
}

export async function deleteTicket(tx: Executor, companyId: number, id: number): Promise<void> {
  await tx.delete(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
}

export async function setTicketClosed(tx: Executor, companyId: number, id: number, at: Date): Promise<void> {
  await tx
    .update(tickets)
    .set({ status: "closed", updatedAt: at })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
}

/** Closes every ticket of `status` in the queues (none given: all); answers each one's queue and agent. */
export async function closeTicketsWhere(
  tx: Executor,
  companyId: number,
  status: "pending" | "open",
  queueIds: number[],
  at: Date,
) {
  return tx
    .update(tickets)
    .set({ status: "closed", updatedAt: at })
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.status, status),
        queueIds.length ? inArray(tickets.queueId, queueIds) : sql`true`,
      ),
    )
    .returning({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId });
}

// The ticket's timeline (ticket_tracking): the reports' and dashboard's source.

export interface TrackingPatch {
  queueId?: number | null;
  userId?: number | null;
  whatsappId?: number | null;
  queuedAt?: Date;
  acceptedAt?: Date;
  finishedAt?: Date | null;
  ratingAt?: Date;
  ratedAt?: Date;
  rating?: number;
}

/**
 * Records a step of the ticket's timeline in the caller's transaction: creates the ticket's row on
 * its first step; a field given here replaces the stored one (queuedAt and acceptedAt keep the first).
 */
export async function track(
  tx: Executor,
  ticket: {
    id: number;
    companyId: number;
    whatsappId: number | null;
    queueId: number | null;
    userId: number | null;
  },
  patch: TrackingPatch,
  at: Date,
): Promise<void> {
  const values = {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: patch.whatsappId !== undefined ? patch.whatsappId : ticket.whatsappId,
    queueId: patch.queueId !== undefined ? patch.queueId : ticket.queueId,
    userId: patch.userId !== undefined ? patch.userId : ticket.userId,
    queuedAt: patch.queuedAt ?? null,
    acceptedAt: patch.acceptedAt ?? null,
    finishedAt: patch.finishedAt ?? null,
    ratingAt: patch.ratingAt ?? null,
    ratedAt: patch.ratedAt ?? null,
    rating: patch.rating ?? null,
    createdAt: at,
    updatedAt: at,
  };
  // The ticket as it stands after the change: its connection, queue and agent.
  const set: Record<string, unknown> = {
    updatedAt: at,
    whatsappId: values.whatsappId,
    queueId: values.queueId,
    userId: values.userId,
  };
  if (patch.queuedAt) set.queuedAt = sql`coalesce(${ticketTracking.queuedAt}, excluded.queued_at)`;
  if (patch.acceptedAt) set.acceptedAt = sql`coalesce(${ticketTracking.acceptedAt}, excluded.accepted_at)`;
  if (patch.finishedAt !== undefined) set.finishedAt = patch.finishedAt;
  if (patch.ratingAt) set.ratingAt = patch.ratingAt;
  if (patch.ratedAt) set.ratedAt = patch.ratedAt;
  if (patch.rating !== undefined) set.rating = patch.rating;
  await tx.insert(ticketTracking).values(values).onConflictDoUpdate({ target: ticketTracking.ticketId, set });
}

/**
 * An agent's message was queued at `at` (the app clock): the first one is the first reply (the
 * bot's never count).
 */
export async function trackAgentReply(
  tx: Executor,
  ticket: {
    id: number;
    companyId: number;
    whatsappId: number | null;
    queueId: number | null;
    userId: number | null;
  },
  at: Date,
): Promise<void> {
  await tx
    .insert(ticketTracking)
    .values({
      companyId: ticket.companyId,
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
      queueId: ticket.queueId,
      userId: ticket.userId,
      firstAgentReplyAt: at,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: ticketTracking.ticketId,
      set: {
        firstAgentReplyAt: sql`coalesce(${ticketTracking.firstAgentReplyAt}, excluded.first_agent_reply_at)`,
        updatedAt: at,
      },
    });
}
