import { z } from "zod";
import type { TicketDTO } from "./tickets.js";
import { dbId, idOf } from "./validation.js";

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

export interface QuotedMessageDTO {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: MediaType;
  isDeleted: boolean;
}

export type MediaStatus = "pending" | "failed" | "tooLarge";

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
  /**
   * An inbound file not stored (yet): "pending" while it downloads (a message.saved update follows),
   * "failed" when every try failed, "tooLarge" when it was over the size limit; null otherwise.
   */
  mediaStatus: MediaStatus | null;
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

export const MESSAGE_PAGE_SIZE = 20;

export interface MessagesPage {
  messages: MessageDTO[];
  ticket: TicketDTO;
  /**
   * Page 1: the conversation's messages the caller may read. A later page: those from the newest
   * through this page (all of them on the last page, where hasMore is false).
   */
  count: number;
  /** Older messages follow (the next pageNumber has some). */
  hasMore: boolean;
}

export const messageSendSchema = z.object({
  body: z.string().max(65_536, "validation.tooLong").default(""),
  /** The message replied to: its id (or the message itself, as some clients send it). */
  quotedMsg: z
    .union(
      [
        z
          .object({
            id: idOf(Number.MAX_SAFE_INTEGER),
          })
          .passthrough(),
        z.null(),
      ],
      "validation.invalid",
    )
    .optional(),
  /** Prefix the agent's name ('*Name:*' line). */
  signMessage: z.preprocess(
    (v) => (v === undefined ? undefined : v === true || v === "true"),
    z.boolean().optional(),
  ),
  read: z.unknown().optional(),
  fromMe: z.unknown().optional(),
  mediaUrl: z.unknown().optional(),
});
export type MessageSendInput = z.infer<typeof messageSendSchema>;

export const messageEditSchema = z.object({
  body: z.string().trim().min(1, "validation.required").max(65_536, "validation.tooLong"),
});
export const reactionSchema = z.object({
  type: z.string("validation.required").max(16, "validation.tooLong"),
});
export const forwardSchema = z.object({
  messageId: idOf(Number.MAX_SAFE_INTEGER),
  contactId: dbId,
  signMessage: z.boolean().optional().default(false),
});
