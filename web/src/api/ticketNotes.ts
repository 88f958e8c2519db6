import type { TicketNoteDTO } from "@atende/contracts";
import { api } from "./http";

export const ticketNoteKeys = {
  all: ["ticketNotes"] as const,
  /** The notes of a ticket's contact, as the notes panel of that ticket shows them. */
  ticket: (ticketId: number) => [...ticketNoteKeys.all, ticketId] as const,
};

export function fetchTicketNotes(
  ticketId: number,
  contactId: number,
  signal?: AbortSignal,
): Promise<TicketNoteDTO[]> {
  return api.get<TicketNoteDTO[]>("/ticket-notes/list", { query: { ticketId, contactId }, signal });
}

export function addTicketNote(payload: {
  ticketId: number;
  contactId: number;
  note: string;
}): Promise<TicketNoteDTO> {
  return api.post<TicketNoteDTO>("/ticket-notes", payload);
}

export function deleteTicketNote(id: number): Promise<void> {
  return api.delete(`/ticket-notes/${id}`);
}

/** Newest first, each note once. */
export function withNote(list: TicketNoteDTO[] | undefined, note: TicketNoteDTO): TicketNoteDTO[] {
  return [note, ...(list ?? []).filter((n) => n.id !== note.id)];
}
