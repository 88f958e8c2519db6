import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { queueOptions, queues } from "./queues.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

/**
 * A ticket's service timeline for the dashboard: written by the ticket state machine in the same
 * transaction as the change it records. One row per ticket.
 */
export const ticketTracking = pgTable(
  "ticket_tracking",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** When the ticket joined a queue (the bot's choice, the connection's only queue, a transfer). */
    queuedAt: timestamp("queued_at", { withTimezone: true }),
    /** When an agent accepted it (pending → open). */
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    /** The first message an agent (not the bot) queued for the customer. */
    firstAgentReplyAt: timestamp("first_agent_reply_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** When the rating question was sent; `rating` 1-3 once answered (ratedAt). */
    ratingAt: timestamp("rating_at", { withTimezone: true }),
    ratedAt: timestamp("rated_at", { withTimezone: true }),
    rating: smallint("rating"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ticket_tracking_ticket_uq").on(t.ticketId),
    index("ticket_tracking_company_idx").on(t.companyId, t.createdAt),
    index("ticket_tracking_user_idx").on(t.userId),
    // The dashboard's periods: tickets resolved, accepted and rated within a range of days
    // (bench/dashboard: /dashboard for 7 days read all the company's rows, ~70 ms -> ~2 ms).
    index("ticket_tracking_company_finished_idx")
      .on(t.companyId, t.finishedAt)
      .where(sql`${t.finishedAt} is not null`),
    index("ticket_tracking_company_accepted_idx")
      .on(t.companyId, t.acceptedAt)
      .where(sql`${t.acceptedAt} is not null`),
    index("ticket_tracking_company_rated_idx")
      .on(t.companyId, t.ratedAt)
      .where(sql`${t.ratedAt} is not null`),
  ],
);

/** A customer's rating of the agent who served the ticket (1 unsatisfied, 2 satisfied, 3 very satisfied). */
export const userRatings = pgTable(
  "user_ratings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    rate: smallint("rate").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("user_ratings_ticket_uq").on(t.ticketId),
    index("user_ratings_company_user_idx").on(t.companyId, t.userId),
  ],
);

/** Where the chatbot stands with one ticket's customer. */
export const ticketBotStates = pgTable(
  "ticket_bot_states",
  {
    ticketId: integer("ticket_id")
      .primaryKey()
      .references(() => tickets.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** null: nothing sent yet; "menu": the queues menu; "options": a queue's options; "done". */
    stage: text("stage", { enum: ["menu", "options", "done"] }),
    /** The options node the customer is in (null: the queue's top level). */
    optionId: integer("option_id").references(() => queueOptions.id, { onDelete: "set null" }),
    /** The "invalid option" message went out for the current menu (it is not repeated). */
    invalidSent: boolean("invalid_sent").notNull().default(false),
    menuSentAt: timestamp("menu_sent_at", { withTimezone: true }),
    /** The closed period the out-of-hours message was sent for (its next opening). */
    outOfHoursKey: text("out_of_hours_key"),
    /** The rating question was asked this many times (0: no rating awaited). */
    ratingAsks: integer("rating_asks").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("ticket_bot_states_company_idx").on(t.companyId)],
);
