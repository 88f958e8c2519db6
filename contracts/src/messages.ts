import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { ticketSchema } from "./tickets.js";
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
  /**
   * A message WhatsApp delivered that this device could not read (not decrypted, view-once on a
   * linked device, no content): a placeholder the app shows in the agent's language ("see it on the
   * phone"), its body the Portuguese text. Replaced in place when WhatsApp's retry brings the content.
   */
  "unreadable",
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

const mediaTypeSchema = z.enum(MEDIA_TYPES);

/** The message a message replies to, as the reply's bubble quotes it. */
export const quotedMessageSchema = z
  .object({
    id: rowId,
    /** "" once the quoted message was deleted. */
    body: z.string(),
    fromMe: z.boolean(),
    mediaType: mediaTypeSchema,
    isDeleted: z.boolean(),
  })
  .meta({ id: "QuotedMessage", description: "The message a message replies to, as its bubble quotes it" });
export type QuotedMessageDTO = z.infer<typeof quotedMessageSchema>;

export const MEDIA_STATUSES = ["pending", "failed", "tooLarge"] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** A message as every answer and the `company-{id}-appMessage` event carry it. */
export const messageSchema = z
  .object({
    id: rowId,
    ticketId: rowId,
    /** The contact of the conversation the message belongs to; null when none is recorded. */
    contactId: rowId.nullable(),
    body: z.string(),
    fromMe: z.boolean(),
    read: z.boolean(),
    /** 0 pending; 1-2 sent; 3 delivered; 4 read; 5 played (see ACK). */
    ack: z.number().int().min(ACK.pending).max(ACK.played),
    mediaType: mediaTypeSchema,
    /** Where the web app fetches the media (authenticated), or null. */
    mediaUrl: z.string().nullable(),
    mediaName: z.string().nullable(),
    /**
     * An inbound file not stored (yet): "pending" while it downloads (a message.saved update follows),
     * "failed" when every try failed, "tooLarge" when it was over the size limit; null otherwise.
     */
    mediaStatus: z.enum(MEDIA_STATUSES).nullable(),
    isDeleted: z.boolean(),
    isEdited: z.boolean(),
    isForwarded: z.boolean(),
    isBot: z.boolean(),
    quotedMsg: quotedMessageSchema.nullable(),
    /** Reactions to this message: who (fromMe) and which emoji. */
    reactions: z.array(z.object({ emoji: z.string(), fromMe: z.boolean() })),
    /** The agent who sent it, when an agent did. */
    userId: rowId.nullable(),
    queueId: rowId.nullable(),
    /** Why the last send failed; the message offers a retry. */
    sendError: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "Message",
    description: "A message, as every answer and the company-{id}-appMessage event carry it",
  });
export type MessageDTO = z.infer<typeof messageSchema>;

export const MESSAGE_PAGE_SIZE = 20;

/** GET /messages/{ticketId}: a page of the conversation, newest first, and its ticket. */
export const messagesPageSchema = z
  .object({
    messages: z.array(messageSchema),
    ticket: ticketSchema,
    /**
     * Page 1: the conversation's messages the caller may read. A later page: those from the newest
     * through this page (all of them on the last page, where hasMore is false).
     */
    count: z.number().int().nonnegative(),
    /** Older messages follow (the next pageNumber has some). */
    hasMore: z.boolean(),
  })
  .meta({
    id: "MessagesPage",
    description: "A page of a ticket's conversation, newest first, and the ticket",
  });
export type MessagesPage = z.infer<typeof messagesPageSchema>;

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
