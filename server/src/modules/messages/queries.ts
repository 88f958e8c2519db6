import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { MESSAGE_PAGE_SIZE, type MessageDTO } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { type MessageRow, presentMessage } from "./present.js";

/** Every helper takes the caller's companyId first: a message of another company is simply not found. */

/** Loads messages with their quoted message and the reactions they received, in the order of `ids`. */
export async function loadMessages(db: Executor, companyId: number, ids: number[]): Promise<MessageDTO[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, companyId), inArray(messages.id, ids)));
  const quotedIds = [...new Set(rows.map((r) => r.quotedMsgId).filter((x): x is number => x !== null))];
  const quoted = quotedIds.length
    ? await db
        .select()
        .from(messages)
        .where(and(eq(messages.companyId, companyId), inArray(messages.id, quotedIds)))
    : [];
  const reactionRows = await db
    .select({ target: messages.quotedMsgId, emoji: messages.body, fromMe: messages.fromMe })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        // A literal, not a parameter, so the planner can always use the partial index messages_reactions_idx.
        sql`${messages.mediaType} = 'reactionMessage'`,
        inArray(messages.quotedMsgId, ids),
      ),
    )
    .orderBy(asc(messages.id));
  const quotedById = new Map(quoted.map((q) => [q.id, q]));
  const reactionsOf = new Map<number, { emoji: string; fromMe: boolean }[]>();
  // The latest reaction of each side wins; an empty emoji removed it.
  for (const r of reactionRows) {
    const list = (reactionsOf.get(r.target!) ?? []).filter((x) => x.fromMe !== r.fromMe);
    if (r.emoji) list.push({ emoji: r.emoji, fromMe: r.fromMe });
    reactionsOf.set(r.target!, list);
  }
  const byId = new Map(
    rows.map((m) => [
      m.id,
      presentMessage(
        m,
        m.quotedMsgId ? (quotedById.get(m.quotedMsgId) ?? null) : null,
        reactionsOf.get(m.id) ?? [],
      ),
    ]),
  );
  return ids.map((id) => byId.get(id)).filter((m): m is MessageDTO => Boolean(m));
}

export async function loadMessage(db: Executor, companyId: number, id: number): Promise<MessageDTO | null> {
  return (await loadMessages(db, companyId, [id]))[0] ?? null;
}

export async function findMessageRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, id)));
  return row ?? null;
}

/** The contact a message or ticket belongs to (its address on WhatsApp, for the event and the sends). */
export async function contactOf(db: Executor, companyId: number, contactId: number) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)));
  return row ?? null;
}

/** The ticket's newest message that the list may preview: not a reaction, not deleted. */
export async function newestShownMessage(db: Executor, companyId: number, ticketId: number) {
  const [row] = await db
    .select({ id: messages.id, body: messages.body, mediaName: messages.mediaName })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        eq(messages.isDeleted, false),
        ne(messages.mediaType, "reactionMessage"),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row ?? null;
}

/** The ticket list's preview of the ticket's last message; `touch` also moves the ticket up the lists. */
export async function setTicketPreview(
  db: Executor,
  companyId: number,
  ticketId: number,
  preview: string,
  touch = false,
) {
  await db
    .update(tickets)
    .set(
      touch
        ? { lastMessage: preview.slice(0, 255), updatedAt: sql`now()` }
        : { lastMessage: preview.slice(0, 255) },
    )
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
}

/**
 * One page of a conversation, newest first (ids only), whether older messages follow, and `count`:
 * on page 1 the number of messages in the conversation (of the readable tickets); on a later page the
 * number from the newest through this page, which is that total on the last page (hasMore false). A
 * page past the end counts them all. The conversation is counted only on page 1, in the page's own
 * statement: a later page no client reads the total of (the web app keeps page 1's, the Whaticket
 * front ends read hasMore) does not walk the whole conversation for it.
 */
export async function pageConversation(
  db: Executor,
  companyId: number,
  where: {
    contactId: number;
    whatsappId: number | null;
    ticketId: number;
    /** Only these tickets' messages; every ticket's when null. */
    readable: number[] | null;
  },
  pageNumber: number,
): Promise<{ ids: number[]; hasMore: boolean; count: number }> {
  // Served by messages_conversation_idx alone (index-only, walked backwards, stopping after the
  // page): it ends with ticket_id, so the readable tickets are checked in the index too.
  const conversation = and(
    eq(messages.companyId, companyId),
    eq(messages.contactId, where.contactId),
    where.whatsappId ? eq(messages.whatsappId, where.whatsappId) : eq(messages.ticketId, where.ticketId),
    // Written as a literal so the planner matches the partial index messages_conversation_idx.
    sql`${messages.mediaType} <> 'reactionMessage'`,
    where.readable ? inArray(messages.ticketId, where.readable) : undefined,
  );
  const offset = (pageNumber - 1) * MESSAGE_PAGE_SIZE;
  // One more than the page says whether older messages follow, without counting them.
  const page = db
    .select({ id: messages.id })
    .from(messages)
    .where(conversation)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MESSAGE_PAGE_SIZE + 1)
    .offset(offset);
  // Page 1 is counted in the same statement (one round trip): a conversation that fits in one page
  // costs its count next to nothing, a longer one is counted in the index.
  const [row] = await queryRows<{ ids: number[]; total: number | null }>(
    db,
    pageNumber === 1
      ? sql`select array_to_json(array(${page})) as ids,
              (select count(*)::int from ${messages} where ${conversation}) as total`
      : sql`select array_to_json(array(${page})) as ids, null::int as total`,
  );
  const found = row?.ids ?? [];
  const hasMore = found.length > MESSAGE_PAGE_SIZE;
  const ids = found.slice(0, MESSAGE_PAGE_SIZE);
  if (row?.total !== null && row?.total !== undefined) return { ids, hasMore, count: row.total };
  // A later page: the messages through this page (all there are when it is the last, hasMore
  // false); past the end (offset + 0 would be more than there are), all of them, counted.
  if (ids.length > 0) return { ids, hasMore, count: offset + ids.length };
  const [total] = await db.select({ n: count() }).from(messages).where(conversation);
  return { ids, hasMore, count: total?.n ?? 0 };
}

/** The id of message `id` when it is one of the contact's (what a reply may quote). */
export async function quotableMessageId(
  db: Executor,
  companyId: number,
  id: number,
  contactId: number,
): Promise<number | null> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, id), eq(messages.contactId, contactId)));
  return row?.id ?? null;
}

export async function updateMessage(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<typeof messages.$inferInsert>,
) {
  await db
    .update(messages)
    .set(values)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, id)));
}

/** Stores the company's reaction to a message (an empty emoji removes the previous one). */
export async function insertReaction(
  db: Executor,
  companyId: number,
  target: Pick<MessageRow, "id" | "ticketId" | "contactId" | "whatsappId">,
  emoji: string,
  userId: number,
) {
  await db.insert(messages).values({
    companyId,
    ticketId: target.ticketId,
    contactId: target.contactId,
    whatsappId: target.whatsappId,
    body: emoji,
    fromMe: true,
    read: true,
    ack: 1,
    mediaType: "reactionMessage",
    quotedMsgId: target.id,
    userId,
  });
}

/** The contact's live (not closed) ticket on a connection. */
export async function liveTicketRow(db: Executor, companyId: number, contactId: number, whatsappId: number) {
  const [row] = await db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        ne(tickets.status, "closed"),
      ),
    );
  return row ?? null;
}

/** Stores an outgoing message (ack 0 until the channel takes it). */
export async function insertOutboundMessage(
  db: Executor,
  companyId: number,
  values: Omit<typeof messages.$inferInsert, "companyId">,
): Promise<number> {
  const [row] = await db
    .insert(messages)
    .values({ ...values, companyId })
    .returning({ id: messages.id });
  return row!.id;
}

/** Clears the error of a failed outgoing message (one not sent yet); null when there is none. */
export async function clearSendError(
  db: Executor,
  companyId: number,
  id: number,
): Promise<MessageRow | null> {
  const [row] = await db
    .update(messages)
    .set({ sendError: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.id, id),
        eq(messages.fromMe, true),
        eq(messages.ack, 0),
      ),
    )
    .returning();
  return row ?? null;
}

/** The channel took the message: its id there, and at least ack 1. */
export async function markSent(db: Executor, companyId: number, id: number, wid: string, at: Date) {
  await db
    .update(messages)
    .set({ wid, ack: sql`greatest(${messages.ack}, 1)`, sendError: null, updatedAt: at })
    .where(and(eq(messages.companyId, companyId), eq(messages.id, id)));
}
