import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { pageNumber, searchText, idValue, noNul, sizedText } from "./validation.js";

/**
 * Contact lists and their items (back-office sections 2, 3, 5 and 7): the audiences of campaigns.
 * Numbers are stored normalized (E.164 digits, Brazilian mobiles with the ninth digit), so one
 * person typed with or without the ninth digit is one item of a list.
 */

export const CONTACT_LIST_NAME = { min: 2, max: 50 } as const;
export const CONTACT_LIST_ITEM_NAME = { min: 2, max: 50 } as const;
export const CONTACT_LIST_ITEM_NUMBER = { min: 8, max: 50 } as const;
/** GET /contact-lists/ and GET /contact-list-items answer this many per page. */
export const CONTACT_LISTS_PAGE_SIZE = 20;
export const CONTACT_LIST_ITEMS_PAGE_SIZE = 20;

/** A list as every answer and the `company-{id}-ContactList` event carry it. */
export const contactListSchema = z
  .object({
    id: rowId,
    name: z.string(),
    companyId: rowId,
    /** The connection its numbers are checked through; null: the company's default connection. */
    whatsappId: rowId.nullable(),
    /** How many items the list has. */
    contactsCount: z.number().int().nonnegative(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "ContactList",
    description:
      "A contact list (a campaign's audience), as every answer and the company-{id}-ContactList event carry it",
  });
export type ContactListDTO = z.infer<typeof contactListSchema>;

/** GET /contact-lists/: the Whaticket shape. */
export const contactListsPageSchema = pageOf("records", contactListSchema).meta({
  id: "ContactListsPage",
  description: "A page of contact lists",
});
export type ContactListsPage = z.infer<typeof contactListsPageSchema>;

/** GET /contact-lists/list: every list of the company (for selects), by name. */
export type ContactListsList = ContactListDTO[];

/** An item as every answer and the `company-{id}-ContactListItem` event carry it. */
export const contactListItemSchema = z
  .object({
    id: rowId,
    name: z.string(),
    number: z.string(),
    email: z.string(),
    /** null until checked; then whether WhatsApp knows the number. */
    isWhatsappValid: z.boolean().nullable(),
    companyId: rowId,
    contactListId: rowId,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({
    id: "ContactListItem",
    description: "A contact of a list, as every answer and the company-{id}-ContactListItem event carry it",
  });
export type ContactListItemDTO = z.infer<typeof contactListItemSchema>;

/** GET /contact-list-items: the Whaticket shape. */
export const contactListItemsPageSchema = pageOf("contacts", contactListItemSchema).meta({
  id: "ContactListItemsPage",
  description: "A page of a contact list's items",
});
export type ContactListItemsPage = z.infer<typeof contactListItemsPageSchema>;

// ---- Validation ----

export const contactListNameField = sizedText(CONTACT_LIST_NAME.min, CONTACT_LIST_NAME.max);

const optionalWhatsappId = z.union([idValue, z.null()], "validation.invalid").optional();

export const contactListCreateSchema = z.object({
  name: contactListNameField,
  whatsappId: optionalWhatsappId,
});
export type ContactListCreateInput = z.infer<typeof contactListCreateSchema>;

export const contactListUpdateSchema = z.object({
  name: contactListNameField.optional(),
  whatsappId: optionalWhatsappId,
});
export type ContactListUpdateInput = z.infer<typeof contactListUpdateSchema>;

export const contactListsQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
});
export type ContactListsQuery = z.infer<typeof contactListsQuerySchema>;

export const contactListItemNameField = sizedText(CONTACT_LIST_ITEM_NAME.min, CONTACT_LIST_ITEM_NAME.max);

/** Number: 8 to 50 characters as typed (spec section 5); the server then normalizes it. */
export const contactListItemNumberField = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required", abort: true })
  .min(CONTACT_LIST_ITEM_NUMBER.min, "validation.tooShort")
  .max(CONTACT_LIST_ITEM_NUMBER.max, "validation.tooLong")
  .refine((v) => /^[+\d\s().-]+$/.test(v), "validation.invalid");

const emailFormat = z.email();

/** Email: optional; when given, a valid address ('Invalid email'). */
export const contactListItemEmailField = z
  .string("validation.invalid")
  .trim()
  .toLowerCase()
  .max(254, "validation.tooLong")
  .refine(noNul, "validation.invalid")
  .refine((v) => v === "" || emailFormat.safeParse(v).success, "validation.invalidEmail");

export const contactListItemCreateSchema = z.object({
  name: contactListItemNameField,
  number: contactListItemNumberField,
  email: contactListItemEmailField.optional().default(""),
  contactListId: idValue,
  /** Sent by clients of this API family; the caller's own company is used whatever it says. */
  companyId: z.unknown().optional(),
});
export type ContactListItemCreateInput = z.infer<typeof contactListItemCreateSchema>;

export const contactListItemUpdateSchema = z.object({
  name: contactListItemNameField.optional(),
  number: contactListItemNumberField.optional(),
  email: contactListItemEmailField.optional(),
});
export type ContactListItemUpdateInput = z.infer<typeof contactListItemUpdateSchema>;

export const contactListItemQuerySchema = z.object({
  searchParam: searchText(100),
  pageNumber,
  contactListId: idValue,
  /** Sent by clients of this API family; ignored (the caller's company is used). */
  companyId: z.unknown().optional(),
});
export type ContactListItemQuery = z.infer<typeof contactListItemQuerySchema>;

// ---- Import ----

export const CONTACT_LIST_IMPORT_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  maxRows: 100_000,
  /** Rows written per transaction, and between two progress events. */
  batchRows: 2000,
} as const;

/** What the item page's import accepts (spec: xls/xlsx; csv besides). */
export const CONTACT_LIST_IMPORT_ACCEPT = ".xls,.xlsx,.csv";

/**
 * Header titles the import recognises, compared without case, accents, spaces or punctuation
 * (see `importColumnKey` in contacts.ts): "Nome", "Número", "Telefone", "E-mail" all match.
 */
export const CONTACT_LIST_IMPORT_COLUMNS = {
  name: ["nome", "name", "nombre", "contato", "contact", "nomecompleto", "fullname"],
  number: ["numero", "number", "telefone", "telefono", "phone", "celular", "whatsapp", "fone", "mobile"],
  email: ["email", "mail", "correo"],
} as const;

/** The example spreadsheet's columns and a row (the page's "download example" builds it). */
export const CONTACT_LIST_EXAMPLE_ROWS: string[][] = [
  ["nome", "numero", "email"],
  ["Maria Silva", "5511999998888", "maria@example.com"],
  ["João Souza", "(21) 98888-7777", ""],
];

/** Reasons a row of an import is left out: validation keys, or these. */
export const CONTACT_LIST_IMPORT_REASONS = {
  "import.noNumber": { pt: "Sem número", en: "No number", es: "Sin número" },
  "import.invalidNumber": { pt: "Número inválido", en: "Invalid number", es: "Número inválido" },
  "import.duplicateInFile": {
    pt: "Número repetido no arquivo",
    en: "Number repeated in the file",
    es: "Número repetido en el archivo",
  },
  "import.duplicateInList": {
    pt: "Número já está na lista",
    en: "Number already in the list",
    es: "Número ya está en la lista",
  },
} as const;

export const contactListImportStatusSchema = z.enum(["queued", "running", "done", "failed"]);
export type ContactListImportStatus = z.infer<typeof contactListImportStatusSchema>;

/** One left-out row: its line in the spreadsheet (header = 1), a reason key and the cell read. */
export const contactListImportRowErrorSchema = z
  .object({
    row: z.number().int().positive(),
    /** A key of CONTACT_LIST_IMPORT_REASONS or a validation key (validation.invalidEmail...). */
    reason: z.string(),
    value: z.string().optional(),
  })
  .meta({
    id: "ContactListImportRowError",
    description:
      "A spreadsheet row an import left out: its line (header = 1), a reason key and the cell read",
  });
export type ContactListImportRowError = z.infer<typeof contactListImportRowErrorSchema>;

/** An import's progress, as POST /contact-lists/{id}/upload answers it and the live event carries it. */
export const contactListImportSchema = z
  .object({
    id: rowId,
    contactListId: rowId,
    fileName: z.string(),
    status: contactListImportStatusSchema,
    totalRows: z.number().int().nonnegative(),
    processedRows: z.number().int().nonnegative(),
    /** Rows that became items. */
    imported: z.number().int().nonnegative(),
    /** Numbers repeated in the file or already in the list. */
    duplicates: z.number().int().nonnegative(),
    /** Bad rows (see errors). */
    invalid: z.number().int().nonnegative(),
    /** The bad rows, at most CONTACT_LIST_IMPORT_ERRORS_MAX (the report download has them all). */
    errors: z.array(contactListImportRowErrorSchema),
    /** ERR_* code when the whole file failed. */
    error: z.string().nullable(),
    createdAt: timestamp,
    finishedAt: timestamp.nullable(),
  })
  .meta({
    id: "ContactListImport",
    description: "A spreadsheet import into a contact list and its progress",
  });
export type ContactListImportDTO = z.infer<typeof contactListImportSchema>;
export const CONTACT_LIST_IMPORT_ERRORS_MAX = 200;

// ---- Live events ----

export type ContactListEventPayload =
  { action: "create" | "update"; record: ContactListDTO } | { action: "delete"; id: number };

/**
 * `company-{id}-ContactListItem`: an item made or changed (`record`), deleted (`id`), or items the
 * WhatsApp check marked (`reload` with them in `records`, as the Whaticket SaaS items page folds
 * them in).
 */
export type ContactListItemEventPayload =
  | { action: "create" | "update"; record: ContactListItemDTO }
  | { action: "delete"; id: number; contactListId: number }
  | ContactListItemsReloadPayload;

/**
 * Many items of one list changed at once: `records` are those items as they are now (an import's
 * batch, a batch of the WhatsApp check). A page of that list upserts them, or reads itself again.
 */
export interface ContactListItemsReloadPayload {
  action: "reload";
  contactListId: number;
  records: ContactListItemDTO[];
}

export interface ContactListImportEventPayload {
  action: "progress";
  record: ContactListImportDTO;
}

/** The server events of contact lists (merged into ServerToClientEvents). */
export interface ContactListServerEvents {
  [name: `company-${number}-ContactList`]: (payload: ContactListEventPayload) => void;
  [name: `company-${number}-ContactListItem`]: (payload: ContactListItemEventPayload) => void;
  /** One list's channel: the items an import's batch added (the Whaticket SaaS import event). */
  [name: `company-${number}-ContactListItem-${number}`]: (payload: ContactListItemsReloadPayload) => void;
  [name: `company-${number}-ContactListImport`]: (payload: ContactListImportEventPayload) => void;
}

export const contactListEvent = (companyId: number) => `company-${companyId}-ContactList` as const;
export const contactListItemEvent = (companyId: number) => `company-${companyId}-ContactListItem` as const;
export const contactListItemsOfListEvent = (companyId: number, contactListId: number) =>
  `company-${companyId}-ContactListItem-${contactListId}` as const;
export const contactListImportEvent = (companyId: number) =>
  `company-${companyId}-ContactListImport` as const;
