import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { contacts, tickets } from "./tickets.js";
import { users } from "./users.js";

/** An agent's private note on a ticket, shown in the chat's contact drawer; never sent to the contact. */
export const ticketNotes = pgTable(
  "ticket_notes",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    /** The author; a deleted user's notes stay, without a name. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    note: text("note").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ticket_notes_company_idx").on(t.companyId),
    index("ticket_notes_ticket_idx").on(t.ticketId, t.createdAt),
  ],
);
