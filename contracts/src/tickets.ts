import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { contactSchema } from "./contacts.js";
import { type Actor, can } from "./permissions.js";
import { queueSchema } from "./queues.js";
import { ticketSlaSchema } from "./serviceLevels.js";
import { dbId, idList, pageNumber, searchText } from "./validation.js";

const flag = z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean());

export const TICKET_PAGE_SIZE = 40;
/**
 * A text search counts its tickets up to this many: `count` is exact up to it, and a search matching
 * more answers TICKET_SEARCH_COUNT_CAP + 1 ("more than 100"). Counting every ticket a common word is
 * in would mean reading all its messages (bench/tickets).
 */
export const TICKET_SEARCH_COUNT_CAP = 100;

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
  /** "slaDue": closest to breach first (running clocks first, by due time), then the usual order. */
  orderBy: z.enum(["updatedAt", "slaDue"], "validation.invalid").optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

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

/** ERR_OTHER_OPEN_TICKET carries who holds the contact's open ticket. */
export interface OtherOpenTicketError {
  error: "ERR_OTHER_OPEN_TICKET";
  message: string;
  ticketId: number;
  userName: string | null;
  queueName: string | null;
}

/** The ticket's contact, as the list shows it. */
export const ticketContactSchema = contactSchema
  .pick({ id: true, name: true, number: true, profilePicUrl: true, isGroup: true })
  .meta({ id: "TicketContact", description: "A ticket's contact, as the ticket list shows it" });

/** The agent a ticket is with. */
export const ticketUserSchema = z
  .object({ id: rowId, name: z.string() })
  .meta({ id: "TicketUser", description: "The agent a ticket is with" });

/** The connection (WhatsApp number) a ticket talks through. */
export const ticketWhatsappSchema = z
  .object({ id: rowId, name: z.string() })
  .meta({ id: "TicketWhatsapp", description: "The connection (WhatsApp number) a ticket talks through" });

/** A tag on a ticket, as the list's chips show it (the whole tag is the Tag schema). */
export const ticketTagSchema = z
  .object({ id: rowId, name: z.string(), color: z.string() })
  .meta({ id: "TicketTag", description: "A tag on a ticket, as the list's chips show it" });

/** A ticket as every answer and the `company-{id}-ticket` event carry it. */
export const ticketSchema = z
  .object({
    id: rowId,
    uuid: z.uuid(),
    status: z.enum(["pending", "open", "closed"]),
    contactId: rowId,
    contact: ticketContactSchema,
    /** The agent holding the ticket; null when none does. */
    userId: rowId.nullable(),
    user: ticketUserSchema.nullable(),
    queueId: rowId.nullable(),
    queue: queueSchema.nullable(),
    whatsappId: rowId.nullable(),
    whatsapp: ticketWhatsappSchema.nullable(),
    /** The text of the conversation's last message, as the list previews it. */
    lastMessage: z.string(),
    unreadMessages: z.number().int().nonnegative(),
    isGroup: z.boolean(),
    /** The chatbot (queue menu, integration or prompt) is talking with the contact. */
    chatbot: z.boolean(),
    tags: z.array(ticketTagSchema),
    /** Service-level clocks (issue 39); null when the ticket's queue has no target. */
    sla: ticketSlaSchema.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "Ticket",
    description: "A ticket, as every answer and the company-{id}-ticket event carry it",
  });
export type TicketDTO = z.infer<typeof ticketSchema>;

/**
 * GET /tickets. `count` is exact for a list; a text search counts up to TICKET_SEARCH_COUNT_CAP and
 * answers one more when it matches more.
 */
export const ticketsPageSchema = pageOf("tickets", ticketSchema).meta({ id: "TicketsPage" });
export type TicketsPage = z.infer<typeof ticketsPageSchema>;

/**
 * A ticket an agent starts needs a queue unless the agent has access to any ticket (an admin;
 * 'Selecione uma fila'): the server refuses it, the new-ticket dialogs mark the field required.
 */
export function queueRequired(actor: Actor): boolean {
  return !can(actor, "tickets:accessAny");
}
