import { boolean, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { users } from "./users.js";

/**
 * A canned answer typed as '/shortcode' in the chat. A personal one belongs to its author; a
 * global (geral) one is offered to the whole company and stays when its author is deleted.
 */
export const quickMessages = pgTable(
  "quick_messages",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    shortcode: text("shortcode").notNull(),
    message: text("message").notNull().default(""),
    /** A MediaStore path and the file's original name. */
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    geral: boolean("geral").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("quick_messages_company_idx").on(t.companyId),
    index("quick_messages_company_shortcode_idx").on(t.companyId, t.shortcode),
  ],
);
