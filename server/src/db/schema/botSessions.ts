import { bigint, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { tickets } from "./tickets.js";

/**
 * A bot's conversation with one ticket's customer (Typebot, N8N, webhook, Dialogflow, AI prompt):
 * one row per ticket, rewritten when another bot takes the ticket (`binding` names which). `version`
 * grows with every turn taken, so a reply computed for an older turn (the customer wrote again, the
 * bot was restarted) is never sent; `lastMessageId` is the last customer message handed to the bot,
 * so messages that arrive while a reply is computed are joined into the next turn, never answered
 * twice.
 */
export const botSessions = pgTable(
  "bot_sessions",
  {
    ticketId: integer("ticket_id")
      .primaryKey()
      .references(() => tickets.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** "integration:<id>" or "prompt:<id>": the bot this row is about. */
    binding: text("binding").notNull(),
    /** active: the bot talks; stopped: people took over (hand-over, transfer, end, an agent wrote). */
    status: text("status", { enum: ["active", "stopped"] })
      .notNull()
      .default("active"),
    /** The bot's own session id (Typebot's sessionId, Dialogflow's session), null before it starts. */
    externalId: text("external_id"),
    /** The numbered choices last offered (their texts, in order), so a number answers one. */
    choices: jsonb("choices").$type<string[] | null>(),
    lastMessageId: bigint("last_message_id", { mode: "number" }).notNull().default(0),
    version: integer("version").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    lastCustomerAt: timestamp("last_customer_at", { withTimezone: true }).notNull().defaultNow(),
    /** Why the bot stopped (for the log and the tests): handover, transfer, end, close, agent, finish. */
    stopReason: text("stop_reason"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("bot_sessions_company_idx").on(t.companyId)],
);
