import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { searchText, pageNumber, idValue, idOf, uuidValue, noNul, dbId } from "./validation.js";

/** A member of an internal chat, with what they have not read yet. */
export const chatUserSchema = z
  .object({
    userId: rowId,
    unreads: z.number().int().nonnegative(),
    user: z.object({ id: rowId, name: z.string(), email: z.string(), profile: z.string() }),
  })
  .meta({
    id: "ChatUser",
    description: "A member of an internal chat, with how many messages they have not read",
  });
export type ChatUserDTO = z.infer<typeof chatUserSchema>;

/** An internal chat as every answer and the `company-{id}-chat` event carry it. */
export const chatSchema = z
  .object({
    id: rowId,
    uuid: z.string(),
    title: z.string(),
    ownerId: rowId.nullable(),
    owner: z.object({ id: rowId, name: z.string() }).nullable(),
    /** "Sender: text" of the newest message, empty when there is none. */
    lastMessage: z.string(),
    users: z.array(chatUserSchema),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Chat", description: "An internal chat between colleagues, with its members" });
export type ChatDTO = z.infer<typeof chatSchema>;

/** A message of an internal chat (what is sent is chatMessageSendSchema). */
export const chatMessageSchema = z
  .object({
    id: rowId,
    chatId: rowId,
    message: z.string(),
    senderId: rowId.nullable(),
    sender: z.object({ id: rowId, name: z.string() }).nullable(),
    /** An attachment ("{companyId}/{file}", read through /media/...), its name and type. */
    mediaPath: z.string().nullable(),
    mediaName: z.string().nullable(),
    mediaType: z.string().nullable(),
    /** The ticket the message links to (opened at /tickets/{uuid}). */
    ticket: z.object({ id: rowId, uuid: z.string() }).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "ChatMessage", description: "A message of an internal chat" });
export type ChatMessageDTO = z.infer<typeof chatMessageSchema>;

/** A message as the live events carry it: with its chat (members and unreads), as the family reads it. */
export type ChatMessageEventDTO = ChatMessageDTO & { chat: ChatDTO };

/**
 * `company-{id}-chat-user-{userId}`: a chat of that member made (or joined) and changed (title,
 * members), with the chat in `record`: the Whaticket SaaS chat page's list listens there.
 */
export interface ChatUserEventPayload {
  action: "create" | "update";
  record: ChatDTO;
}

/**
 * `company-{id}-chat-{chatId}`: the open chat's page hears its new messages and its read marks
 * (every member's unreads in `chat`). Heard by the chat's members only.
 */
export type ChatRoomEventPayload =
  | { action: "new-message"; newMessage: ChatMessageEventDTO; chat: ChatDTO }
  | { action: "update"; chat: ChatDTO };

/** The chat's per-member and per-chat events (merged into ServerToClientEvents). */
export interface ChatServerEvents {
  [name: `company-${number}-chat-user-${number}`]: (payload: ChatUserEventPayload) => void;
  [name: `company-${number}-chat-${number}`]: (payload: ChatRoomEventPayload) => void;
}

export const chatUserEvent = (companyId: number, userId: number) =>
  `company-${companyId}-chat-user-${userId}` as const;
export const chatRoomEvent = (companyId: number, chatId: number) =>
  `company-${companyId}-chat-${chatId}` as const;

/** GET /chats/ and GET /chats/{id}/messages answer `records`, as the backends of this API family. */
export const chatsPageSchema = pageOf("records", chatSchema).meta({
  id: "ChatsPage",
  description: "A page of the caller's internal chats",
});
export type ChatsPage = z.infer<typeof chatsPageSchema>;
export const chatMessagesPageSchema = pageOf("records", chatMessageSchema).meta({
  id: "ChatMessagesPage",
  description: "A page of an internal chat's messages",
});
export type ChatMessagesPage = z.infer<typeof chatMessagesPageSchema>;

export const CHAT_LIMITS = {
  pageSize: 20,
  messagesPageSize: 20,
  titleMax: 100,
  messageMax: 5000,
  membersMax: 200,
  /** The page loads older messages when scrolled within this many pixels of the top (spec §9). */
  loadOlderWithinPx: 600,
} as const;

export const chatsQuerySchema = z.object({ searchParam: searchText(100), pageNumber });
export type ChatsQuery = z.infer<typeof chatsQuerySchema>;

export const chatMessagesQuerySchema = z.object({ pageNumber });

/** A chat named in a path by its id or its uuid (the web opens /chats/{uuid}). */
export const chatParam = z.object({ id: z.union([idValue, uuidValue], "validation.invalid") });
export type ChatRef = z.infer<typeof chatParam>["id"];

/** A member in a list: their id, or the user itself (clients of this API family send whole users). */
const memberRef = z.union([dbId, idValue, z.looseObject({ id: idValue })], "validation.invalid");
const membersField = z
  .array(memberRef, "validation.invalid")
  .max(CHAT_LIMITS.membersMax, "validation.tooLong")
  .transform((list) => [...new Set(list.map((u) => (typeof u === "number" ? u : u.id)))]);

const titleField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .max(CHAT_LIMITS.titleMax, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** POST /chats: the creator is its owner and a member; `users` are the others. */
export const chatCreateSchema = z.object({ title: titleField, users: membersField });
export type ChatCreateInput = z.infer<typeof chatCreateSchema>;

/** PUT /chats/{id} (owner only): a new title, and the members (the owner always stays). */
export const chatUpdateSchema = z.object({
  title: titleField.optional(),
  users: membersField.optional(),
});
export type ChatUpdateInput = z.infer<typeof chatUpdateSchema>;

/** POST /chats/{id}/messages: text, and optionally a ticket to link (its uuid). */
export const chatMessageSendSchema = z.object({
  message: z
    .string("validation.invalid")
    .max(CHAT_LIMITS.messageMax, "validation.tooLong")
    .refine(noNul, "validation.invalid")
    .optional()
    .default(""),
  ticketUuid: z.preprocess((v) => (v === "" || v === null ? undefined : v), uuidValue.optional()),
});
export type ChatMessageInput = z.infer<typeof chatMessageSendSchema>;

/** POST /chats/{id}/read: clients send their own userId; the caller is who reads, whatever is sent. */
export const chatReadSchema = z.object({ userId: idOf().optional() }).optional();

/** A chat's unread count for one member (0 when not a member). */
export function unreadsOf(chat: Pick<ChatDTO, "users">, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
}

/** Only the owner edits or deletes a chat (back-office §6). */
export function mayManageChat(chat: Pick<ChatDTO, "ownerId">, userId: number): boolean {
  return chat.ownerId !== null && chat.ownerId === userId;
}

/**
 * The colleagues a ticket note mentions: `@name` where name is a user's full name, or its first word
 * when no other colleague shares that first word; compared case-insensitively, ending at a word end.
 */
export function mentionedUsers<U extends { id: number; name: string }>(text: string, users: U[]): U[] {
  const lower = text.toLocaleLowerCase();
  const firstOf = (u: U) => (u.name.trim().split(/\s+/)[0] ?? "").toLocaleLowerCase();
  const firstCount = new Map<string, number>();
  for (const u of users) firstCount.set(firstOf(u), (firstCount.get(firstOf(u)) ?? 0) + 1);
  const endsWord = (at: number) => at >= lower.length || !/[\p{L}\p{N}_]/u.test(lower[at]!);
  const mentions = (name: string) => {
    if (!name) return false;
    const needle = `@${name}`;
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1))
      if (endsWord(at + needle.length)) return true;
    return false;
  };
  return users.filter(
    (u) =>
      mentions(u.name.trim().toLocaleLowerCase()) ||
      (firstCount.get(firstOf(u)) === 1 && mentions(firstOf(u))),
  );
}
