import type { KanbanPage, SessionUserDTO, TagDTO, TicketDTO } from "@atende/contracts";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { kanbanKeys } from "./tags";
import { canSee } from "./ticketLists";

/** The kanban boards' cached pages (one per showAll): what the live channel changes in them. */
type BoardPages = InfiniteData<KanbanPage, number>;

export interface BoardViewer {
  user: SessionUserDTO;
  showAll: boolean;
}

/**
 * Whether a ticket heard on the live channel belongs on this board: the ticket list's rules
 * (queues, own tickets, unqueued ones with allTicket; in service only one's own unless showAll),
 * waiting and in-service tickets only. The server decides what the board loads; this only keeps
 * the live copy the same.
 */
export function belongsOnBoard(ticket: TicketDTO, { user, showAll }: BoardViewer): boolean {
  if (ticket.status === "closed") return false;
  const mine = ticket.userId === user.id;
  if (!canSee(user, ticket)) return false;
  return ticket.status === "pending" || mine || showAll;
}

function mapBoards(queryClient: QueryClient, change: (data: BoardPages, showAll: boolean) => BoardPages) {
  for (const [key, data] of queryClient.getQueriesData<BoardPages>({ queryKey: kanbanKeys.boards() })) {
    if (data) queryClient.setQueryData<BoardPages>(key, change(data, key[key.length - 1] === true));
  }
}

/** A ticket changed: replaced where it is, added when new to the board, removed when it left it. */
export function putTicketOnBoards(queryClient: QueryClient, ticket: TicketDTO, user: SessionUserDTO): void {
  mapBoards(queryClient, (data, showAll) => {
    const listed = data.pages.some((page) => page.tickets.some((t) => t.id === ticket.id));
    if (!belongsOnBoard(ticket, { user, showAll })) return listed ? without(data, ticket.id) : data;
    const pages = listed
      ? data.pages.map((page) => ({
          ...page,
          tickets: page.tickets.map((t) => (t.id === ticket.id ? ticket : t)),
        }))
      : data.pages.map((page, index) =>
          index === 0 ? { ...page, tickets: [ticket, ...page.tickets] } : page,
        );
    return { ...data, pages };
  });
}

function without(data: BoardPages, ticketId: number): BoardPages {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, tickets: page.tickets.filter((t) => t.id !== ticketId) })),
  };
}

export function removeTicketFromBoards(queryClient: QueryClient, ticketId: number): void {
  mapBoards(queryClient, (data) => without(data, ticketId));
}

/** A tag renamed, recoloured or deleted: the cards' copies of it follow. */
export function applyTagToCards(
  queryClient: QueryClient,
  event: { action: "create" | "update"; tag: TagDTO } | { action: "delete"; tagId: number },
): void {
  if (event.action === "create") return;
  mapBoards(queryClient, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.map((ticket) => {
        const id = event.action === "delete" ? event.tagId : event.tag.id;
        if (!ticket.tags.some((t) => t.id === id)) return ticket;
        const tags =
          event.action === "delete"
            ? ticket.tags.filter((t) => t.id !== id)
            : ticket.tags.map((t) =>
                t.id === id ? { id, name: event.tag.name, color: event.tag.color } : t,
              );
        return { ...ticket, tags };
      }),
    })),
  }));
}
