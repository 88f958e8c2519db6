import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { MediaType, MessageDTO, QuotedMessageDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { messages } from "../../db/schema/index.js";

export type MessageRow = typeof messages.$inferSelect;

/** The authenticated URL the web app fetches a message's media from. */
export function mediaUrlOf(m: Pick<MessageRow, "mediaPath">): string | null {
  return m.mediaPath ? `/media/${m.mediaPath}` : null;
}

function presentQuoted(q: MessageRow): QuotedMessageDTO {
  return {
    id: q.id,
    body: q.isDeleted ? "" : q.body,
    fromMe: q.fromMe,
    mediaType: q.mediaType as MediaType,
    isDeleted: q.isDeleted,
  };
}

export function presentMessage(
  m: MessageRow,
  quoted: MessageRow | null,
  reactions: MessageDTO["reactions"],
): MessageDTO {
  return {
    id: m.id,
    ticketId: m.ticketId,
    contactId: m.contactId,
    body: m.body,
    fromMe: m.fromMe,
    read: m.read,
    ack: m.ack,
    mediaType: m.mediaType as MediaType,
    mediaUrl: mediaUrlOf(m),
    mediaName: m.mediaName,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited,
    isForwarded: m.isForwarded,
    isBot: m.isBot,
    quotedMsg: quoted ? presentQuoted(quoted) : null,
    reactions,
    userId: m.userId,
    queueId: m.queueId,
    sendError: m.sendError,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

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
