import type { TicketDTO } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { contactKeys } from "./contacts";
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

const PRESENCE_TIMEOUT_MS = 15_000;

/**
 * Keeps the open ticket current from the live channel: its updates (tags included) and deletion,
 * its contact's changes, its tags' new names and colours, and what the contact is doing (typing,
 * recording).
 */
export function useTicketLive(ticket: TicketDTO, onDeleted: () => void) {
  const queryClient = useQueryClient();
  const [presence, setPresence] = useState<"composing" | "recording" | null>(null);
  const presenceTimer = useRef<number | undefined>(undefined);
  const key = ticketKeys.byUuid(ticket.uuid);

  useEffect(() => () => window.clearTimeout(presenceTimer.current), []);

  function store(next: TicketDTO) {
    queryClient.setQueryData<TicketDTO>(key, next);
  }

  useCompanyEvent("ticket", (event) => {
    if (event.action === "update" && event.ticket.id === ticket.id) store(event.ticket);
    // A delete with `fromStatus` only says the ticket left a status: it is still there.
    else if (event.action === "delete" && event.ticketId === ticket.id && !event.fromStatus) onDeleted();
  });

  useCompanyEvent("appMessage", (event) => {
    if (event.ticket.id === ticket.id) store(event.ticket);
    if (event.contact.id === ticket.contactId)
      queryClient.setQueryData(contactKeys.detail(event.contact.id), event.contact);
    if (event.action === "create" && event.ticket.id === ticket.id && !event.message.fromMe)
      setPresence(null);
  });

  useCompanyEvent("contact", (event) => {
    if (event.action === "delete" || event.contact.id !== ticket.contactId) return;
    const { contact } = event;
    queryClient.setQueryData(contactKeys.detail(contact.id), contact);
    queryClient.setQueryData<TicketDTO>(key, (current) =>
      current
        ? {
            ...current,
            contact: {
              ...current.contact,
              name: contact.name,
              number: contact.number,
              profilePicUrl: contact.profilePicUrl,
            },
          }
        : current,
    );
  });

  // A tag renamed, recoloured or deleted changes the ticket's chips.
  useCompanyEvent("tag", (event) => {
    if (event.action === "create") return;
    const id = event.action === "delete" ? event.tagId : event.tag.id;
    queryClient.setQueryData<TicketDTO>(key, (current) =>
      current?.tags.some((tag) => tag.id === id)
        ? {
            ...current,
            tags:
              event.action === "delete"
                ? current.tags.filter((tag) => tag.id !== id)
                : current.tags.map((tag) =>
                    tag.id === id ? { id, name: event.tag.name, color: event.tag.color } : tag,
                  ),
          }
        : current,
    );
  });

  useCompanyEvent("presence", (event) => {
    if (event.ticketId !== ticket.id) return;
    window.clearTimeout(presenceTimer.current);
    if (event.presence === "available") {
      setPresence(null);
      return;
    }
    setPresence(event.presence);
    presenceTimer.current = window.setTimeout(() => setPresence(null), PRESENCE_TIMEOUT_MS);
  });

  return { presence, store };
}
