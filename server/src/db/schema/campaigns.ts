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
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { contactLists, fileLists } from "./contactLists.js";
import { tags } from "./tags.js";
import { contacts } from "./tickets.js";
import { whatsapps } from "./whatsapps.js";

export const CAMPAIGN_STATUS = ["INATIVA", "PROGRAMADA", "EM_ANDAMENTO", "CANCELADA", "FINALIZADA"] as const;

/**
 * A campaign: up to five message variants (and five confirmation variants) sent to every contact of
 * a contact list or of a tag through one connection. `run` numbers each start or restart: the
 * sender's jobs carry it, so a job of an older run (before a cancel and restart) stops by itself.
 * `pausedReason` is set while the connection is down (the list shows it) and cleared on resume.
 */
export const campaigns = pgTable(
  "campaigns",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    message1: text("message1").notNull().default(""),
    message2: text("message2").notNull().default(""),
    message3: text("message3").notNull().default(""),
    message4: text("message4").notNull().default(""),
    message5: text("message5").notNull().default(""),
    confirmationMessage1: text("confirmation_message1").notNull().default(""),
    confirmationMessage2: text("confirmation_message2").notNull().default(""),
    confirmationMessage3: text("confirmation_message3").notNull().default(""),
    confirmationMessage4: text("confirmation_message4").notNull().default(""),
    confirmationMessage5: text("confirmation_message5").notNull().default(""),
    status: text("status", { enum: CAMPAIGN_STATUS }).notNull().default("INATIVA"),
    confirmation: boolean("confirmation").notNull().default(false),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    contactListId: integer("contact_list_id").references(() => contactLists.id, { onDelete: "set null" }),
    tagListId: integer("tag_list_id").references(() => tags.id, { onDelete: "set null" }),
    fileListId: integer("file_list_id").references(() => fileLists.id, { onDelete: "set null" }),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    /**
     * A Cloud API campaign's way past the 24-hour window: the approved template sent instead of the
     * message to a recipient who has not written in the last 24 hours ({nome}… in its values are
     * filled per recipient; `text` is the template's text with those values, as the ticket shows it).
     */
    template: jsonb("template").$type<CloudTemplateSend & { text: string }>(),
    run: integer("run").notNull().default(0),
    pausedReason: text("paused_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("campaigns_company_idx").on(t.companyId, t.id),
    index("campaigns_due_idx")
      .on(t.scheduledAt)
      .where(sql`${t.status} = 'PROGRAMADA'`),
  ],
);

export const SHIPPING_STATE = [
  /** Not handed over yet. */
  "pending",
  /** Confirmation variant handed over; waiting for the contact's answer. */
  "awaiting_confirmation",
  /** The message was handed to the connection (messageId): never sent again. */
  "sent",
  /** Not on WhatsApp, opted out or no number: not sent. */
  "skipped",
  /** The send failed for this recipient (`error`). */
  "failed",
  /** Asked to confirm, no answer within the confirmation timeout: never sent the message. */
  "unconfirmed",
] as const;

/**
 * One row per recipient, made when the campaign starts (a snapshot of name, number, email). The
 * state moves from `pending` in the same transaction that queues the message on the connection, so a
 * recipient is handed over at most once whatever instance or restart runs the campaign.
 */
export const campaignShippings = pgTable(
  "campaign_shippings",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    campaignId: integer("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    number: text("number").notNull(),
    name: text("name").notNull().default(""),
    email: text("email").notNull().default(""),
    state: text("state", { enum: SHIPPING_STATE }).notNull().default("pending"),
    /** 1..5: the variant chosen for this recipient. */
    variant: integer("variant"),
    message: text("message"),
    confirmationMessage: text("confirmation_message"),
    /** Our message row of the campaign message, and of the confirmation request. */
    messageId: bigint("message_id", { mode: "number" }),
    confirmationMessageId: bigint("confirmation_message_id", { mode: "number" }),
    /** WhatsApp's id of the campaign message (the provider id recorded when handed over). */
    wid: text("wid"),
    confirmationRequestedAt: timestamp("confirmation_requested_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** When the campaign message was handed to the connection. */
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("campaign_shippings_campaign_number_uq").on(t.campaignId, t.number),
    index("campaign_shippings_pending_idx")
      .on(t.campaignId, t.id)
      .where(sql`${t.state} = 'pending'`),
    index("campaign_shippings_awaiting_idx")
      .on(t.companyId, t.contactId)
      .where(sql`${t.state} = 'awaiting_confirmation'`),
    index("campaign_shippings_wa_day_idx").on(t.whatsappId, t.deliveredAt),
    index("campaign_shippings_message_idx").on(t.messageId),
    index("campaign_shippings_confirmation_message_idx").on(t.confirmationMessageId),
  ],
);

/** The company's campaign settings: key → JSON value (messageInterval, variables, ...). */
export const campaignSettings = pgTable(
  "campaign_settings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("campaign_settings_company_key_uq").on(t.companyId, t.key)],
);

/** A number that answered an opt-out word: never in a campaign of this company again. */
export const campaignOptOuts = pgTable(
  "campaign_opt_outs",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    word: text("word").notNull(),
    campaignId: integer("campaign_id").references(() => campaigns.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("campaign_opt_outs_company_number_uq").on(t.companyId, t.number)],
);
