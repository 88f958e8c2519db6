import { z } from "zod";

/**
 * The building blocks of the answers' schemas. An answer's schema is what the server sends, as
 * JSON: the API document shows it (a schema given an id with `.meta({ id })` becomes a named
 * component, `Ticket`, `Message`...), and every server test checks each answer against it
 * (server/src/http/answerCheck.ts), so the two cannot drift apart. Types are inferred from them
 * (`type TagDTO = z.infer<typeof tagSchema>`), so the web reads the same shapes.
 */

/** A row's id. */
export const rowId = z.number().int().positive();

/** A moment as JSON carries it: ISO 8601 with its zone ("2026-12-03T07:00:00.000Z"). */
export const timestamp = z.iso.datetime({ offset: true });

/** The envelope of a paged list: `{ [key]: items, count, hasMore }` (count is the whole list's). */
export function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({
    ...({ [key]: z.array(item) } as Record<K, z.ZodArray<T>>),
    count: z.number().int().nonnegative(),
    hasMore: z.boolean(),
  });
}

/** An answer that only says the call worked: `{ message }` (clients of this API family read it). */
export const messageAnswer = z.object({ message: z.string() });
