/**
 * The one contract every bot kind speaks (Typebot, N8N, webhook, Dialogflow, AI prompt).
 *
 * In: the customer's real words since the bot's last turn (several messages written while the bot
 * was thinking arrive joined, one per line), their media as short-lived signed URLs the bot can
 * fetch, audio already transcribed where the bot's provider transcribes (AI prompts), who is talking
 * (contact, ticket, connection, company) and the bot's own session id from the last turn.
 *
 * Out: zero or more replies (text, image, audio, video, file, a list of choices) and at most one
 * action: `end` (the bot is done: people take the ticket where it is), `transfer` (to a queue and/or
 * a user of the same company), `close`. No action: the conversation goes on.
 *
 * An adapter only translates between this contract and its service's protocol; it never touches the
 * database, the ticket or the customer. Anything it throws (a network error, a timeout, an answer it
 * cannot read) hands the ticket to people, and the customer sees no error (runner.ts).
 */

import type { Outbound } from "../../../lib/outbound.js";

export type BotKind = "typebot" | "n8n" | "webhook" | "dialogflow" | "prompt";

export interface BotMedia {
  kind: "image" | "audio" | "video" | "file";
  /** A signed URL of ours that expires within minutes. */
  url: string;
  mimetype: string;
  name: string;
}

export interface BotInput {
  /** The session starts now (first turn, after expiry or the restart keyword). */
  start: boolean;
  /** The customer's text since the last turn, one message per line; "" for media only. */
  text: string;
  media: BotMedia[];
  /** Bytes of the customer's audio, for a bot that transcribes it itself (AI prompts). */
  audio: { data: Buffer; mimetype: string; name: string }[];
}

export interface BotContext {
  companyId: number;
  ticket: { id: number; uuid: string; queueId: number | null; status: string };
  contact: { id: number; name: string; number: string };
  connection: { id: number; name: string; number: string };
  company: { id: number; name: string };
  /** The bot's own session id from the previous turn (null when the session starts). */
  externalId: string | null;
  /** The ticket's last `limit` messages, oldest first (AI prompts' history). */
  history(limit: number): Promise<{ fromMe: boolean; body: string }[]>;
  /** Aborted at the timeout: adapters pass it to every request. */
  signal: AbortSignal;
  /** The guarded client every request of an adapter goes through (lib/outbound.ts). */
  outbound: Outbound;
}

export type BotReply =
  | { type: "text"; text: string }
  | {
      type: "image" | "audio" | "video" | "file";
      /** Fetched by the runner (a URL), or the bytes themselves (a voice note made here). */
      url?: string;
      data?: Buffer;
      mimetype?: string;
      name?: string;
      caption?: string;
    }
  | { type: "choices"; text: string; options: string[] };

export type BotAction =
  { type: "end" } | { type: "close" } | { type: "transfer"; queueId?: number | null; userId?: number | null };

export interface BotOutcome {
  replies: BotReply[];
  action?: BotAction;
  /** The bot's session id to send back next turn (Typebot's sessionId). */
  externalId?: string | null;
  /** Tokens an AI answer used, recorded per company. */
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
}

export interface BotAdapter<Config> {
  /** Whether media alone (no text) is something this bot can take; else typebotUnknownMessage. */
  takesMedia: boolean;
  turn(config: Config, input: BotInput, ctx: BotContext): Promise<BotOutcome>;
}

/** A failure of the bot's service: logged, and the ticket goes to people. */
export class BotError extends Error {}
