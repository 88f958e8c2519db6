import { addTicketNote } from "../../../api/ticketNotes";

/**
 * Saves the dialog's note before its action (the action may take the ticket out of the agent's
 * sight); a blank note saves nothing. Answers the text saved, so a retried action does not save it twice.
 */
export async function saveNoteFirst(
  ticket: { id: number; contactId: number },
  note: string,
  alreadySaved: string | null,
): Promise<string | null> {
  const text = note.trim();
  if (!text || text === alreadySaved) return alreadySaved;
  await addTicketNote({ ticketId: ticket.id, contactId: ticket.contactId, note: text });
  return text;
}
