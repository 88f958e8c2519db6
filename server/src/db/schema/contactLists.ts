import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { whatsapps } from "./whatsapps.js";

/**
 * Contact lists (back-office sections 2 and 3): the audiences of campaigns. A list may name the
 * connection its numbers are checked on WhatsApp through; without one the company's default is used.
 */
export const contactLists = pgTable(
  "contact_lists",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("contact_lists_company_name_idx").on(t.companyId, t.name)],
);

/**
 * One person of a list. `number` is normalized (E.164 digits, Brazilian mobiles with the ninth
 * digit), so a number typed with or without the ninth digit is one item of the list.
 * `isWhatsappValid`: null until checked, then whether WhatsApp knows the number.
 */
export const contactListItems = pgTable(
  "contact_list_items",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactListId: integer("contact_list_id")
      .notNull()
      .references(() => contactLists.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    number: text("number").notNull(),
    email: text("email").notNull().default(""),
    isWhatsappValid: boolean("is_whatsapp_valid"),
    whatsappCheckedAt: timestamp("whatsapp_checked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("contact_list_items_list_number_uq").on(t.contactListId, t.number),
    index("contact_list_items_list_name_idx").on(t.contactListId, t.name),
    index("contact_list_items_company_idx").on(t.companyId),
    // The background WhatsApp check walks the items not yet checked.
    index("contact_list_items_unchecked_idx")
      .on(t.contactListId, t.id)
      .where(sql`${t.whatsappCheckedAt} is null`),
  ],
);

export const CONTACT_LIST_IMPORT_STATUS = ["queued", "running", "done", "failed"] as const;

/**
 * A spreadsheet import into a list: a durable job reads the stored file and keeps its progress and
 * its bad rows here (row number and reason), for the page's live progress and the report download.
 */
export const contactListImports = pgTable(
  "contact_list_imports",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactListId: integer("contact_list_id")
      .notNull()
      .references(() => contactLists.id, { onDelete: "cascade" }),
    userId: integer("user_id"),
    fileName: text("file_name").notNull(),
    /** Where the uploaded file waits under the media directory until the job has read it. */
    path: text("path").notNull(),
    status: text("status", { enum: CONTACT_LIST_IMPORT_STATUS }).notNull().default("queued"),
    totalRows: integer("total_rows").notNull().default(0),
    processedRows: integer("processed_rows").notNull().default(0),
    imported: integer("imported").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    invalid: integer("invalid").notNull().default(0),
    /** The bad rows: [{ row, reason }], row numbered as in the spreadsheet (header = 1). */
    errors: jsonb("errors").$type<{ row: number; reason: string; value?: string }[]>().notNull().default([]),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("contact_list_imports_list_idx").on(t.contactListId, t.id)],
);

/** File lists (back-office "File lists"): a message and several files a campaign sends after it. */
export const fileLists = pgTable(
  "files",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    message: text("message").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("files_company_name_idx").on(t.companyId, t.name)],
);

/** One file of a file list: its name, media type and where it is stored (path under media). */
export const fileListOptions = pgTable(
  "files_options",
  {
    id: serial("id").primaryKey(),
    fileId: integer("file_id")
      .notNull()
      .references(() => fileLists.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Empty until the file itself is uploaded (POST /files/uploadList/{id}). */
    path: text("path").notNull().default(""),
    mediaType: text("media_type").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("files_options_file_idx").on(t.fileId)],
);
