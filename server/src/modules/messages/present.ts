import type { MediaType, MessageDTO, QuotedMessageDTO } from "@atende/contracts";
import type { messages } from "../../db/schema/index.js";

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
    mediaStatus: m.mediaStatus ?? null,
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
