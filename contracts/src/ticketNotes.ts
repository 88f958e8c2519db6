import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { idValue, noNul } from "./validation.js";
import { type Actor, can } from "./permissions.js";

/** A private note on a ticket, as the contact drawer lists it and `company-{id}-ticketNote` carries it. */
export const ticketNoteSchema = z
  .object({
    id: rowId,
    note: z.string(),
    ticketId: rowId,
    contactId: rowId,
    userId: rowId.nullable(),
    /** The author; null once that user was deleted. */
    user: z.object({ id: rowId, name: z.string() }).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "TicketNote",
    description:
      "A private note on a ticket, as the contact drawer lists it and company-{id}-ticketNote carries it",
  });
export type TicketNoteDTO = z.infer<typeof ticketNoteSchema>;

export const TICKET_NOTE = { min: 2, max: 5000 } as const;

/** Note text: required, at least 2 characters (agent-workspace section 5). */
export const ticketNoteField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .min(TICKET_NOTE.min, "validation.tooShort")
  .max(TICKET_NOTE.max, "validation.tooLong")
  .refine(noNul, "validation.invalid");

const idField = idValue;

/** POST /ticket-notes: the contact is the ticket's own; a contactId sent along must be that one. */
export const ticketNoteCreateSchema = z.object({
  note: ticketNoteField,
  ticketId: idField,
  contactId: idField.optional(),
});
export type TicketNoteCreateInput = z.infer<typeof ticketNoteCreateSchema>;

/** GET /ticket-notes/list: the notes of a ticket, newest first. */
export const ticketNotesQuerySchema = z.object({
  ticketId: idField,
  contactId: idField.optional(),
});
export type TicketNotesQuery = z.infer<typeof ticketNotesQuerySchema>;

/** Its author deletes a note; admin and supervisor any note (ticket-notes:deleteAny). */
export function mayDeleteTicketNote(actor: Actor, actorId: number, note: { userId: number | null }): boolean {
  return note.userId === actorId || can(actor, "ticket-notes:deleteAny");
}
