import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { LIMITS } from "./constants.js";
import type { ErrorCode, Lang } from "./errors.js";
import { noNul, pageNumber, searchText, sizedText } from "./validation.js";

/** A contact as every answer and the `company-{id}-contact` event carry it. */
export const contactSchema = z
  .object({
    id: rowId,
    name: z.string(),
    /** As stored: a phone number's digits, normalized (E.164 without the "+"), or a group's id. */
    number: z.string(),
    /** An e-mail address, or "" when none was given. */
    email: z.string(),
    /** The WhatsApp profile picture's URL, or "" when unknown. */
    profilePicUrl: z.string(),
    isGroup: z.boolean(),
    /** The lines of extra info, in their order. */
    extraInfo: z.array(z.object({ id: rowId, name: z.string(), value: z.string() })),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "Contact",
    description: "A contact, as every answer and the company-{id}-contact event carry it",
  });
export type ContactDTO = z.infer<typeof contactSchema>;

/** GET /contacts pages: the spec's infinite-scroll list. */
export const CONTACT_PAGE_SIZE = LIMITS.pageSize;

/** The number as typed: 8 to 50 characters (the server stores it normalized to E.164 digits). */
const contactNumber = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .min(LIMITS.contactNumber.min, "validation.tooShort")
  .max(LIMITS.contactNumber.max, "validation.tooLong")
  .refine(noNul, "validation.invalid");

const emailFormat = z.email();

/** Optional; when given it must be an email address. */
const contactEmail = z
  .string("validation.invalid")
  .trim()
  .max(254, "validation.tooLong")
  .refine((v) => v === "" || emailFormat.safeParse(v).success, "validation.invalidEmail")
  .refine(noNul, "validation.invalid");

export const CONTACT_EXTRA_INFO_MAX = 50;

/** One line of extra info: a name and a value (the `id` of a listed line is accepted and ignored). */
export const contactExtraInfoSchema = z.object({
  id: z.unknown().optional(),
  name: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(100, "validation.tooLong")
    .refine(noNul, "validation.invalid"),
  value: z
    .string("validation.invalid")
    .trim()
    .max(1000, "validation.tooLong")
    .refine(noNul, "validation.invalid")
    .default(""),
});

const contactFields = {
  name: sizedText(LIMITS.contactName.min, LIMITS.contactName.max),
  number: contactNumber,
  email: contactEmail,
  extraInfo: z.array(contactExtraInfoSchema).max(CONTACT_EXTRA_INFO_MAX, "validation.tooLong"),
};

/** POST /contacts and the contact dialog: name 2-50, number 8-50, email valid when given. */
export const contactCreateSchema = z.object({
  name: contactFields.name,
  number: contactFields.number,
  email: contactFields.email.optional().default(""),
  extraInfo: contactFields.extraInfo.optional().default([]),
});
export type ContactCreateInput = z.infer<typeof contactCreateSchema>;

/** PUT /contacts/{id}: the fields sent are changed; extraInfo, when sent, replaces the whole list. */
export const contactUpdateSchema = z.object({
  name: contactFields.name.optional(),
  number: contactFields.number.optional(),
  email: contactFields.email.optional(),
  extraInfo: contactFields.extraInfo.optional(),
});
export type ContactUpdateInput = z.infer<typeof contactUpdateSchema>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "validation.invalid")
  .optional();

export const contactListQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
  /** Contacts created on this day (the company's time zone), or between dateStart and dateEnd. */
  date: day,
  dateStart: day,
  dateEnd: day,
});
export type ContactListQuery = z.infer<typeof contactListQuerySchema>;

export const contactsPageSchema = pageOf("contacts", contactSchema).meta({ id: "ContactsPage" });
export type ContactsPage = z.infer<typeof contactsPageSchema>;

/**
 * POST /contacts when the number is already a contact of the company: 409 ERR_DUPLICATED_CONTACT
 * carrying the spec's `alreadyExists` and `existingContact`, so the dialog can offer to open it.
 */
export interface DuplicatedContactError {
  error: "ERR_DUPLICATED_CONTACT";
  message: string;
  alreadyExists: true;
  existingContact: ContactDTO;
}

/** A number that is not a phone number, or not on WhatsApp: 400 ERR_WAPP_INVALID_CONTACT with `invalido`. */
export interface InvalidContactNumberError {
  error: "ERR_WAPP_INVALID_CONTACT";
  message: string;
  invalido: true;
}

// ---- Import and export ----

export const CONTACT_IMPORT_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  maxRows: 10_000,
  /** How many rows the server handles between two progress lines. */
  progressEvery: 250,
} as const;

/**
 * Column titles the import recognises, compared by `importColumnKey` (no case, accents, spaces or
 * punctuation: "Número", "E-mail" and "Telefone celular" all match); other columns become extra info.
 */
export const CONTACT_IMPORT_COLUMNS = {
  name: ["name", "nome", "nombre", "contato", "contact", "contacto", "fullname", "nomecompleto"],
  number: [
    "number",
    "numero",
    "phone",
    "phonenumber",
    "telefone",
    "telefonecelular",
    "telefono",
    "celular",
    "whatsapp",
    "fone",
    "mobile",
  ],
  email: ["email", "mail", "correo", "correoelectronico"],
} as const;

export function importColumnKey(title: string): string {
  return title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** Row problems of an import that are neither field rules nor ERR_* codes. `{row}` is another line of the file. */
export const CONTACT_IMPORT_MESSAGES = {
  "import.duplicateInFile": {
    pt: "Número repetido: o mesmo da linha {row}",
    en: "Repeated number: the same as row {row}",
    es: "Número repetido: el mismo de la fila {row}",
  },
} as const satisfies Record<string, Record<Lang, string>>;

/** One problem of one row of an import file. `row` is the file's line (the header is line 1). */
export interface ContactImportRowError {
  row: number;
  field: "name" | "number" | "email" | "extraInfo";
  /** A validation key (validation.tooShort) or an ERR_* code. */
  code: string;
  /** The problem in the caller's language. */
  message: string;
  /** The cell as read, cut at 100 characters. */
  value: string;
}

export interface ContactImportResult {
  type: "result";
  /** False when the file had bad rows and skipInvalid was off: nothing was written. */
  committed: boolean;
  /** Rows read (the header not counted). */
  total: number;
  /** Contacts created. */
  imported: number;
  /** Rows whose number already was a contact: left as they are. */
  existing: number;
  /** Bad rows left out (only with skipInvalid). */
  skipped: number;
  errors: ContactImportRowError[];
}

/**
 * POST /contacts/import answers a stream of JSON lines (application/x-ndjson): progress lines while
 * it reads, checks and saves, then one result line (or one error line when it failed on the way).
 */
export type ContactImportEvent =
  | { type: "progress"; phase: "check" | "save"; done: number; total: number }
  | ContactImportResult
  | { type: "error"; error: ErrorCode; message: string };
