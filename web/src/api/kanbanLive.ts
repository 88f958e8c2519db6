import type { SessionUserDTO, TicketDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { applyTagToCards, putTicketOnBoards, removeTicketFromBoards } from "./kanbanBoards";
import { useCompanyEvent } from "./SocketProvider";
import { applyTagToLanes } from "./tags";

/**
 * Keeps the kanban boards and lanes current while mounted: tickets that change move between the
 * lanes, join or leave the board (as `user` may see it), deleted ones leave, and a tag renamed,
 * recoloured, flagged or deleted changes the lanes and the cards' chips. `isMoving` names the cards
 * this client is moving: the echo of the first of the move's two calls would put such a card back
 * in 'Em aberto' for a moment, so their echoes are skipped and the move's own answers place them.
 */
export function useKanbanLive(user: SessionUserDTO, isMoving: (ticketId: number) => boolean): void {
  const queryClient = useQueryClient();

  function heard(ticket: TicketDTO) {
    if (!isMoving(ticket.id)) putTicketOnBoards(queryClient, ticket, user);
  }

  useCompanyEvent("ticket", (payload) => {
    if (payload.action === "update") heard(payload.ticket);
    else if (payload.action === "delete" && !payload.fromStatus)
      removeTicketFromBoards(queryClient, payload.ticketId);
  });
  useCompanyEvent("appMessage", (payload) => heard(payload.ticket));
  useCompanyEvent("tag", (payload) => {
    applyTagToLanes(queryClient, payload);
    applyTagToCards(queryClient, payload);
  });
}
