import {
  type AllTicket,
  type Permission,
  type Profile,
  type TicketDTO,
  type TicketViewer,
  canSeeTicket,
} from "@atende/contracts";
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { can } from "../auth/permissions";
import { ticketKeys, type TicketFilters, type TicketPages } from "./tickets";

/** Who is looking at the lists: what the server's list query decides visibility with. */
export interface Viewer {
  id: number;
  profile: Profile;
  allTicket: AllTicket;
  queues: { id: number }[];
  /** The session's permissions: showAll counts for holders of tickets-manager:showall only. */
  permissions: Permission[];
}

/** The viewer as contracts' rules take it (visibility, alerts). */
export function ticketViewerOf(viewer: Viewer): TicketViewer {
  return {
    userId: viewer.id,
    profile: viewer.profile,
    queueIds: viewer.queues.map((queue) => queue.id),
    allTicket: viewer.allTicket === "enabled",
  };
}

/** The server's visibility rule, from contracts: admins any, others their queues, own, unqueued with allTicket. */
export function canSee(viewer: Viewer, ticket: Pick<TicketDTO, "queueId" | "userId">): boolean {
  return canSeeTicket(ticketViewerOf(viewer), ticket);
}

/**
 * Whether `ticket` belongs in the list fetched with `filters`: the same conditions as the server's
 * list query (tickets/queries.ts), so a list kept by live events matches what a reload would show.
 */
export function belongsTo(ticket: TicketDTO, filters: TicketFilters, viewer: Viewer): boolean {
  if (!canSee(viewer, ticket)) return false;
  if (filters.status && ticket.status !== filters.status) return false;
  const showAll = Boolean(filters.showAll) && can(viewer, "tickets-manager:showall");
  if ((filters.status === "open" || filters.status === "closed") && !showAll && !filters.searchParam) {
    if (ticket.userId !== viewer.id) return false;
  }
  if (filters.queueIds?.length) {
    const inQueue = ticket.queueId !== null && filters.queueIds.includes(ticket.queueId);
    // The picked queues, plus the viewer's own tickets and the unqueued ones they may see (the
    // server's `or queue_id is null` for access to any ticket or allTicket).
    const unqueuedAllowed = ticket.queueId === null && canSee(viewer, ticket);
    if (!inQueue && !unqueuedAllowed && ticket.userId !== viewer.id) return false;
  }
  if (filters.users?.length && (ticket.userId === null || !filters.users.includes(ticket.userId)))
    return false;
  if (filters.tags?.length && !ticket.tags.some((tag) => filters.tags!.includes(tag.id))) return false;
  if (filters.withUnreadMessages && ticket.unreadMessages === 0) return false;
  return true;
}

function filtersOf(key: QueryKey): TicketFilters {
  return (key[2] ?? {}) as TicketFilters;
}

function isListed(data: TicketPages, ticketId: number): boolean {
  return data.pages.some((page) => page.tickets.some((t) => t.id === ticketId));
}

function withCount(data: TicketPages, delta: number): TicketPages["pages"] {
  return data.pages.map((page) => ({ ...page, count: Math.max(0, page.count + delta) }));
}

/** The ticket's running service-level clock's due time, or null when none runs. */
function slaDueOf(ticket: TicketDTO): string | null {
  return ticket.sla?.running && ticket.sla.dueAt ? ticket.sla.dueAt : null;
}

/**
 * Whether `a` comes before or with `b` in a list fetched with `filters`: newest activity first; with
 * `orderBy: "slaDue"` (closest to breach first), the tickets with a running clock first by due
 * time (then id), then the rest newest first (the server's order, tickets/searchQueries.ts).
 */
export function ranksBefore(a: TicketDTO, b: TicketDTO, filters: TicketFilters): boolean {
  if (filters.orderBy === "slaDue") {
    const dueA = slaDueOf(a);
    const dueB = slaDueOf(b);
    if (dueA === null && dueB !== null) return false;
    if (dueA !== null && dueB === null) return true;
    if (dueA !== null && dueB !== null) {
      const diff = Date.parse(dueA) - Date.parse(dueB);
      return diff === 0 ? a.id <= b.id : diff < 0;
    }
  }
  return a.updatedAt >= b.updatedAt;
}

/** Puts `ticket` where the list's order ranks it in the first page (newest first, or closest to breach). */
function placeFirst(
  pages: TicketPages["pages"],
  ticket: TicketDTO,
  filters: TicketFilters,
): TicketPages["pages"] {
  const [first, ...rest] = pages;
  if (!first) return pages;
  const at = first.tickets.findIndex((t) => ranksBefore(ticket, t, filters));
  const tickets = [...first.tickets];
  tickets.splice(at === -1 ? tickets.length : at, 0, ticket);
  return [{ ...first, tickets }, ...rest];
}

function without(pages: TicketPages["pages"], ticketId: number): TicketPages["pages"] {
  return pages.map((page) => ({ ...page, tickets: page.tickets.filter((t) => t.id !== ticketId) }));
}

/**
 * A ticket changed (status, agent, queue, tags, last message, unread count, service-level clocks):
 * every cached list it belongs to gets it at its place in the list's order (ranksBefore); lists it
 * no longer belongs to lose it. A search list keeps what it has (the server alone knows which
 * messages match), updating in place.
 * Its chat's cached copy (by uuid) follows too: the chat keeps it current only while on screen, and
 * a copy left from an earlier visit is still fresh when the chat opens again (a ticket transferred
 * back to its queue then accepted from the list opened as still waiting, with no 'Resolver').
 */
export function applyTicket(queryClient: QueryClient, ticket: TicketDTO, viewer: Viewer): void {
  queryClient.setQueryData<TicketDTO>(ticketKeys.byUuid(ticket.uuid), (cached) => (cached ? ticket : cached));
  for (const [key, data] of queryClient.getQueriesData<TicketPages>({ queryKey: ticketKeys.lists() })) {
    if (!data) continue;
    const filters = filtersOf(key);
    const listed = isListed(data, ticket.id);
    const belongs = belongsTo(ticket, filters, viewer);
    let pages: TicketPages["pages"];
    if (belongs && listed) pages = placeFirst(without(data.pages, ticket.id), ticket, filters);
    else if (belongs && !filters.searchParam) pages = placeFirst(withCount(data, 1), ticket, filters);
    else if (!belongs && listed) pages = without(withCount(data, -1), ticket.id);
    else continue;
    queryClient.setQueryData<TicketPages>(key, { ...data, pages });
  }
}

export function removeTicket(queryClient: QueryClient, ticketId: number): void {
  queryClient.setQueriesData<TicketPages>({ queryKey: ticketKeys.lists() }, (data) =>
    data && isListed(data, ticketId) ? { ...data, pages: without(withCount(data, -1), ticketId) } : data,
  );
}

/** The ticket was read: its unread badge goes away wherever it is listed. */
export function clearUnread(queryClient: QueryClient, ticketId: number): void {
  queryClient.setQueriesData<TicketPages>({ queryKey: ticketKeys.lists() }, (data) =>
    data && isListed(data, ticketId)
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            tickets: page.tickets.map((t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t)),
          })),
        }
      : data,
  );
}

/** A tag was renamed, recoloured (`tag` given) or deleted (`tag` null): the chips of listed tickets follow. */
export function applyTag(
  queryClient: QueryClient,
  tagId: number,
  tag: TicketDTO["tags"][number] | null,
): void {
  queryClient.setQueriesData<TicketPages>({ queryKey: ticketKeys.lists() }, (data) => {
    if (!data?.pages.some((page) => page.tickets.some((t) => t.tags.some((x) => x.id === tagId))))
      return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((t) =>
          t.tags.some((x) => x.id === tagId)
            ? {
                ...t,
                tags: tag
                  ? t.tags.map((x) => (x.id === tagId ? { id: tag.id, name: tag.name, color: tag.color } : x))
                  : t.tags.filter((x) => x.id !== tagId),
              }
            : t,
        ),
      })),
    };
  });
}

/** A contact was renamed, renumbered or got a new picture: the listed tickets of that contact follow. */
export function applyContact(
  queryClient: QueryClient,
  contact: Pick<TicketDTO["contact"], "id" | "name" | "number" | "profilePicUrl">,
): void {
  queryClient.setQueriesData<TicketPages>({ queryKey: ticketKeys.lists() }, (data) => {
    if (!data?.pages.some((page) => page.tickets.some((t) => t.contactId === contact.id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((t) =>
          t.contactId === contact.id
            ? {
                ...t,
                contact: {
                  ...t.contact,
                  name: contact.name,
                  number: contact.number,
                  profilePicUrl: contact.profilePicUrl,
                },
              }
            : t,
        ),
      })),
    };
  });
}

/** Pages a list keeps when it is refetched after a reconnection: each page is one more request. */
const PAGES_KEPT_ON_REFRESH = 3;

/**
 * The live channel was away (or joined after the lists were fetched), and every list is about to be
 * read again (useRefetchWhenReady): a list scrolled far down starts again from its first pages
 * rather than asking for every page it had.
 */
export function trimListsForRefresh(queryClient: QueryClient): void {
  queryClient.setQueriesData<TicketPages>({ queryKey: ticketKeys.lists() }, (data) =>
    data && data.pages.length > PAGES_KEPT_ON_REFRESH
      ? {
          pages: data.pages.slice(0, PAGES_KEPT_ON_REFRESH),
          pageParams: data.pageParams.slice(0, PAGES_KEPT_ON_REFRESH),
        }
      : data,
  );
}

/** A listed ticket by id, from any cached list. */
export function findListedTicket(queryClient: QueryClient, ticketId: number): TicketDTO | undefined {
  for (const [, data] of queryClient.getQueriesData<TicketPages>({ queryKey: ticketKeys.lists() })) {
    const found = data?.pages.flatMap((page) => page.tickets).find((t) => t.id === ticketId);
    if (found) return found;
  }
  return undefined;
}

/** The tickets of a list, once each: pages fetched after live insertions may repeat one. */
export function ticketsOf(data: TicketPages | undefined): TicketDTO[] {
  const seen = new Set<number>();
  const list: TicketDTO[] = [];
  for (const page of data?.pages ?? []) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      list.push(ticket);
    }
  }
  return list;
}
