import type { TicketNoteDTO } from "@atende/contracts";
import type { ticketNotes } from "../../db/schema/index.js";

export type TicketNoteRow = typeof ticketNotes.$inferSelect;

/** The one shape of a note, for HTTP answers and the `company-{id}-ticketNote` event alike. */
export function presentTicketNote(row: TicketNoteRow, userName: string | null): TicketNoteDTO {
  return {
    id: row.id,
    note: row.note,
    ticketId: row.ticketId,
    contactId: row.contactId,
    userId: row.userId,
    user: row.userId !== null && userName !== null ? { id: row.userId, name: userName } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
