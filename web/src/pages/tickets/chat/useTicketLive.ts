import type { TicketDTO } from "@atende/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { ApiError } from "../../../api/http";
import { useCompanyEvent } from "../../../api/SocketProvider";
import { fetchTicketByUuid, ticketKeys } from "../../../api/tickets";
import { toastError } from "../../../api/toast";
import { contactKeys } from "../../../api/contacts";

/**
 * The ticket opened by its uuid. A ticket the user may not see (403 'Acesso não permitido') or that
 * does not exist (404) sends them back to /tickets with the reason.
 */
export function useTicketByUuid(uuid: string) {
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: ticketKeys.byUuid(uuid),
    queryFn: ({ signal }) => fetchTicketByUuid(uuid, signal),
    meta: { silent: true },
  });
  const refused = query.error instanceof ApiError && query.error.status >= 400 && query.error.status < 500;

  useEffect(() => {
    if (!refused) return;
    toastError(query.error);
    navigate("/tickets", { replace: true });
  }, [refused, query.error, navigate]);

  return { ...query, refused };
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
