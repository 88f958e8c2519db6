import type { CloudTemplateSend, ProviderName, WhatsappStatus } from "@atende/contracts";

/**
 * The contract between Atende and a WhatsApp provider (simulator, Baileys, Cloud API).
 *
 * A provider only translates: it turns its protocol's events into `ChannelEvent`s handed to the
 * `ChannelSink`, and `OutboundMessage`s into its protocol's sends. It never reads or writes
 * tickets, contacts or messages: the one inbound pipeline (inbound.ts) does that for every provider.
 *
 * Delivery rule: `sink.emit()` resolves only after the event is committed to the database. A
 * provider acknowledges an inbound message to WhatsApp (read receipt, webhook 200 for Cloud is the
 * exception: it answers at once and processes after) only after that promise resolves.
 */

/** An address on WhatsApp: a phone number (digits, E.164 without "+"), a group id, or a LID. */
export interface ChannelAddress {
  /** Digits of the phone number, or the group id, or "" when only a LID is known. */
  number: string;
  isGroup: boolean;
  /** WhatsApp's privacy id (without "@lid") when the provider saw one. */
  lid?: string;
}

export type InboundKind =
  | "text"
  | "image"
  | "audio"
  | "video"
  | "document"
  | "sticker"
  | "location"
  | "contact"
  | "reaction"
  /** Delivered, but not readable on this device (its body says so): a later message with its id replaces it. */
  | "unreadable";

export interface InboundMedia {
  mimetype: string;
  filename?: string;
  /** The size the sender announced, in bytes, when the protocol tells it before the download. */
  size?: number;
  /**
   * What the provider's `downloadMedia` needs to fetch the bytes later (JSON: it is stored in the
   * media job). With it, the message is stored at once with its media pending and a durable job
   * downloads the file; without it, `download()` is called before the message is stored.
   */
  ref?: MediaRef;
  /** Fetches the bytes now (providers without `ref`, and tests). */
  download(): Promise<Buffer>;
}

/** A provider's JSON handle on an inbound file (a Cloud media id, a Baileys media key and path...). */
export type MediaRef = Record<string, string | number | boolean | null>;

/** An inbound file being downloaded: its bytes as a stream, and its size when the source tells it first. */
export interface MediaDownload {
  stream: NodeJS.ReadableStream;
  size?: number;
}

/** A message, as every provider reports it. */
export interface InboundMessage {
  /** The provider's message id: unique per connection; a redelivery carries the same id. */
  id: string;
  chat: ChannelAddress;
  /** In a group: who wrote it. */
  participant?: ChannelAddress & { name?: string };
  fromMe: boolean;
  /** The sender's profile name (WhatsApp "push name"). */
  pushName?: string;
  timestamp: Date;
  kind: InboundKind;
  /** Text, caption, or a readable rendering (location link, contact name). */
  body: string;
  quotedId?: string;
  media?: InboundMedia;
  location?: { latitude: number; longitude: number; name?: string };
  vcard?: string;
  /** kind "reaction": the message reacted to and the emoji ("" removes a reaction). */
  reaction?: { targetId: string; emoji: string };
  isForwarded?: boolean;
}

export type ChannelEvent =
  | {
      type: "connection";
      status: WhatsappStatus;
      qrcode?: string;
      retries?: number;
      number?: string;
      /** Why a person must act (an ERR_* code: a token Meta refused, an account disabled): the admins are told. */
      reason?: string;
    }
  | { type: "message"; message: InboundMessage }
  | { type: "ack"; id: string; ack: number; error?: string }
  | { type: "edit"; id: string; body: string }
  | { type: "revoke"; id: string }
  | { type: "presence"; chat: ChannelAddress; presence: "composing" | "recording" | "available" }
  | { type: "contact"; address: ChannelAddress; name?: string; profilePicUrl?: string }
  | { type: "call"; from: ChannelAddress; isVideo: boolean; at: Date; callId: string }
  /**
   * Messages of the chats' past that the phone sent after the connection was linked (WhatsApp's
   * history sync), oldest or newest first: imported apart from live messages, never announced as
   * new. `done`: the phone said this was the last part (or a part of nothing).
   */
  | { type: "history"; messages: InboundMessage[]; done: boolean }
  /** The session ended for good (logged out on the phone): the pipeline wipes its stored state. */
  | { type: "loggedOut" };

export interface ChannelSink {
  emit(event: ChannelEvent): Promise<void>;
}

export interface OutboundMedia {
  kind: "image" | "audio" | "video" | "document" | "sticker";
  mimetype: string;
  filename: string;
  data: Buffer;
  /** audio: send as a voice note (PTT). */
  voiceNote?: boolean;
}

export interface OutboundMessage {
  /**
   * The id Atende chose for this message (WhatsApp style, e.g. "3EB0…"). A provider that lets the
   * sender choose ids (Baileys) sends with it, so the echo of our own send is recognised as the same
   * message; others return their own id.
   */
  id?: string;
  to: ChannelAddress;
  body: string;
  media?: OutboundMedia;
  /** The provider id of the message replied to. */
  quotedId?: string;
  /** Quoted message details some providers need to build the quote (Baileys). */
  quoted?: { id: string; fromMe: boolean; body: string };
  /**
   * An approved message template (Cloud API only: the one message that may open a conversation
   * outside the 24-hour window); `body` is then its text as the agent sees it.
   */
  template?: OutboundTemplate;
}

/**
 * A message template to send: its name, language, the values of its variables by part (with a NAMED
 * template's names), a media header's file and the buttons' values.
 */
export type OutboundTemplate = CloudTemplateSend;

/** Errors a provider raises when a send cannot go through; `retryable` decides the outbound queue's next step. */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** An ERR_* code the UI can show (ERR_SENDING_WAPP_MSG, ERR_WAPP_NOT_INITIALIZED, ...). */
    readonly code: string = "ERR_SENDING_WAPP_MSG",
    /** Seconds to wait before retrying, when the provider said (rate limits). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ChannelError";
  }
}

/** A live session of one connection, owned by this instance while it holds the lease. */
export interface ChannelSession {
  /** Sends and answers the provider's message id. Throws ChannelError. */
  send(message: OutboundMessage): Promise<{ id: string }>;
  react(to: ChannelAddress, targetId: string, targetFromMe: boolean, emoji: string): Promise<void>;
  edit(to: ChannelAddress, targetId: string, body: string): Promise<void>;
  deleteForEveryone(to: ChannelAddress, targetId: string, targetFromMe: boolean): Promise<void>;
  /** Shows the chat's "typing…" (or "recording audio…") to the customer; optional for a provider. */
  typing?(to: ChannelAddress, state: "composing" | "recording" | "paused"): Promise<void>;
  /**
   * Asks to hear the chat's presence (the customer typing or recording shows in the chat header),
   * as WhatsApp Web does when an agent opens the chat; optional for a provider.
   */
  watchPresence?(chat: ChannelAddress): Promise<void>;
  /** Read receipts for the given inbound message ids of one chat. */
  markRead(chat: ChannelAddress, ids: string[]): Promise<void>;
  /**
   * Declines an incoming call (the `call` event's callId) from that caller; nothing happens when
   * it already ended. A provider without a way to decline does nothing.
   */
  rejectCall(from: ChannelAddress, callId: string): Promise<void>;
  /** The canonical address of a number on WhatsApp, or null when it is not on WhatsApp. */
  checkNumber(number: string): Promise<ChannelAddress | null>;
  /**
   * `checkNumber` for many numbers at once, answered by the given number: a provider that asks
   * WhatsApp (Baileys) asks many per query, paced per connection, and remembers the answers; when
   * it must ask, the numbers of `ahead` (wanted next) ride along. Optional: `checkNumbers`
   * (numberChecks.ts) falls back to one `checkNumber` per number.
   */
  checkNumbers?(numbers: string[], ahead?: string[]): Promise<Map<string, ChannelAddress | null>>;
  profilePicture(address: ChannelAddress): Promise<string | null>;
  /**
   * An 8-character code that pairs the phone of this number (digits with country code) instead of
   * the QR code, while the session waits to be paired. Optional: a provider without pairing (Cloud
   * API) has none. Throws ChannelError (ERR_WAPP_PAIRING_NOT_WAITING when already paired).
   */
  requestPairingCode?(number: string): Promise<string>;
  /** Stops the session, keeping its credentials (another instance may resume it). */
  stop(): Promise<void>;
  /** Logs out on WhatsApp and forgets the credentials. */
  logout(): Promise<void>;
}

/** What a provider knows of the connection it runs. Secrets are here, never in DTOs. */
export interface ConnectionInfo {
  id: number;
  companyId: number;
  name: string;
  number: string;
  config: Record<string, string>;
}

/** A whatsapps row as its provider knows it: the one place that says which columns make it. */
export function connectionInfoOf(row: {
  id: number;
  companyId: number;
  name: string;
  number: string;
  providerConfig: Record<string, string>;
}): ConnectionInfo {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    number: row.number,
    config: row.providerConfig,
  };
}

/**
 * Durable key/value state of a provider's session (Baileys' credentials and signal keys), one row
 * per key, scoped to the connection. Values are JSON-serialisable (encode Buffers yourself).
 */
/**
 * The AuthStore category of the messages a session sent, by message id (a phone asking for one
 * again is answered from it): the database keeps these apart from the session's keys, and purges
 * the old ones.
 */
export const SENT_MESSAGES = "sent-message";

/**
 * The AuthStore category of what WhatsApp answered about a number (normalised digits): the jid it
 * uses for it, or null when it has no account, and when it was asked (`NumberCheck`). The database
 * keeps these for the whole company (every connection reads them), apart from the session's keys,
 * and purges those past `NUMBER_CHECK_FRESH_MS.found`.
 */
export const NUMBER_CHECKS = "number-check";

export interface NumberCheck {
  jid: string | null;
  /** When WhatsApp answered, in ms since the epoch. */
  at: number;
}

/**
 * How long an answer about a number stands before WhatsApp is asked again: an account is rarely
 * deleted, while a number without one may get one any day (a customer told to install WhatsApp).
 */
export const NUMBER_CHECK_FRESH_MS = { found: 7 * 24 * 3600_000, missing: 24 * 3600_000 } as const;

export interface AuthStore {
  get(category: string, ids: string[]): Promise<Record<string, unknown>>;
  /** A null value deletes the key. Applied in one transaction. */
  set(entries: { category: string; id: string; value: unknown }[]): Promise<void>;
  clear(): Promise<void>;
}

export interface ChannelProvider {
  readonly name: ProviderName;
  start(connection: ConnectionInfo, sink: ChannelSink, store: AuthStore): Promise<ChannelSession>;
  /**
   * Opens an inbound file by the `ref` its message carried, on any instance (no live session
   * needed). A source that announces the size first throws MediaTooLarge (storage/media.ts) over
   * `maxBytes` before reading a byte. Throws ChannelError (retryable or not) when it cannot.
   */
  downloadMedia?(connection: ConnectionInfo, ref: MediaRef, maxBytes: number): Promise<MediaDownload>;
}
