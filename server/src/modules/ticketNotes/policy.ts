import { mayDeleteTicketNote } from "@atende/contracts";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { TicketNoteRow } from "./present.js";

export const ticketNotePolicy = {
  /** Its author deletes a note; admin and supervisor any note (the rule in contracts). */
  remove(actor: AuthContext, note: Pick<TicketNoteRow, "userId">): void {
    if (!mayDeleteTicketNote(actor, actor.userId, note)) throw new AppError("ERR_NO_PERMISSION");
  },
};
