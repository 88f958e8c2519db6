import { z } from "zod";
import type { MessageDTO, TicketDTO } from "./conversations.js";
import { dbId, idList, idOf, pageNumber, searchText } from "./validation.js";
import { type Actor } from "./permissions.js";

const flag = z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean());

export const TICKET_PAGE_SIZE = 40;
/**
 * A text search counts its tickets up to this many: `count` is exact up to it, and a search matching
 * more answers TICKET_SEARCH_COUNT_CAP + 1 ("more than 100"). Counting every ticket a common word is
 * in would mean reading all its messages (bench/tickets).
 */
export const TICKET_SEARCH_COUNT_CAP = 100;
export const MESSAGE_PAGE_SIZE = 20;

export const ticketListQuerySchema = z.object({
  searchParam: searchText(200),
  pageNumber,
  status: z.enum(["pending", "open", "closed"], "validation.invalid").optional(),
  tags: idList.optional().default([]),
  users: idList.optional().default([]),
  queueIds: idList.optional().default([]),
  showAll: flag.optional().default(false),
  withUnreadMessages: flag.optional().default(false),
  /** A calendar day (YYYY-MM-DD): tickets created that day. */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalid")
    .optional(),
  /** A calendar day (YYYY-MM-DD): tickets updated that day. */
  updatedAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalid")
    .optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

export interface TicketsPage {
  tickets: TicketDTO[];
  count: number;
  hasMore: boolean;
}

export const ticketCreateSchema = z.object({
  contactId: dbId,
  queueId: dbId.nullable().optional(),
  whatsappId: dbId.nullable().optional(),
  userId: dbId.nullable().optional(),
  status: z.enum(["open", "pending"]).optional().default("open"),
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

/** An id, null or, as the ticket header of clients of this API family sends "none", false (read as null). */
const noneAsFalse = <T extends z.ZodType>(id: T) =>
  z.preprocess((v) => (v === false ? null : v), id.nullable().optional());

/**
 * PUT /tickets/{id}: the spec's actions are combinations of these fields —
 * accept {status:"open", userId:me}, resolve {status:"closed"}, return {status:"pending", userId:null},
 * reopen {status:"open"} on a closed ticket, transfer {queueId, userId?, whatsappId?}.
 */
export const ticketUpdateSchema = z.object({
  status: z.enum(["pending", "open", "closed"], "validation.invalid").optional(),
  userId: dbId.nullable().optional(),
  queueId: dbId.nullable().optional(),
  whatsappId: dbId.nullable().optional(),
  useIntegration: z.boolean().optional(),
  promptId: noneAsFalse(dbId),
  integrationId: noneAsFalse(dbId),
});
export type TicketUpdateInput = z.infer<typeof ticketUpdateSchema>;

export const closeAllSchema = z.object({
  status: z.enum(["pending", "open"], "validation.invalid"),
  selectedQueueIds: idList,
});

export interface MessagesPage {
  messages: MessageDTO[];
  ticket: TicketDTO;
  count: number;
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

/** ERR_OTHER_OPEN_TICKET carries who holds the contact's open ticket. */
export interface OtherOpenTicketError {
  error: "ERR_OTHER_OPEN_TICKET";
  message: string;
  ticketId: number;
  userName: string | null;
  queueName: string | null;
}

/**
 * A ticket an agent starts needs a queue unless the agent is an admin ('Selecione uma fila'):
 * the server refuses it, the new-ticket dialogs mark the field required.
 */
export function queueRequired(actor: Actor): boolean {
  return actor.profile !== "admin";
}
