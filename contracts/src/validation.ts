import { z } from "zod";

/** PostgreSQL refuses the NUL character in text; refuse it here with a field error instead. */
export const noNul = (v: string) => !v.includes("\u0000");

/** A required trimmed string between min and max characters, with the spec's messages. */
export function sizedText(min: number, max: number) {
  return z
    .string({ error: "validation.required" })
    .trim()
    .min(1, { error: "validation.required", abort: true })
    .min(min, "validation.tooShort")
    .max(max, "validation.tooLong")
    .refine(noNul, "validation.invalid");
}

export const emailField = z
  .string({ error: "validation.required" })
  .trim()
  .toLowerCase()
  .min(1, { error: "validation.required", abort: true })
  .max(254, "validation.tooLong")
  .pipe(z.email("validation.invalidEmail"));

/** A list's search text: NUL characters dropped, trimmed, at most `max` characters; absent: "". */
export function searchText(max: number) {
  return z
    .string()
    .transform((v) => v.replaceAll("\u0000", "").trim())
    .pipe(z.string().max(max, "validation.tooLong"))
    .optional()
    .default("");
}

/** A list's page, from 1; absent: the first. */
export const pageNumber = z.coerce
  .number("validation.invalid")
  .int("validation.invalid")
  .min(1, "validation.invalid")
  .max(100_000, "validation.invalid")
  .optional()
  .default(1);

/** The largest id a PostgreSQL integer column holds: anything above is refused, not sent to the database. */
export const MAX_DB_ID = 2_147_483_647;
export const dbId = z
  .number("validation.invalid")
  .int("validation.invalid")
  .positive("validation.invalid")
  .max(MAX_DB_ID, "validation.invalid");

export const idParam = z.object({
  id: z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .positive("validation.invalid")
    .max(MAX_DB_ID, "validation.invalid"),
});

/** Lists of ids arrive as JSON ("[1,2]", as clients of this API family send them), comma-separated ("1,2") or as repeated parameters. */
export const idList = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === "") return [];
    if (Array.isArray(v)) return v;
    if (typeof v === "string") {
      const text = v.trim();
      if (text.startsWith("[")) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return [text];
        }
      }
      return text
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean);
    }
    return [v];
  },
  z
    .array(
      z.coerce
        .number("validation.invalid")
        .int("validation.invalid")
        .positive("validation.invalid")
        .max(MAX_DB_ID, "validation.invalid"),
    )
    .max(500),
);
