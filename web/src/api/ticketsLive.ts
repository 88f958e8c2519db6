import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import { useCompanyEvent, useSocketReady } from "./SocketProvider";
import {
  applyContact,
  applyTag,
  applyTicket,
  clearUnread,
  findListedTicket,
  removeTicket,
  trimListsForRefresh,
  type Viewer,
} from "./ticketLists";
import { ticketKeys } from "./tickets";

/**
 * Keeps every cached ticket list current from the live channel: a ticket that changes moves to the
 * lists it now belongs to, a new message brings its ticket to the top with the new last message and
 * unread count, a read ticket loses its badge and a deleted one leaves (and closes, if on screen);
 * a renamed, recoloured or deleted tag changes the chips, and an edited contact its name and picture.
 * When the channel is back, the lists are trimmed to their first pages before the provider reads
 * them again (useRefetchWhenReady).
 */
export function useTicketsLive(viewer: Viewer, selectedUuid: string | undefined): void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useCompanyEvent("ticket", (payload) => {
    switch (payload.action) {
      case "update":
        applyTicket(queryClient, payload.ticket, viewer);
        break;
      case "updateUnread":
        clearUnread(queryClient, payload.ticketId);
        break;
      case "delete": {
        // Only left a status (for clients with one list per status): the update that follows moves it.
        if (payload.fromStatus) break;
        const shown = findListedTicket(queryClient, payload.ticketId);
        removeTicket(queryClient, payload.ticketId);
        if (shown && shown.uuid === selectedUuid) void navigate("/tickets", { replace: true });
        break;
      }
    }
  });

  useCompanyEvent("appMessage", (payload) => {
    applyTicket(queryClient, payload.ticket, viewer);
  });

  useSocketReady(() => trimListsForRefresh(queryClient));

  useCompanyEvent("contact", (payload) => {
    if (payload.action !== "delete") applyContact(queryClient, payload.contact);
  });

  useCompanyEvent("tag", (payload) => {
    if (payload.action === "delete") applyTag(queryClient, payload.tagId, null);
    else if (payload.action === "update") applyTag(queryClient, payload.tag.id, payload.tag);
    // The search tab's tag choices.
    void queryClient.invalidateQueries({ queryKey: ticketKeys.tagOptions() });
  });
}
