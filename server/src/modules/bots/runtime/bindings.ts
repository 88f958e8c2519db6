import type { Executor } from "../../../db/client.js";
import type { BotKind } from "./contract.js";
import { PROMPT_SECRET_PURPOSE } from "../prompts/sealing.js";
import { INTEGRATION_SECRET_PURPOSE } from "../integrations/sealing.js";
import * as q from "./queries.js";

/** Opens a sealed column (lib/secretBox.ts): null when it cannot. */
export type OpenSecret = (purpose: string, sealed: string) => string | null;

/** The purposes the back office seals each secret under (queueIntegrations, prompts). */
export const SECRET_PURPOSES = { ...INTEGRATION_SECRET_PURPOSE, ...PROMPT_SECRET_PURPOSE } as const;

/** An integration as the adapters read it, secrets opened. */
export interface IntegrationConfig {
  id: number;
  type: "typebot" | "n8n" | "webhook" | "dialogflow";
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  /** Bearer token for a private Typebot or a protected n8n. */
  typebotToken: string;
  /** HMAC-SHA256 key of what is POSTed to n8n/webhook. */
  secret: string;
}

export interface PromptConfig {
  id: number;
  name: string;
  prompt: string;
  apiKey: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  queueId: number | null;
}

/** How the runner paces and steers a bot (the integration's typebot* settings; prompts' defaults). */
export interface BotRules {
  /** Minutes without the customer after which the session ends (0: never). */
  expiresMinutes: number;
  delayMs: number;
  finishKeyword: string;
  restartKeyword: string;
  restartMessage: string;
  unknownMessage: string;
}

export type Binding = { key: string; rules: BotRules } & (
  | { kind: Exclude<BotKind, "prompt">; integration: IntegrationConfig }
  | { kind: "prompt"; prompt: PromptConfig }
);

const PROMPT_RULES: BotRules = {
  expiresMinutes: 0,
  delayMs: 1000,
  finishKeyword: "",
  restartKeyword: "",
  restartMessage: "",
  unknownMessage: "",
};

const opened = (open: OpenSecret, purpose: string, sealed: string | null) =>
  sealed ? (open(purpose, sealed) ?? "") : "";

/**
 * The bot a connection or queue points at, read within the company: an id of another company's
 * integration or prompt is simply not found, so it never runs.
 */
export async function bindingOf(
  db: Executor,
  open: OpenSecret,
  companyId: number,
  source: { integrationId: number | null; promptId: number | null },
): Promise<Binding | null> {
  if (source.integrationId !== null) {
    const row = await q.findIntegrationRow(db, companyId, source.integrationId);
    if (row)
      return {
        key: `integration:${row.id}`,
        kind: row.type,
        rules: {
          expiresMinutes: row.typebotExpires,
          delayMs: row.typebotDelayMessage,
          finishKeyword: row.typebotKeywordFinish,
          restartKeyword: row.typebotKeywordRestart,
          restartMessage: row.typebotRestartMessage,
          unknownMessage: row.typebotUnknownMessage,
        },
        integration: {
          id: row.id,
          type: row.type,
          name: row.name,
          projectName: row.projectName,
          jsonContent: opened(open, SECRET_PURPOSES.jsonContent, row.jsonContentEnc),
          language: row.language,
          urlN8N: row.urlN8N,
          typebotSlug: row.typebotSlug,
          typebotToken: opened(open, SECRET_PURPOSES.authToken, row.authTokenEnc),
          secret: opened(open, SECRET_PURPOSES.signingSecret, row.signingSecretEnc),
        },
      };
  }
  if (source.promptId !== null) {
    const row = await q.findPromptRow(db, companyId, source.promptId);
    if (row)
      return {
        key: `prompt:${row.id}`,
        kind: "prompt",
        rules: PROMPT_RULES,
        prompt: {
          id: row.id,
          name: row.name,
          prompt: row.prompt,
          apiKey: opened(open, SECRET_PURPOSES.apiKey, row.apiKeyEnc),
          maxTokens: row.maxTokens,
          temperature: row.temperature,
          maxMessages: row.maxMessages,
          voice: row.voice,
          voiceKey: opened(open, SECRET_PURPOSES.voiceKey, row.voiceKeyEnc),
          voiceRegion: row.voiceRegion,
          queueId: row.queueId,
        },
      };
  }
  return null;
}

/**
 * Which bot serves a waiting ticket now: its queue's, once it is in a queue that has one; else the
 * connection's, while the ticket has no queue or sits in one of the connection's own queues (a
 * connection with one queue opens its tickets in it). A bot that handed over, transferred or ended
 * is stopped for good on that ticket (runner.ts).
 */
export async function activeBinding(
  db: Executor,
  open: OpenSecret,
  companyId: number,
  ticket: { queueId: number | null },
  connection: { integrationId: number | null; promptId: number | null },
  connectionQueueIds: number[],
): Promise<Binding | null> {
  if (ticket.queueId !== null) {
    const queue = await q.queueBots(db, companyId, ticket.queueId);
    if (queue && (queue.integrationId !== null || queue.promptId !== null)) {
      const bound = await bindingOf(db, open, companyId, queue);
      if (bound) return bound;
    }
  }
  if (ticket.queueId !== null && !connectionQueueIds.includes(ticket.queueId)) return null;
  return bindingOf(db, open, companyId, connection);
}
