import { z } from "zod";
import type { ContactDTO } from "./contacts.js";
import { searchText } from "./validation.js";
import type { TicketDTO } from "./tickets.js";

/**
 * The command palette's search (Ctrl/Cmd+K): tickets by contact name, number, message text or id,
 * and contacts, as the caller may see them (the ticket list's visibility rules).
 */
export const PALETTE_LIMITS = {
  /** Typed characters before the server is asked (a ticket id may be one digit). */
  minChars: 1,
  maxChars: 100,
  tickets: 6,
  contacts: 5,
  /** The palette asks again this long after the last key. */
  debounceMs: 200,
} as const;

export const paletteSearchQuerySchema = z.object({ q: searchText(PALETTE_LIMITS.maxChars) });

/** GET /search?q=: the tickets first (newest activity first), then the contacts (by name). */
export interface PaletteResultsDTO {
  tickets: TicketDTO[];
  contacts: ContactDTO[];
}
