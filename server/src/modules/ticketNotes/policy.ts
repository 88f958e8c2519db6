import type { AuthContext } from "../../http/auth.js";
import { authorize } from "../../http/auth.js";
import type { TicketNoteRow } from "./present.js";

export const ticketNotePolicy = {
  /** Its author deletes a note; admin and supervisor any note (ticket-notes:deleteAny). */
  remove(actor: AuthContext, note: Pick<TicketNoteRow, "userId">): void {
    if (note.userId !== actor.userId) authorize(actor, "ticket-notes:deleteAny");
  },
};
