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

/** Digits only: no sign, no leading zero, no spaces, no exponent or hex (at most 16 of them). */
const ID_DIGITS = /^[1-9][0-9]{0,15}$/;

/**
 * A positive integer id up to `max`: a JSON number, or a string of plain digits ("12") as paths,
 * queries and form fields carry it. What a lenient Number() would also take (" 1", "1e0", "0x1",
 * "+1", "01") is refused rather than read as another id. Missing, it says `missing`.
 */
export function idOf(max: number = MAX_DB_ID, missing = "validation.invalid") {
  return z.preprocess(
    (v) => (typeof v === "string" && ID_DIGITS.test(v) ? Number(v) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? missing : "validation.invalid") })
      .int("validation.invalid")
      .positive("validation.invalid")
      .max(max, "validation.invalid"),
  );
}

/**
 * How the forms of this API family send a field left empty: null, "" or false (an empty select
 * starts as "" or false; some forms turn every "" into null before sending).
 */
export function isEmptySpelling(v: unknown): v is null | "" | false {
  return v === null || v === "" || v === false;
}

/**
 * An optional field that reads those empty spellings as "not set", which `unset` says:
 * - left out (the default): as if not sent, so an update keeps the value and a create its default
 *   (a default belongs on `schema`);
 * - null: cleared (a link to another record);
 * - "": an empty text.
 * Anything else goes to `schema` as sent, so bad input is still refused. Not for a boolean field
 * (false is a value there).
 */
export function optionalEmpty<S extends z.ZodType>(schema: S): z.ZodPreprocess<z.ZodOptional<S>>;
export function optionalEmpty<S extends z.ZodType>(
  schema: S,
  unset: null,
): z.ZodPreprocess<z.ZodOptional<z.ZodNullable<S>>>;
export function optionalEmpty<S extends z.ZodType>(schema: S, unset: ""): z.ZodPreprocess<z.ZodOptional<S>>;
export function optionalEmpty(schema: z.ZodType, unset?: null | "") {
  const inner = unset === null ? schema.nullable().optional() : schema.optional();
  return z.preprocess((v) => (isEmptySpelling(v) ? unset : v), inner);
}

/** A uuid as paths carry it (a ticket's): hex in 8-4-4-4-12 groups, nothing around it. */
export const uuidValue = z
  .string("validation.invalid")
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "validation.invalid");

/** A database id (a PostgreSQL integer) as a path, query, form or JSON value. */
export const idValue = idOf();

export const idParam = z.object({ id: idValue });

/** Lists of ids arrive as JSON ("[1,2]", as clients of this API family send them), comma-separated ("1,2") or as repeated parameters. */
export const idList = z.preprocess((v) => {
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
}, z.array(idValue).max(500));
