import { z } from "zod";
import { contactSchema } from "./contacts.js";
import { searchText } from "./validation.js";
import { ticketSchema } from "./tickets.js";

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
export const paletteResultsSchema = z
  .object({
    /** At most PALETTE_LIMITS.tickets; a ticket whose id is the text comes first. */
    tickets: z.array(ticketSchema),
    /** At most PALETTE_LIMITS.contacts. */
    contacts: z.array(contactSchema),
  })
  .meta({
    id: "SearchResults",
    description: "The command palette's results: the tickets, then the contacts, the caller may see",
  });
export type PaletteResultsDTO = z.infer<typeof paletteResultsSchema>;
