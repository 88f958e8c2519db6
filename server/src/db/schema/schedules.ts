import { bigint, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { contacts, tickets } from "./tickets.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

export const SCHEDULE_STATUS = ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] as const;

/**
 * A message to send to a contact at `sendAt`. A durable job (send-schedule) hands it to the
 * connection at its time: PENDENTE until then, AGENDADA once queued on the connection (messageId),
 * ENVIADA with sentAt when WhatsApp took it, ERRO with the reason when it could not be sent.
 */
export const schedules = pgTable(
  "schedules",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The connection to send through; null: the company's default connection at sending time. */
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    sendAt: timestamp("send_at", { withTimezone: true }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    status: text("status", { enum: SCHEDULE_STATUS }).notNull().default("PENDENTE"),
    /** Why it could not be sent (status ERRO). */
    error: text("error"),
    /** The ticket and message it became, once queued. */
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    messageId: bigint("message_id", { mode: "number" }),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("schedules_company_idx").on(t.companyId),
    index("schedules_company_send_at_idx").on(t.companyId, t.sendAt),
    index("schedules_message_idx").on(t.messageId),
  ],
);
