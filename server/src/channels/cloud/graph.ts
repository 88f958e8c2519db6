import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { type Outbound, type OutboundFetch, createOutbound } from "../../lib/outbound.js";
import { ChannelError } from "../provider.js";
import { type GraphErrorBody, channelErrorFromGraph, channelErrorFromNetwork } from "./graphErrors.js";

/**
 * A small client of Meta's Graph API for the WhatsApp Cloud API: send, read receipts, media upload
 * and download. Every failure is a ChannelError (see graphErrors.ts); the access token never
 * appears in an error message.
 */

/** What one Cloud API connection authenticates with. */
export interface CloudCredentials {
  phoneNumberId: string;
  accessToken: string;
}

/**
 * A template's parameter (Meta's template message reference): text (with `parameter_name` in a
 * NAMED template), a media header's file, or a quick reply button's payload.
 */
export type GraphTemplateParameter =
  | { type: "text"; text: string; parameter_name?: string }
  | { type: "image"; image: GraphMediaObject }
  | { type: "video"; video: GraphMediaObject }
  | { type: "document"; document: GraphMediaObject }
  | { type: "payload"; payload: string };

/** The components of a template send: the values of its variables by part, and its buttons' values. */
export interface GraphTemplateComponent {
  type: "header" | "body" | "button";
  /** A button's kind: "url" (the {{1}} of its address) or "quick_reply" (its payload). */
  sub_type?: "url" | "quick_reply";
  /** A button's position among the template's buttons, as a string ("0"). */
  index?: string;
  parameters: GraphTemplateParameter[];
}

/** `template` of a send: POST /{phone-number-id}/messages with type "template". */
export interface GraphTemplateSend {
  name: string;
  language: { code: string };
  components?: GraphTemplateComponent[];
}

/** A message template as GET /{waba-id}/message_templates lists it (the fields we ask for). */
export interface GraphTemplate {
  id?: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  /** "NAMED" when its variables are {{names}}; POSITIONAL ({{1}}) when absent. */
  parameter_format?: string;
  components?: {
    type: string;
    format?: string;
    text?: string;
    buttons?: { type: string; text?: string; url?: string }[];
  }[];
}

/** GET /{phone-number-id}: the number a token can reach (the check start() makes). */
export interface GraphPhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

export type GraphMediaType = "image" | "audio" | "video" | "document" | "sticker";

/** A media object of a send: an uploaded media id (or a public link), with caption and file name where allowed. */
export interface GraphMediaObject {
  id?: string;
  link?: string;
  caption?: string;
  filename?: string;
  /** An audio as a voice note (Ogg/Opus only): auto-downloaded, with a transcript, shown as a recording. */
  voice?: boolean;
}

export type GraphContent =
  | { type: "text"; text: { body: string; preview_url?: boolean } }
  | { type: "reaction"; reaction: { message_id: string; emoji: string } }
  | { type: "template"; template: GraphTemplateSend }
  | { type: GraphMediaType; media: GraphMediaObject };

export interface GraphOutboundMessage {
  /** The recipient's number, digits only; "" when only the business-scoped user id is known. */
  to: string;
  /**
   * The customer's business-scoped user id (BSUID, "BR.1502576394655843"): the address when the
   * number is withheld (sent as `recipient` instead of `to`).
   */
  userId?: string;
  /**
   * Our own id of the message, sent as `biz_opaque_callback_data`: Meta echoes it in the status
   * webhooks, which is how a send whose answer was lost (a timeout) is recognised.
   */
  callbackData?: string;
  /** The id of the message replied to (sent as `context.message_id`). */
  replyTo?: string;
  content: GraphContent;
}

/** GET /{media-id}: where to download the media for the next 5 minutes, and what it is. */
export interface GraphMediaInfo {
  id: string;
  url: string;
  mime_type: string;
  sha256?: string;
  file_size?: number | string;
}

export interface GraphClient {
  /** POST /{phone-number-id}/messages; answers the new message's id (wamid). */
  sendMessage(creds: CloudCredentials, message: GraphOutboundMessage): Promise<{ id: string }>;
  /** POST /{phone-number-id}/messages with status "read". */
  markRead(creds: CloudCredentials, messageId: string): Promise<void>;
  /** POST /{phone-number-id}/media (multipart); answers the media id to send by. */
  uploadMedia(
    creds: CloudCredentials,
    file: { data: Buffer; mimetype: string; filename: string },
  ): Promise<{ id: string }>;
  mediaInfo(accessToken: string, mediaId: string): Promise<GraphMediaInfo>;
  /** GET /{phone-number-id}: checks the token reaches the number (ERR_WAPP_NOT_INITIALIZED when not). */
  phoneNumber(creds: CloudCredentials): Promise<GraphPhoneNumber>;
  /** GET /{waba-id}/message_templates, every status, every page. */
  templates(accessToken: string, wabaId: string): Promise<GraphTemplate[]>;
  /** GET the URL from mediaInfo with the bearer token; answers the bytes. */
  downloadMedia(accessToken: string, url: string): Promise<Buffer>;
  /** GET the URL from mediaInfo as a stream (never whole in memory), with its Content-Length when given. */
  openMedia(accessToken: string, url: string): Promise<{ stream: NodeJS.ReadableStream; size?: number }>;
  /** mediaInfo then downloadMedia. */
  fetchMedia(accessToken: string, mediaId: string): Promise<Buffer>;
}

export interface GraphClientOptions {
  /** GRAPH_API_URL, version included: https://graph.facebook.com/v21.0 */
  baseUrl: string;
  /** The app's one guarded client (lib/outbound.ts); default: one allowing no private address. */
  outbound?: Outbound;
  /** Default: graphFetch of `outbound`. Tests' fakes of the network. */
  fetch?: typeof fetch | OutboundFetch;
  timeoutMs?: number;
}

interface GraphRequest {
  method: "GET" | "POST";
  url: string;
  accessToken: string;
  json?: unknown;
  form?: FormData;
  /** The ERR_* code of a final failure that is not one of Graph's specific ones. */
  failureCode?: string;
  /** Overrides the client's timeout (a large download). */
  timeoutMs?: number;
  /**
   * A request that must not be repeated blindly (a send: Graph has no idempotency key). When it may
   * have reached Graph without our reading the answer (a timeout, a connection dropped after the
   * request went), it fails as ERR_WAPP_SEND_UNKNOWN, final, instead of retryable.
   */
  notIdempotent?: boolean;
}

/** The most read of one Graph answer: above WhatsApp's largest media (100 MB). */
const GRAPH_MAX_BYTES = 128 * 1024 * 1024;

/**
 * Graph's fetch through the guarded client: Graph's own origin is the operator's (GRAPH_API_URL);
 * the media URLs Graph answers with are on other hosts, reached only at
 * public addresses. WhatsApp's largest media is 100 MB.
 */
export function graphFetch(outbound: Outbound, baseUrl: string): OutboundFetch {
  return outbound.trusting(baseUrl.replace(/\/+$/, ""), {
    maxBytes: GRAPH_MAX_BYTES,
    timeoutMs: 600_000,
    redirects: 3,
  });
}

export function createGraphClient(opts: GraphClientOptions): GraphClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const doFetch = opts.fetch ?? graphFetch(opts.outbound ?? createOutbound(), baseUrl);

  /** Runs one request and reads its answer with `read`; anything that goes wrong becomes a ChannelError. */
  async function call<T>(req: GraphRequest, read: (res: Response) => Promise<T>): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${req.accessToken}` };
    if (req.json !== undefined) headers["content-type"] = "application/json";
    try {
      const res = await doFetch(req.url, {
        method: req.method,
        headers,
        body: req.json !== undefined ? JSON.stringify(req.json) : req.form,
        signal: AbortSignal.timeout(req.timeoutMs ?? timeoutMs),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as GraphErrorBody | null;
        throw channelErrorFromGraph(res.status, body, res.headers.get("retry-after"), req.failureCode);
      }
      return await read(res);
    } catch (err) {
      if (err instanceof ChannelError) throw err;
      throw channelErrorFromNetwork(err, `Graph API ${req.method} ${pathOf(req.url)}`, req.failureCode, {
        notIdempotent: req.notIdempotent,
      });
    }
  }

  const messagesUrl = (creds: CloudCredentials) =>
    `${baseUrl}/${encodeURIComponent(creds.phoneNumberId)}/messages`;

  const client: GraphClient = {
    async sendMessage(creds, message) {
      const answer = await call(
        {
          method: "POST",
          url: messagesUrl(creds),
          accessToken: creds.accessToken,
          json: wireMessage(message),
          notIdempotent: true,
        },
        (res) => res.json() as Promise<{ messages?: { id?: string }[] }>,
      );
      const id = answer.messages?.[0]?.id;
      if (!id) throw new ChannelError("Graph API accepted the message without an id", false);
      return { id };
    },

    async markRead(creds, messageId) {
      await call(
        {
          method: "POST",
          url: messagesUrl(creds),
          accessToken: creds.accessToken,
          json: { messaging_product: "whatsapp", status: "read", message_id: messageId },
        },
        async (res) => {
          await res.body?.cancel(); // nothing to read: the socket goes back now, not at the deadline
        },
      );
    },

    async uploadMedia(creds, file) {
      const form = new FormData();
      // Graph wants the bare type ("audio/ogg"), not its parameters ("; codecs=opus").
      const type = file.mimetype.split(";")[0]!.trim();
      form.append("messaging_product", "whatsapp");
      form.append("type", type);
      form.append("file", new Blob([new Uint8Array(file.data)], { type }), file.filename);
      const answer = await call(
        {
          method: "POST",
          url: `${baseUrl}/${encodeURIComponent(creds.phoneNumberId)}/media`,
          accessToken: creds.accessToken,
          form,
        },
        (res) => res.json() as Promise<{ id?: string }>,
      );
      if (!answer.id) throw new ChannelError("Graph API accepted the media without an id", false);
      return { id: answer.id };
    },

    async mediaInfo(accessToken, mediaId) {
      const info = await call(
        {
          method: "GET",
          url: `${baseUrl}/${encodeURIComponent(mediaId)}`,
          accessToken,
          failureCode: "ERR_WAPP_DOWNLOAD_MEDIA",
        },
        (res) => res.json() as Promise<Partial<GraphMediaInfo>>,
      );
      if (!info.url)
        throw new ChannelError(
          `Graph API gave no URL for media ${mediaId}`,
          false,
          "ERR_WAPP_DOWNLOAD_MEDIA",
        );
      return { mime_type: "application/octet-stream", ...info, id: info.id ?? mediaId, url: info.url };
    },

    phoneNumber(creds) {
      const fields = "id,display_phone_number,verified_name";
      return call(
        {
          method: "GET",
          url: `${baseUrl}/${encodeURIComponent(creds.phoneNumberId)}?fields=${fields}`,
          accessToken: creds.accessToken,
          failureCode: "ERR_WAPP_NOT_INITIALIZED",
        },
        (res) => res.json() as Promise<GraphPhoneNumber>,
      );
    },

    async templates(accessToken, wabaId) {
      const fields = "id,name,language,status,category,parameter_format,components";
      let url: string | undefined =
        `${baseUrl}/${encodeURIComponent(wabaId)}/message_templates?limit=100&fields=${fields}`;
      const list: GraphTemplate[] = [];
      // Graph pages with `paging.next` (a full URL); a WABA rarely has more than a few pages.
      for (let page = 0; url && page < 20; page++) {
        const answer: { data?: GraphTemplate[]; paging?: { next?: string } } = await call(
          { method: "GET", url, accessToken, failureCode: "ERR_WAPP_TEMPLATES" },
          (res) => res.json() as Promise<{ data?: GraphTemplate[]; paging?: { next?: string } }>,
        );
        list.push(...(answer.data ?? []));
        url = answer.paging?.next;
      }
      return list;
    },

    downloadMedia(accessToken, url) {
      return call({ method: "GET", url, accessToken, failureCode: "ERR_WAPP_DOWNLOAD_MEDIA" }, async (res) =>
        Buffer.from(await res.arrayBuffer()),
      );
    },

    openMedia(accessToken, url) {
      return call(
        // The body is read after the answer: the whole download may take up to ten minutes.
        { method: "GET", url, accessToken, failureCode: "ERR_WAPP_DOWNLOAD_MEDIA", timeoutMs: 600_000 },
        async (res) => {
          if (!res.body) throw new ChannelError("Graph API answered the media without a body", true);
          const length = Number(res.headers.get("content-length"));
          return {
            stream: Readable.fromWeb(res.body as WebReadableStream),
            ...(Number.isFinite(length) && length > 0 ? { size: length } : {}),
          };
        },
      );
    },

    async fetchMedia(accessToken, mediaId) {
      const info = await client.mediaInfo(accessToken, mediaId);
      return client.downloadMedia(accessToken, info.url);
    },
  };
  return client;
}

/** The URL's path for error messages: never its query (media URLs carry a signed hash). */
function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : "(invalid URL)";
}

/** The documented JSON of POST /{phone-number-id}/messages. */
function wireMessage(message: GraphOutboundMessage): Record<string, unknown> {
  const { content } = message;
  const payload =
    "media" in content
      ? { [content.type]: content.media }
      : content.type === "text"
        ? { text: content.text }
        : content.type === "template"
          ? { template: content.template }
          : { reaction: content.reaction };
  // The number when known; a customer who withholds it is addressed by the business-scoped user id.
  const address = message.to ? { to: message.to } : { recipient: message.userId ?? "" };
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    ...address,
    ...(message.replyTo ? { context: { message_id: message.replyTo } } : {}),
    type: content.type,
    ...payload,
    ...(message.callbackData ? { biz_opaque_callback_data: message.callbackData } : {}),
  };
}
