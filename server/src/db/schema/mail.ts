import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { users } from "./users.js";

/**
 * The one live e-mailed code of a user: a password reset (15 minutes) or an invitation to set a
 * first password (72 hours). Only a keyed hash of the code is kept; a new code replaces the row
 * (one per user), every try counts an attempt, and a used code is marked so it works once.
 */
export const accountCodes = pgTable(
  "account_codes",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["reset", "invite"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_codes_user_uq").on(t.userId),
    index("account_codes_company_idx").on(t.companyId),
  ],
);

/**
 * The development outbox: without SMTP_URL outside production, every mail lands here (the last
 * ones only) for the super user to read in the app. Platform-wide, like the mail itself.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mail_outbox_created_idx").on(t.createdAt)],
);
