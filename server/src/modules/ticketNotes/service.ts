import type { TicketNoteCreateInput, TicketNoteDTO, TicketNotesQuery } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findTicketRow } from "../tickets/queries.js";
import type { TicketsService } from "../tickets/service.js";
import { ticketNotePolicy } from "./policy.js";
import * as q from "./queries.js";

export type TicketNotesDeps = Pick<Deps, "db" | "bus" | "now"> & {
  tickets: Pick<TicketsService, "visibleTicket">;
};

/** A contactId sent along must be the ticket's own contact: any other is not found on this ticket. */
function checkContact(ticket: { contactId: number }, contactId: number | undefined) {
  if (contactId !== undefined && contactId !== ticket.contactId) throw new AppError("ERR_NO_CONTACT_FOUND");
}

export function createTicketNotesService({ db, bus, now, tickets }: TicketNotesDeps) {
  /** A ticket of the caller's company that the caller may see (404 another company's, 403 outside their queues). */
  async function visibleTicket(actor: AuthContext, ticketId: number) {
    return tickets.visibleTicket(actor, await findTicketRow(db, actor.companyId, ticketId));
  }

  return {
    /** GET /ticket-notes/list: the ticket's notes, newest first. */
    async list(actor: AuthContext, query: TicketNotesQuery): Promise<TicketNoteDTO[]> {
      const ticket = await visibleTicket(actor, query.ticketId);
      if (query.contactId !== undefined && query.contactId !== ticket.contactId) return [];
      return q.notesOfTicket(db, actor.companyId, ticket.id);
    },

    async create(actor: AuthContext, input: TicketNoteCreateInput): Promise<TicketNoteDTO> {
      const ticket = await visibleTicket(actor, input.ticketId);
      checkContact(ticket, input.contactId);
      return inTransaction(db, bus, async (tx, raise) => {
        const noteId = await q.insertNote(tx, actor.companyId, {
          ticketId: ticket.id,
          contactId: ticket.contactId,
          userId: actor.userId,
          note: input.note,
          createdAt: now(),
          updatedAt: now(),
        });
        const note = (await q.findNote(tx, actor.companyId, noteId))!;
        raise({
          type: "ticketNote.changed",
          companyId: actor.companyId,
          ticket: { id: ticket.id, queueId: ticket.queueId, userId: ticket.userId },
          payload: { action: "create", note },
        });
        return note;
      });
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const note = await q.findNoteRow(db, actor.companyId, id);
      if (!note) throw new AppError("ERR_NO_TICKET_NOTE_FOUND");
      const ticket = await visibleTicket(actor, note.ticketId);
      ticketNotePolicy.remove(actor, note);
      await inTransaction(db, bus, async (tx, raise) => {
        const gone = await q.deleteNote(tx, actor.companyId, id);
        if (gone)
          raise({
            type: "ticketNote.changed",
            companyId: actor.companyId,
            ticket: { id: ticket.id, queueId: ticket.queueId, userId: ticket.userId },
            payload: { action: "delete", noteId: id, ticketId: ticket.id },
          });
      });
    },
  };
}

export type TicketNotesService = ReturnType<typeof createTicketNotesService>;
