import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { type TicketDTO, ticketListQuerySchema, ticketSchema } from "./tickets.js";
import { dbId, idValue, noNul } from "./validation.js";

/** A tag as every answer and the `company-{id}-tag` event carry it. */
export const tagSchema = z
  .object({
    id: rowId,
    name: z.string(),
    color: z.string(),
    /** 1 when the tag is a kanban lane, else 0. */
    kanban: z.union([z.literal(0), z.literal(1)]),
    /** The user who created the tag (back-office section 3); null when unknown or since deleted. */
    userId: rowId.nullable(),
    /** How many tickets carry the tag. */
    ticketsCount: z.number().int().nonnegative(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Tag", description: "A tag, as every answer and the company-{id}-tag event carry it" });
export type TagDTO = z.infer<typeof tagSchema>;

export const tagsPageSchema = pageOf("tags", tagSchema).meta({ id: "TagsPage" });
export type TagsPage = z.infer<typeof tagsPageSchema>;

export const TAG_NAME = { min: 3, max: 100 } as const;
export const DEFAULT_TAG_COLOR = "#5C59A0";

/** Tag name: 'Obrigatório' when empty, 'Mensagem muito curta' under 3 characters (back-office section 5). */
export const tagNameField = z
  .string({ error: "validation.obrigatorio" })
  .trim()
  .min(1, { error: "validation.obrigatorio", abort: true })
  .min(TAG_NAME.min, "validation.messageTooShort")
  .max(TAG_NAME.max, "validation.tooLong")
  .refine(noNul, "validation.invalid");

/** A CSS hex colour: #rgb, #rrggbb or #rrggbbaa. */
export const tagColorField = z
  .string("validation.invalid")
  .trim()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i, "validation.invalid");

/** The kanban flag arrives as 0/1 (as clients of this API family send it) or as a boolean. */
const kanbanField = z
  .union([z.literal(0), z.literal(1), z.boolean()], "validation.invalid")
  .transform((v): 0 | 1 => (v === true || v === 1 ? 1 : 0));

export const tagCreateSchema = z.object({
  name: tagNameField,
  color: tagColorField.optional(),
  kanban: kanbanField.optional(),
});
export type TagCreateInput = z.infer<typeof tagCreateSchema>;

export const tagUpdateSchema = z.object({
  name: tagNameField.optional(),
  color: tagColorField.optional(),
  kanban: kanbanField.optional(),
});
export type TagUpdateInput = z.infer<typeof tagUpdateSchema>;

/** A tag in a sync list: its id, or the tag itself (the chat's tag editor sends whole tags). */
const tagRef = z.union([dbId, z.looseObject({ id: idValue })], "validation.invalid");

/** POST /tags/sync: the ticket ends with exactly these tags. */
export const tagSyncSchema = z.object({
  ticketId: idValue,
  tags: z
    .array(tagRef)
    .max(100, "validation.tooLong")
    .transform((list) => [...new Set(list.map((t) => (typeof t === "number" ? t : t.id)))]),
});
export type TagSyncInput = z.infer<typeof tagSyncSchema>;

export const ticketTagParams = z.object({
  ticketId: idValue,
  tagId: idValue,
});
export const ticketIdParam = ticketTagParams.pick({ ticketId: true });

/**
 * GET /ticket/kanban: the ticket list's visibility (queues, own tickets, unqueued ones with
 * allTicket, showAll), waiting and in-service tickets only, a page at a time.
 */
export const kanbanQuerySchema = ticketListQuerySchema.pick({
  queueIds: true,
  showAll: true,
  pageNumber: true,
});
export type KanbanQuery = z.infer<typeof kanbanQuerySchema>;

/** GET /ticket/kanban: a page of the board's tickets (the lanes are the tickets' kanban tags). */
export const kanbanPageSchema = pageOf("tickets", ticketSchema).meta({ id: "KanbanPage" });
export type KanbanPage = z.infer<typeof kanbanPageSchema>;

/** The board's lanes: 'Em aberto' (no kanban tag) and one per kanban tag; a ticket sits in one lane. */
export function kanbanLaneOf(ticket: Pick<TicketDTO, "tags">, laneIds: ReadonlySet<number>): number | null {
  const inLanes = ticket.tags.filter((t) => laneIds.has(t.id)).map((t) => t.id);
  return inLanes.length ? Math.min(...inLanes) : null;
}
