import type { QueueDTO } from "./entities.js";

/** Message ack: 0 pending; 1-2 sent; 3 delivered; 4-5 read. */
export const ACK = { pending: 0, sent: 1, serverAck: 2, delivered: 3, read: 4, played: 5 } as const;

export const MEDIA_TYPES = [
  "chat",
  "image",
  "audio",
  "video",
  "application",
  "sticker",
  "locationMessage",
  "contactMessage",
  "vcard",
  "reactionMessage",
  "call_log",
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export interface ContactDTO {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  extraInfo: { id: number; name: string; value: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface TicketDTO {
  id: number;
  uuid: string;
  status: "pending" | "open" | "closed";
  contactId: number;
  contact: Pick<ContactDTO, "id" | "name" | "number" | "profilePicUrl" | "isGroup">;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: QueueDTO | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  chatbot: boolean;
  tags: { id: number; name: string; color: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface QuotedMessageDTO {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: MediaType;
  isDeleted: boolean;
}

export interface MessageDTO {
  id: number;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: MediaType;
  /** Where the web app fetches the media (authenticated), or null. */
  mediaUrl: string | null;
  mediaName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  isForwarded: boolean;
  isBot: boolean;
  quotedMsg: QuotedMessageDTO | null;
  /** Reactions to this message: who (fromMe) and which emoji. */
  reactions: { emoji: string; fromMe: boolean }[];
  userId: number | null;
  queueId: number | null;
  /** Why the last send failed; the message offers a retry. */
  sendError: string | null;
  createdAt: string;
  updatedAt: string;
}
