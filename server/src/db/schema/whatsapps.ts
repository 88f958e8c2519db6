import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { prompts, queueIntegrations } from "./bots.js";
import { companies } from "./companies.js";
import { queues } from "./queues.js";

/** A WhatsApp connection (the spec's "whatsapp"): one number of one company, on one provider. */
export const whatsapps = pgTable(
  "whatsapps",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    provider: text("provider", { enum: ["beta", "cloud", "simulator"] })
      .notNull()
      .default("beta"),
    status: text("status", { enum: ["OPENING", "qrcode", "PAIRING", "CONNECTED", "DISCONNECTED", "TIMEOUT"] })
      .notNull()
      .default("OPENING"),
    qrcode: text("qrcode").notNull().default(""),
    retries: integer("retries").notNull().default(0),
    number: text("number").notNull().default(""),
    isDefault: boolean("is_default").notNull().default(false),
    /**
     * The connection's API token (the messages API's bearer) as a keyed hash (SecretBox.fingerprint,
     * purpose CONNECTION_TOKEN_PURPOSE): the server generates the token and shows it once; a request's
     * token is hashed and looked up here. Null: the connection has no token (none generated yet).
     */
    tokenHash: text("token_hash"),
    /** The token's last characters, shown instead of it ("" when there is none). */
    tokenHint: text("token_hint").notNull().default(""),
    /**
     * A token from before the hashes (migration 0031), in clear until the start-up step hashes it
     * into tokenHash (secretsAtRest.ts); null afterwards, and never written again.
     */
    legacyToken: text("token"),
    greetingMessage: text("greeting_message").notNull().default(""),
    complationMessage: text("complation_message").notNull().default(""),
    outOfHoursMessage: text("out_of_hours_message").notNull().default(""),
    ratingMessage: text("rating_message").notNull().default(""),
    expiresInactiveMessage: text("expires_inactive_message").notNull().default(""),
    /** Hours of inactivity after which an open ticket closes; 0 = never. */
    expiresTicket: integer("expires_ticket").notNull().default(0),
    timeUseBotQueues: integer("time_use_bot_queues").notNull().default(0),
    maxUseBotQueues: integer("max_use_bot_queues").notNull().default(3),
    transferQueueId: integer("transfer_queue_id").references(() => queues.id, { onDelete: "set null" }),
    timeToTransfer: integer("time_to_transfer").notNull().default(0),
    promptId: integer("prompt_id").references((): AnyPgColumn => prompts.id, { onDelete: "set null" }),
    integrationId: integer("integration_id").references((): AnyPgColumn => queueIntegrations.id, {
      onDelete: "set null",
    }),
    schedules: jsonb("schedules").$type<unknown[]>().notNull().default([]),
    /** Provider settings (Cloud API ids and secrets). Never presented to agents. */
    providerConfig: jsonb("provider_config").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("whatsapps_company_idx").on(t.companyId),
    uniqueIndex("whatsapps_company_name_uq").on(t.companyId, t.name),
    uniqueIndex("whatsapps_token_hash_uq").on(t.tokenHash),
    // At most one default connection per company.
    uniqueIndex("whatsapps_company_default_uq")
      .on(t.companyId)
      .where(sql`${t.isDefault}`),
  ],
);

export const whatsappQueues = pgTable(
  "whatsapp_queues",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.queueId] }),
    index("whatsapp_queues_company_idx").on(t.companyId),
  ],
);

/**
 * Who runs a connection's live session: one instance holds the lease and renews it; a lease not
 * renewed in time is taken over by another instance.
 */
export const whatsappLeases = pgTable("whatsapp_leases", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: "cascade" }),
  companyId: integer("company_id")
    .notNull()
    .references(() => companies.id, { onDelete: "cascade" }),
  ownerId: text("owner_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Baileys auth state as rows: the credentials (category "creds") and one row per signal key. */
export const baileysKeys = pgTable(
  "baileys_keys",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    category: text("category").notNull(),
    keyId: text("key_id").notNull(),
    value: jsonb("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.category, t.keyId] })],
);

/**
 * What a connection sent, by WhatsApp message id, so a phone that asks for a message again (a
 * retry receipt: it could not decrypt it) gets it after a restart or a lease move, not "Waiting
 * for this message". Baileys' "sent-message" category of the auth store lands here (authStore.ts);
 * rows older than the retention are purged.
 */
export const whatsappSentMessages = pgTable(
  "whatsapp_sent_messages",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    value: jsonb("value").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.messageId] }),
    index("whatsapp_sent_messages_created_idx").on(t.createdAt),
  ],
);

/**
 * What WhatsApp answered about a company's numbers (Baileys' `onWhatsApp`): the jid it uses for the
 * number (a Brazilian mobile may keep its 8-digit form), or null when the number has no account, and
 * when it was asked. Shared by the company's connections, instances and restarts, so a campaign
 * right after a list check asks WhatsApp nothing again. The reader decides what is still fresh
 * (channels/baileys/numberDirectory.ts); rows past the longest freshness are purged as new ones come.
 * Written through the auth store's "number-check" category (channels/authStore.ts).
 */
export const whatsappNumberChecks = pgTable(
  "whatsapp_number_checks",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    jid: text("jid"),
    checkedAt: timestamp("checked_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.number] }),
    index("whatsapp_number_checks_checked_idx").on(t.companyId, t.checkedAt),
  ],
);
