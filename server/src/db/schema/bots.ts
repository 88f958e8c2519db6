import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { queues } from "./queues.js";

/**
 * A company's bot integration (the spec's queue integration): Dialogflow, N8N, webhook or Typebot.
 * Queues and connections point at one through `integrationId`.
 *
 * Columns ending in `Enc` hold secrets sealed by `lib/secretBox.ts` (AES-256-GCM, key from config):
 * read them only through `secretBox.open`, never present them whole.
 */
export const queueIntegrations = pgTable(
  "queue_integrations",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["dialogflow", "n8n", "webhook", "typebot"] })
      .notNull()
      .default("typebot"),
    name: text("name").notNull(),
    /** Dialogflow's project; for n8n, webhook and typebot the name again (as the spec saves it). */
    projectName: text("project_name").notNull().default(""),
    /** Dialogflow's service-account JSON (it holds a private key), sealed; null when none. */
    jsonContentEnc: text("json_content_enc"),
    /** Dialogflow's language: pt-BR, en or es. */
    language: text("language").notNull().default(""),
    /** The bot's URL: the n8n/webhook address, or the Typebot server's base URL. */
    urlN8N: text("url_n8n").notNull().default(""),
    typebotSlug: text("typebot_slug").notNull().default(""),
    /** Minutes without the customer after which the bot session ends. */
    typebotExpires: integer("typebot_expires").notNull().default(1),
    /** Milliseconds between two bot replies. */
    typebotDelayMessage: integer("typebot_delay_message").notNull().default(1000),
    typebotKeywordFinish: text("typebot_keyword_finish").notNull().default(""),
    typebotKeywordRestart: text("typebot_keyword_restart").notNull().default(""),
    typebotUnknownMessage: text("typebot_unknown_message").notNull().default(""),
    typebotRestartMessage: text("typebot_restart_message").notNull().default(""),
    /** Bearer token sent to the bot (a private Typebot, a protected n8n), sealed; null when none. */
    authTokenEnc: text("auth_token_enc"),
    /** HMAC-SHA256 key signing what we POST to n8n/webhook, sealed; generated at creation. */
    signingSecretEnc: text("signing_secret_enc"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("queue_integrations_company_idx").on(t.companyId),
    uniqueIndex("queue_integrations_company_name_uq").on(t.companyId, t.name),
  ],
);

/** An AI prompt: an OpenAI-compatible model answering in a queue's name. */
export const prompts = pgTable(
  "prompts",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The system message. */
    prompt: text("prompt").notNull(),
    /** 'texto' = text replies only; else an Azure neural voice for voice notes too. */
    voice: text("voice").notNull().default("texto"),
    /** Azure Speech key, sealed; null when none. */
    voiceKeyEnc: text("voice_key_enc"),
    voiceRegion: text("voice_region").notNull().default(""),
    maxTokens: integer("max_tokens").notNull().default(100),
    temperature: real("temperature").notNull().default(1),
    /** The AI provider's API key, sealed (never null: the prompt cannot run without it). */
    apiKeyEnc: text("api_key_enc").notNull(),
    /** The queue the prompt answers for and hands over to. */
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    /** How many of the ticket's last messages the model sees. */
    maxMessages: integer("max_messages").notNull().default(10),
    /** Tokens this prompt has used, all time (the company's by day: ai_token_usage). */
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    totalTokens: integer("total_tokens").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("prompts_company_idx").on(t.companyId),
    uniqueIndex("prompts_company_name_uq").on(t.companyId, t.name),
  ],
);

/**
 * AI tokens a company used per day (all its prompts and transcriptions): what the provider will
 * bill. Kept apart from prompts so deleting a prompt does not erase what was spent.
 */
export const aiTokenUsage = pgTable(
  "ai_token_usage",
  {
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** The day (UTC) the tokens were used. */
    day: date("day", { mode: "string" }).notNull(),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    totalTokens: integer("total_tokens").notNull().default(0),
    /** Calls made to the provider. */
    requests: integer("requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day] })],
);
