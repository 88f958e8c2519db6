import { and, asc, count, desc, eq, ilike, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { ChatDTO, ChatMessageDTO, ChatRef } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { chatMessages, chatUsers, chats, tickets, users } from "../../db/schema/index.js";
import { type ChatMessageRow, type ChatRow, presentChat, presentChatMessage } from "./present.js";

/** Every helper takes the caller's companyId first: a chat of another company is simply not found. */

export async function findChatRow(db: Executor, companyId: number, ref: ChatRef): Promise<ChatRow | null> {
  const [row] = await db
    .select()
    .from(chats)
    .where(
      and(eq(chats.companyId, companyId), typeof ref === "number" ? eq(chats.id, ref) : eq(chats.uuid, ref)),
    );
  return row ?? null;
}

/** The ids of a chat's members. */
export async function memberIds(db: Executor, companyId: number, chatId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: chatUsers.userId })
    .from(chatUsers)
    .where(and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId)));
  return rows.map((r) => r.userId);
}

/** Chats with their owners' names and their members, in the order of `ids`. */
export async function loadChats(db: Executor, companyId: number, ids: number[]): Promise<ChatDTO[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ chat: chats, ownerName: users.name })
    .from(chats)
    .leftJoin(users, eq(users.id, chats.ownerId))
    .where(and(eq(chats.companyId, companyId), inArray(chats.id, ids)));
  const members = await db
    .select({
      chatId: chatUsers.chatId,
      userId: chatUsers.userId,
      unreads: chatUsers.unreads,
      name: users.name,
      email: users.email,
      profile: users.profile,
    })
    .from(chatUsers)
    .innerJoin(users, eq(users.id, chatUsers.userId))
    .where(and(eq(chatUsers.companyId, companyId), inArray(chatUsers.chatId, ids)))
    .orderBy(asc(users.name), asc(users.id));
  const byId = new Map(
    rows.map((r) => [
      r.chat.id,
      presentChat(
        r.chat,
        r.ownerName,
        members.filter((m) => m.chatId === r.chat.id),
      ),
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadChat(db: Executor, companyId: number, id: number): Promise<ChatDTO | null> {
  return (await loadChats(db, companyId, [id]))[0] ?? null;
}

/** The chats a user belongs to, the most recently active first, a page at a time. */
export async function pageChatIds(
  db: Executor,
  companyId: number,
  userId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ ids: number[]; count: number; hasMore: boolean }> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = and(
    eq(chats.companyId, companyId),
    eq(chatUsers.userId, userId),
    opts.searchParam ? ilike(chats.title, term) : undefined,
  );
  const [total] = await db
    .select({ n: count() })
    .from(chats)
    .innerJoin(chatUsers, eq(chatUsers.chatId, chats.id))
    .where(where);
  const rows = await db
    .select({ id: chats.id })
    .from(chats)
    .innerJoin(chatUsers, eq(chatUsers.chatId, chats.id))
    .where(where)
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return { ids: rows.map((r) => r.id), count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

/** The ones among `ids` that are users of the company. */
export async function companyUserIds(db: Executor, companyId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, ids)));
  return rows.map((r) => r.id);
}

export async function insertChat(
  tx: Executor,
  companyId: number,
  values: Omit<typeof chats.$inferInsert, "companyId">,
): Promise<ChatRow> {
  const [row] = await tx
    .insert(chats)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

/** The direct chat a mention opened between two colleagues, if any. */
export async function findDirectChat(
  db: Executor,
  companyId: number,
  directKey: string,
): Promise<ChatRow | null> {
  const [row] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.companyId, companyId), eq(chats.directKey, directKey)));
  return row ?? null;
}

export async function updateChat(
  tx: Executor,
  companyId: number,
  id: number,
  patch: Partial<Pick<typeof chats.$inferInsert, "title" | "lastMessage" | "updatedAt">>,
): Promise<void> {
  await tx
    .update(chats)
    .set(patch)
    .where(and(eq(chats.companyId, companyId), eq(chats.id, id)));
}

/** Its members and messages go with it (on delete cascade). */
export async function deleteChat(tx: Executor, companyId: number, id: number): Promise<void> {
  await tx.delete(chats).where(and(eq(chats.companyId, companyId), eq(chats.id, id)));
}

/** Makes exactly `userIds` the chat's members: the others leave, the new ones join with nothing unread. */
export async function setMembers(
  tx: Executor,
  companyId: number,
  chatId: number,
  userIds: number[],
  at: Date,
): Promise<void> {
  await tx
    .delete(chatUsers)
    .where(
      and(
        eq(chatUsers.companyId, companyId),
        eq(chatUsers.chatId, chatId),
        userIds.length ? notInArray(chatUsers.userId, userIds) : undefined,
      ),
    );
  if (userIds.length === 0) return;
  await tx
    .insert(chatUsers)
    .values(userIds.map((userId) => ({ companyId, chatId, userId, createdAt: at, updatedAt: at })))
    .onConflictDoNothing();
}

/** A new message: one more unread for every member but its sender, whose count goes to zero. */
export async function countNewMessage(
  tx: Executor,
  companyId: number,
  chatId: number,
  senderId: number,
  at: Date,
) {
  await tx
    .update(chatUsers)
    .set({ unreads: sql`${chatUsers.unreads} + 1`, updatedAt: at })
    .where(
      and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId), ne(chatUsers.userId, senderId)),
    );
  await markRead(tx, companyId, chatId, senderId, at);
}

/** Whether the member had something unread (now read). */
export async function markRead(
  tx: Executor,
  companyId: number,
  chatId: number,
  userId: number,
  at: Date,
): Promise<boolean> {
  const changed = await tx
    .update(chatUsers)
    .set({ unreads: 0, updatedAt: at })
    .where(
      and(
        eq(chatUsers.companyId, companyId),
        eq(chatUsers.chatId, chatId),
        eq(chatUsers.userId, userId),
        ne(chatUsers.unreads, 0),
      ),
    )
    .returning({ id: chatUsers.id });
  return changed.length > 0;
}

export async function insertMessage(
  tx: Executor,
  companyId: number,
  values: Omit<typeof chatMessages.$inferInsert, "companyId">,
): Promise<number> {
  const [row] = await tx
    .insert(chatMessages)
    .values({ ...values, companyId })
    .returning({ id: chatMessages.id });
  return row!.id;
}

const messageColumns = {
  message: chatMessages,
  senderName: users.name,
  ticketUuid: tickets.uuid,
};

function presentRows(
  rows: { message: ChatMessageRow; senderName: string | null; ticketUuid: string | null }[],
) {
  return rows.map((r) => presentChatMessage(r.message, r.senderName, r.ticketUuid));
}

export async function loadMessages(
  db: Executor,
  companyId: number,
  ids: number[],
): Promise<ChatMessageDTO[]> {
  if (ids.length === 0) return [];
  return presentRows(
    await db
      .select(messageColumns)
      .from(chatMessages)
      .leftJoin(users, eq(users.id, chatMessages.senderId))
      .leftJoin(tickets, eq(tickets.id, chatMessages.ticketId))
      .where(and(eq(chatMessages.companyId, companyId), inArray(chatMessages.id, ids)))
      .orderBy(asc(chatMessages.id)),
  );
}

/** A chat's messages, a page at a time from the newest; each page oldest first, as the panel shows it. */
export async function pageMessages(
  db: Executor,
  companyId: number,
  chatId: number,
  opts: { pageNumber: number; pageSize: number },
): Promise<{ records: ChatMessageDTO[]; count: number; hasMore: boolean }> {
  const where = and(eq(chatMessages.companyId, companyId), eq(chatMessages.chatId, chatId));
  const [total] = await db.select({ n: count() }).from(chatMessages).where(where);
  const rows = await db
    .select(messageColumns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .leftJoin(tickets, eq(tickets.id, chatMessages.ticketId))
    .where(where)
    .orderBy(desc(chatMessages.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return {
    records: presentRows(rows.reverse()),
    count: n,
    hasMore: opts.pageNumber * opts.pageSize < n,
  };
}

/** Whether a chat message of one of `chatIds` carries the file (the media route asks). */
export async function chatsCarrying(db: Executor, companyId: number, filePath: string): Promise<number[]> {
  const rows = await db
    .selectDistinct({ chatId: chatMessages.chatId })
    .from(chatMessages)
    .where(and(eq(chatMessages.companyId, companyId), eq(chatMessages.mediaPath, filePath)));
  return rows.map((r) => r.chatId);
}

/** Whether the user belongs to any of the chats. */
export async function memberOfAny(db: Executor, companyId: number, userId: number, chatIds: number[]) {
  if (chatIds.length === 0) return false;
  const [row] = await db
    .select({ id: chatUsers.id })
    .from(chatUsers)
    .where(
      and(
        eq(chatUsers.companyId, companyId),
        eq(chatUsers.userId, userId),
        inArray(chatUsers.chatId, chatIds),
      ),
    )
    .limit(1);
  return !!row;
}

/** Creates the direct chat of a pair unless another request just did; answers the pair's chat either way. */
export async function findOrInsertDirectChat(
  tx: Executor,
  companyId: number,
  values: Omit<typeof chats.$inferInsert, "companyId"> & { directKey: string },
): Promise<{ chat: ChatRow; created: boolean }> {
  const existing = await findDirectChat(tx, companyId, values.directKey);
  if (existing) return { chat: existing, created: false };
  const [row] = await tx
    .insert(chats)
    .values({ ...values, companyId })
    .onConflictDoNothing()
    .returning();
  if (row) return { chat: row, created: true };
  return { chat: (await findDirectChat(tx, companyId, values.directKey))!, created: false };
}
