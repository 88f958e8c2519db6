import type { ChatDTO, ChatMessageDTO } from "@atende/contracts";
import type { chatMessages, chats } from "../../db/schema/index.js";

export type ChatRow = typeof chats.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;

interface MemberRow {
  userId: number;
  unreads: number;
  name: string;
  email: string;
  profile: string;
}

/** The one shape of a chat, for HTTP answers and the `company-{id}-chat` event alike. */
export function presentChat(row: ChatRow, ownerName: string | null, members: MemberRow[]): ChatDTO {
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    ownerId: row.ownerId,
    owner: row.ownerId !== null && ownerName !== null ? { id: row.ownerId, name: ownerName } : null,
    lastMessage: row.lastMessage,
    users: members.map((m) => ({
      userId: m.userId,
      unreads: m.unreads,
      user: { id: m.userId, name: m.name, email: m.email, profile: m.profile },
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentChatMessage(
  row: ChatMessageRow,
  senderName: string | null,
  ticketUuid: string | null,
): ChatMessageDTO {
  return {
    id: row.id,
    chatId: row.chatId,
    message: row.message,
    senderId: row.senderId,
    sender: row.senderId !== null && senderName !== null ? { id: row.senderId, name: senderName } : null,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    mediaType: row.mediaType,
    ticket: row.ticketId !== null && ticketUuid !== null ? { id: row.ticketId, uuid: ticketUuid } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The list's preview of a message: "Sender: text", or the attachment's name when there is no text. */
export function previewOf(senderName: string, message: string, mediaName: string | null): string {
  const text = message.trim() || (mediaName ? `📎 ${mediaName}` : "");
  return `${senderName}: ${text}`.slice(0, 255);
}
