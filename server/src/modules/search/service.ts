import { PALETTE_LIMITS, type PaletteResultsDTO, type TicketDTO } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import type { AuthContext } from "../../http/auth.js";
import { pageContacts } from "../contacts/queries.js";
import { findTicketRow, loadTicket } from "../tickets/queries.js";
import type { TicketsService } from "../tickets/service.js";

export type SearchDeps = Pick<Deps, "db"> & {
  tickets: Pick<TicketsService, "list" | "visibleTicket">;
};

/** "123" or "#123": a ticket's id as agents say it. */
const TICKET_ID = /^#?(\d{1,9})$/;

/**
 * The command palette's search. Tickets come from the ticket list itself (its visibility: the
 * caller's queues, own tickets, unqueued ones with allTicket, every one for admins; its full-text
 * search on contact name, number and messages), so the palette never finds what the list would
 * hide; a ticket typed by its id is looked up under the same rule. Contacts are the company's
 * address book, which every user reads (GET /contacts).
 */
export function createSearchService({ db, tickets }: SearchDeps) {
  /** The ticket with the id typed, when the caller may see it; nothing otherwise (not even a 403). */
  async function ticketById(actor: AuthContext, text: string): Promise<TicketDTO | null> {
    const id = Number(TICKET_ID.exec(text)?.[1]);
    if (!id || id > 2_147_483_647) return null;
    const row = await findTicketRow(db, actor.companyId, id);
    if (!row) return null;
    const visible = await tickets.visibleTicket(actor, row).catch(() => null);
    return visible ? loadTicket(db, actor.companyId, visible.id) : null;
  }

  return {
    async search(actor: AuthContext, text: string): Promise<PaletteResultsDTO> {
      if (text.length < PALETTE_LIMITS.minChars) return { tickets: [], contacts: [] };
      const [exact, listed, contacts] = await Promise.all([
        ticketById(actor, text),
        tickets.list(actor, {
          searchParam: text.replace(/^#(?=\d)/, ""),
          pageNumber: 1,
          tags: [],
          users: [],
          queueIds: [],
          showAll: false,
          withUnreadMessages: false,
        }),
        // No date filter here, so the time zone the filters would read days in is not needed.
        pageContacts(db, actor.companyId, {
          searchParam: text,
          pageNumber: 1,
          pageSize: PALETTE_LIMITS.contacts,
          timeZone: "UTC",
        }),
      ]);
      const found = exact ? [exact, ...listed.tickets.filter((t) => t.id !== exact.id)] : listed.tickets;
      return { tickets: found.slice(0, PALETTE_LIMITS.tickets), contacts: contacts.contacts };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
