import type { TicketNoteDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCompanyEvent } from "./SocketProvider";
import { ticketNoteKeys, withNote } from "./ticketNotes";

/** Keeps a ticket's notes current while mounted: notes colleagues add to it or delete. */
export function useTicketNotesLive(ticketId: number): void {
  const queryClient = useQueryClient();
  useCompanyEvent("ticketNote", (payload) => {
    const key = ticketNoteKeys.ticket(ticketId);
    if (payload.action === "create") {
      if (payload.note.ticketId === ticketId)
        queryClient.setQueryData<TicketNoteDTO[]>(key, (list) => withNote(list, payload.note));
    } else if (payload.ticketId === ticketId) {
      queryClient.setQueryData<TicketNoteDTO[]>(key, (list) => list?.filter((n) => n.id !== payload.noteId));
    }
  });
}
