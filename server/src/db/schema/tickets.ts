import { sql } from "drizzle-orm";
import type { CloudTemplateSend } from "@atende/contracts";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { queues } from "./queues.js";
import { users } from "./users.js";
import { whatsapps } from "./whatsapps.js";

/** A person (or group) a company talks to. `number` is normalized digits, so one person is one contact. */
export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    number: text("number").notNull(),
    /** WhatsApp's privacy id (…@lid) when known, so a message addressed by LID finds the same contact. */
    lid: text("lid"),
    email: text("email").notNull().default(""),
    profilePicUrl: text("profile_pic_url").notNull().default(""),
    profilePicAt: timestamp("profile_pic_at", { withTimezone: true }),
    isGroup: boolean("is_group").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Full-text search on name and number (the ticket search); queries must use the same expression.
    index("contacts_search_idx").using("gin", sql`to_tsvector('simple', ${t.name} || ' ' || ${t.number})`),
    uniqueIndex("contacts_company_number_uq")
      .on(t.companyId, t.number)
      .where(sql`${t.number} <> ''`),
    uniqueIndex("contacts_company_lid_uq")
      .on(t.companyId, t.lid)
      .where(sql`${t.lid} is not null`),
    index("contacts_company_name_idx").on(t.companyId, t.name),
  ],
);

export const contactCustomFields = pgTable(
  "contact_custom_fields",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: text("value").notNull().default(""),
  },
  (t) => [index("contact_custom_fields_contact_idx").on(t.contactId)],
);

export const TICKET_STATUS = ["pending", "open", "closed"] as const;

export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    uuid: uuid("uuid").notNull().defaultRandom(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    status: text("status", { enum: TICKET_STATUS }).notNull().default("pending"),
    lastMessage: text("last_message").notNull().default(""),
    unreadMessages: integer("unread_messages").notNull().default(0),
    isGroup: boolean("is_group").notNull().default(false),
    chatbot: boolean("chatbot").notNull().default(false),
    amountUsedBotQueues: integer("amount_used_bot_queues").notNull().default(0),
    useIntegration: boolean("use_integration").notNull().default(false),
    promptId: integer("prompt_id"),
    integrationId: integer("integration_id"),
    /**
     * Service levels (issue 39), set on the server when the ticket enters a queue with targets and
     * recomputed on transfer; all null when its queue has none. Due times are instants already
     * counted in opening hours. `slaStartedAt` is when the current queue's clocks started.
     */
    slaStartedAt: timestamp("sla_started_at", { withTimezone: true }),
    slaFirstResponseDueAt: timestamp("sla_first_response_due_at", { withTimezone: true }),
    /** The first agent reply since `slaStartedAt`, and the working seconds it took. */
    slaFirstResponseAt: timestamp("sla_first_response_at", { withTimezone: true }),
    slaFirstResponseSeconds: integer("sla_first_response_seconds"),
    slaResolutionDueAt: timestamp("sla_resolution_due_at", { withTimezone: true }),
    /** When the ticket was resolved (closed) under these clocks, and the working seconds it took. */
    slaResolvedAt: timestamp("sla_resolved_at", { withTimezone: true }),
    slaResolutionSeconds: integer("sla_resolution_seconds"),
    /** While waiting on the customer (queue's slaPauseOnCustomer): since when the resolution clock stands. */
    slaPausedAt: timestamp("sla_paused_at", { withTimezone: true }),
    /**
     * The next target still running (first response until answered, then resolution): when it is
     * due and when it turns "warning"; null when none runs (met, paused, no target, closed). The
     * lists' "closest to breach first" sorts on `slaDueAt`.
     */
    slaDueAt: timestamp("sla_due_at", { withTimezone: true }),
    slaWarnAt: timestamp("sla_warn_at", { withTimezone: true }),
    /** When each breach was found and notified (once). */
    slaFirstResponseBreachedAt: timestamp("sla_first_response_breached_at", { withTimezone: true }),
    slaResolutionBreachedAt: timestamp("sla_resolution_breached_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("tickets_uuid_uq").on(t.uuid),
    // The pending and open tabs sorted "closest to breach first" (issue 39); only running clocks.
    index("tickets_company_status_sla_due_idx")
      .on(t.companyId, t.status, t.slaDueAt, t.id)
      .where(sql`${t.slaDueAt} is not null`),
    // The service-level report's period: tickets whose clocks started within it (dashboard/serviceLevelsQueries.ts).
    index("tickets_company_sla_started_idx")
      .on(t.companyId, t.slaStartedAt)
      .where(sql`${t.slaStartedAt} is not null`),
    // The rule the whole product leans on: never two non-closed tickets for one contact on one connection.
    uniqueIndex("tickets_one_live_per_contact_uq")
      .on(t.companyId, t.contactId, t.whatsappId)
      .where(sql`${t.status} <> 'closed'`),
    // The tabs by status, newest first; `id` breaks ties in the index, so a page is read from it
    // alone (bench/tickets: the closed tab's page 100, 3,266 -> 28 buffers).
    index("tickets_company_status_updated_idx").on(t.companyId, t.status, t.updatedAt, t.id),
    index("tickets_company_queue_status_idx").on(t.companyId, t.queueId, t.status),
    index("tickets_contact_idx").on(t.contactId),
    // The dashboard and the reports: the company's tickets created within a range of days, newest
    // first (bench/dashboard: a report page for 30 days ~45 ms -> under 1 ms).
    index("tickets_company_created_idx").on(t.companyId, t.createdAt, t.id),
    // The text search's walk for common words (tickets/queries.ts searchTickets): the company's
    // tickets newest first whatever their status (bench/tickets: "favor" in 10 % of the messages
    // 470 -> ~10 ms).
    index("tickets_company_updated_idx").on(t.companyId, t.updatedAt, t.id),
    // An agent's own tabs (open / closed by user), newest first; queue_id last so the viewer's queue
    // check reads the index only (bench/tickets: the agent's closed tab 44 ms -> 0.5 ms).
    index("tickets_company_user_status_updated_idx").on(
      t.companyId,
      t.userId,
      t.status,
      t.updatedAt,
      t.id,
      t.queueId,
    ),
  ],
);

export const messages = pgTable(
  "messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    /** The provider's message id; unique per connection, which is how a redelivery is recognised. */
    wid: text("wid"),
    body: text("body").notNull().default(""),
    fromMe: boolean("from_me").notNull().default(false),
    read: boolean("read").notNull().default(false),
    /** 0 pending; 1-2 sent; 3 delivered; 4-5 read. Only ever moves forward. */
    ack: smallint("ack").notNull().default(0),
    mediaType: text("media_type").notNull().default("chat"),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    mediaMime: text("media_mime"),
    /**
     * An inbound file still on its way: "pending" while the media job downloads it (the message
     * shows at once), "failed" when every try failed, "tooLarge" when it was over the size cap;
     * null once stored (or for a message without media).
     */
    mediaStatus: text("media_status").$type<"pending" | "failed" | "tooLarge">(),
    quotedMsgId: bigint("quoted_msg_id", { mode: "number" }),
    participant: text("participant"),
    isDeleted: boolean("is_deleted").notNull().default(false),
    isEdited: boolean("is_edited").notNull().default(false),
    isForwarded: boolean("is_forwarded").notNull().default(false),
    /** Sent by the bot or an automatic message, not by an agent. */
    isBot: boolean("is_bot").notNull().default(false),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    /** Why the last send failed, shown on the message with a retry action. */
    sendError: text("send_error"),
    /**
     * A WhatsApp Cloud API template send (outside the 24-hour window): the approved template's name,
     * language and variable values; `body` holds its text as the agent saw it.
     */
    template: jsonb("template").$type<CloudTemplateSend>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("messages_search_idx").using("gin", sql`to_tsvector('simple', ${t.body})`),
    uniqueIndex("messages_whatsapp_wid_uq")
      .on(t.whatsappId, t.wid)
      .where(sql`${t.wid} is not null`),
    index("messages_ticket_created_idx").on(t.ticketId, t.createdAt, t.id),
    index("messages_company_idx").on(t.companyId),
    // GET /media: which tickets carry a file, asked for every picture a chat shows.
    index("messages_media_path_idx")
      .on(t.companyId, t.mediaPath)
      .where(sql`${t.mediaPath} is not null`),
    // The chat's pages: a contact's conversation on one connection, newest first, reactions aside
    // (queries must write the same condition; bench/tickets: page 1 of a long one 322 ms -> 0.07 ms).
    // ticket_id last, not for the order: an agent's page keeps only the tickets they may read
    // (`ticket_id in (...)`), checked in the index, so the page stays an index-only scan walked
    // backwards that stops after the page (without it every message of the conversation was read
    // from the table, filtered and sorted: bench/tickets, agent's page 1 of a long one 9.1 -> 0.07
    // ms, its count 23 -> 1 ms).
    index("messages_conversation_idx")
      .on(t.companyId, t.contactId, t.whatsappId, t.createdAt, t.id, t.ticketId)
      .where(sql`${t.mediaType} <> 'reactionMessage'`),
    // The reactions a message received (loadMessages): a handful of rows among all the company's messages.
    index("messages_reactions_idx")
      .on(t.quotedMsgId)
      .where(sql`${t.mediaType} = 'reactionMessage'`),
  ],
);
