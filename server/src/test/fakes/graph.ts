import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { templateRefusal } from "./graphTemplates.js";

/**
 * A local stand-in for Meta's Graph API (WhatsApp Cloud API), started by a test on 127.0.0.1 with
 * a random port. It speaks the documented payloads: send (POST /{phone-number-id}/messages, to a
 * number or a business-scoped user id, templates included), mark as read, media upload (multipart),
 * media info (GET /{media-id}), media download (GET url with the bearer token), the phone number
 * (GET /{phone-number-id}) and the templates (GET /{waba-id}/message_templates, paged), and answers
 * errors in Graph's shape. It records every request and can be told to fail, or to answer late, the
 * next matching requests. Like Graph it refuses a template send whose components do not fit the
 * template it knows (132000; 132001 for one it does not know), a token it was told has expired (190,
 * subcode 463) and, once told to keep customer-service windows, a free-form message to a customer
 * who has not written in 24 hours (131047).
 */

export interface RecordedGraphRequest {
  method: string;
  /** The path without the version prefix: "/123/messages", "/media-1", "/download/media-1". */
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** JSON bodies, parsed. */
  json?: unknown;
  /** Multipart bodies: the text fields, and the file part. */
  form?: { fields: Record<string, string>; file?: { name: string; type: string; data: Buffer } };
  /** The message id (sends) or media id (uploads) the fake answered. */
  answeredId?: string;
}

/** Documented Graph errors the fake knows by code: HTTP status, message and error_data.details. */
const KNOWN_ERRORS: Record<number, { status: number; message: string; type: string; details?: string }> = {
  100: { status: 400, message: "(#100) Invalid parameter", type: "OAuthException" },
  190: {
    status: 401,
    message: "Error validating access token: Session has expired.",
    type: "OAuthException",
  },
  130429: {
    status: 400,
    message: "(#130429) Rate limit hit",
    type: "OAuthException",
    details: "Cloud API message throughput has been reached.",
  },
  131026: {
    status: 400,
    message: "(#131026) Message undeliverable",
    type: "OAuthException",
    details: "Unable to deliver message.",
  },
  132000: {
    status: 400,
    message: "(#132000) Number of parameters does not match the expected number of params",
    type: "OAuthException",
    details: "body: number of localizable_params (1) does not match the expected number of params (2)",
  },
  132001: {
    status: 404,
    message: "(#132001) Template name does not exist in the translation",
    type: "OAuthException",
    details: "template name (x) does not exist in pt_BR",
  },
  131047: {
    status: 400,
    message: "(#131047) Re-engagement message",
    type: "OAuthException",
    details:
      "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
  },
};

export interface ProgrammedFailure {
  /** A Graph error code (the body is Graph's error shape), or omit with `status` for a bare HTTP error. */
  code?: number;
  /** Graph's error_subcode (463: the token's session has expired). */
  subcode?: number;
  status?: number;
  message?: string;
  details?: string;
  /** Sent as a Retry-After header. */
  retryAfter?: string;
  /** Drops the connection without answering (a network error). */
  network?: boolean;
  /** Only requests whose path ends with this fail; others pass. */
  pathEndsWith?: string;
  /**
   * Handles the request as usual (a send goes out) but answers only after this many milliseconds:
   * a Graph API slower than the caller's timeout. No `code`/`status`/`network` with it.
   */
  delayMs?: number;
}

/** A template as GET /{waba-id}/message_templates lists it. */
export interface FakeTemplate {
  id?: string;
  name: string;
  language: string;
  status: "APPROVED" | "PENDING" | "REJECTED" | "PAUSED" | "DISABLED";
  category: string;
  parameter_format?: "POSITIONAL" | "NAMED";
  components: {
    type: string;
    format?: string;
    text?: string;
    buttons?: { type: string; text: string; url?: string }[];
  }[];
}

export interface FakeGraph {
  /** The base URL with the version, as GRAPH_API_URL: http://127.0.0.1:<port>/v21.0 */
  url: string;
  requests: RecordedGraphRequest[];
  /** The access token the fake accepts; anything else answers error 190. */
  accessToken: string;
  /** Queues a failure for the next matching request (failures are used in order, once each). */
  failNext(failure: ProgrammedFailure): void;
  /** Stores media as if a customer had sent it; answers its media id. */
  addMedia(data: Buffer, mimeType: string): string;
  /** Media uploaded through the fake, by id. */
  media: Map<string, { data: Buffer; mimeType: string }>;
  /** Business numbers by phone-number id (GET /{phone-number-id}); unknown ids answer error 100. */
  phoneNumbers: Map<string, { display_phone_number: string; verified_name: string }>;
  /** Message templates by WABA id; the list answers them two per page, as Graph pages them. */
  templates: Map<string, FakeTemplate[]>;
  /** From now on the access token is expired: every call with it answers 190 (subcode 463). */
  expireToken(): void;
  /**
   * Keeps WhatsApp's customer-service windows on the clock given: a free-form message (not a
   * template) to a recipient who has not written within 24 hours answers 131047.
   */
  keepWindows(now: () => Date): void;
  /** A customer wrote (the test delivers the webhook of it): their window opens for 24 hours. */
  customerWrote(recipient: string, at: Date): void;
  close(): Promise<void>;
}

export async function startFakeGraph(
  opts: { accessToken?: string; version?: string; port?: number } = {},
): Promise<FakeGraph> {
  const accessToken = opts.accessToken ?? `token-${crypto.randomBytes(6).toString("hex")}`;
  const version = opts.version ?? "v21.0";
  const requests: RecordedGraphRequest[] = [];
  const failures: ProgrammedFailure[] = [];
  const media = new Map<string, { data: Buffer; mimeType: string }>();
  const phoneNumbers = new Map<string, { display_phone_number: string; verified_name: string }>();
  const templates = new Map<string, FakeTemplate[]>();
  let origin = "";
  let expired = false;
  let windowClock: (() => Date) | null = null;
  const lastWrote = new Map<string, Date>();
  let lastMediaId = 1_000_000_000_000 + crypto.randomInt(1_000_000);

  const addMedia = (data: Buffer, mimeType: string) => {
    const id = String(++lastMediaId);
    media.set(id, { data, mimeType });
    return id;
  };

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const [rawPath, rawQuery] = (req.url ?? "/").split("?");
    const path = rawPath!.replace(new RegExp(`^/${version}`), "");
    const query = new URLSearchParams(rawQuery ?? "");
    const recorded: RecordedGraphRequest = {
      method: req.method ?? "GET",
      path,
      authorization: req.headers.authorization,
      contentType: req.headers["content-type"],
    };
    try {
      if (recorded.contentType?.startsWith("application/json")) recorded.json = JSON.parse(raw.toString());
      if (recorded.contentType?.startsWith("multipart/form-data"))
        recorded.form = await parseMultipart(raw, recorded.contentType);
    } catch {
      // Recorded as is; the handler answers the bad request below.
    }
    requests.push(recorded);

    const failureIndex = failures.findIndex((f) => !f.pathEndsWith || path.endsWith(f.pathEndsWith));
    let delayMs = 0;
    if (failureIndex >= 0) {
      const [failure] = failures.splice(failureIndex, 1);
      if (failure!.delayMs !== undefined) delayMs = failure!.delayMs;
      else if (failure!.network) return req.socket.destroy();
      else return answerFailure(res, failure!);
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (recorded.authorization !== `Bearer ${accessToken}`) return answerFailure(res, { code: 190 });
    if (expired)
      return answerFailure(res, {
        code: 190,
        subcode: 463,
        message: "Error validating access token: Session has expired on Friday, 01-Jan-27 00:00:00 PST.",
      });

    const send = /^\/([^/]+)\/messages$/.exec(path);
    const templateList = /^\/([^/]+)\/message_templates$/.exec(path);
    if (req.method === "GET" && templateList) {
      const all = (templates.get(templateList[1]!) ?? []).filter(
        (t) => !query.get("status") || t.status === query.get("status"),
      );
      const after = Number(query.get("after") ?? 0);
      const page = all.slice(after, after + 2);
      const next = after + 2 < all.length;
      const nextQuery = new URLSearchParams(query);
      nextQuery.set("after", String(after + 2));
      return json(res, 200, {
        data: page.map((t, i) => ({ id: t.id ?? `tpl-${after + i}`, ...t })),
        paging: next ? { next: `${origin}/${version}${path}?${nextQuery}` } : {},
      });
    }
    const phone = req.method === "GET" ? phoneNumbers.get(path.slice(1)) : undefined;
    if (phone) return json(res, 200, { id: path.slice(1), ...phone });
    const upload = /^\/([^/]+)\/media$/.exec(path);
    const download = /^\/download\/([^/]+)$/.exec(path);
    if (req.method === "POST" && send) {
      const refusal = templateRefusal(recorded.json, [...templates.values()].flat());
      if (refusal) return answerFailure(res, refusal);
      const message = (recorded.json ?? {}) as Record<string, unknown>;
      const to = String(message.to ?? message.recipient ?? "");
      const wrote = lastWrote.get(to);
      const freeForm = message.status !== "read" && message.type !== "template";
      if (windowClock && freeForm && (!wrote || windowClock().getTime() - wrote.getTime() >= DAY_MS))
        return answerFailure(res, { code: 131047 });
      return answerSend(res, recorded);
    }
    if (req.method === "POST" && upload) {
      const file = recorded.form?.file;
      if (!file || recorded.form?.fields.messaging_product !== "whatsapp")
        return answerFailure(res, { code: 100 });
      recorded.answeredId = addMedia(file.data, recorded.form?.fields.type ?? file.type);
      return json(res, 200, { id: recorded.answeredId });
    }
    if (req.method === "GET" && download) {
      const item = media.get(download[1]!);
      if (!item) return json(res, 404, { error: "not found" });
      res.writeHead(200, { "content-type": item.mimeType, "content-length": item.data.length });
      return res.end(item.data);
    }
    const mediaId = /^\/([^/]+)$/.exec(path)?.[1];
    const item = mediaId ? media.get(mediaId) : undefined;
    if (req.method === "GET" && mediaId && item) {
      return json(res, 200, {
        messaging_product: "whatsapp",
        url: `${origin}/download/${mediaId}`,
        mime_type: item.mimeType,
        sha256: crypto.createHash("sha256").update(item.data).digest("hex"),
        file_size: String(item.data.length),
        id: mediaId,
      });
    }
    return answerFailure(res, {
      code: 100,
      message: `Unsupported ${req.method?.toLowerCase()} request. Object with ID '${mediaId ?? path}' does not exist.`,
    });
  });

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/${version}`,
    requests,
    accessToken,
    failNext: (failure) => failures.push(failure),
    addMedia,
    media,
    phoneNumbers,
    templates,
    expireToken: () => {
      expired = true;
    },
    keepWindows: (now) => {
      windowClock = now;
    },
    customerWrote: (recipient, at) => lastWrote.set(recipient, at),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const DAY_MS = 24 * 3600_000;

function answerSend(res: http.ServerResponse, recorded: RecordedGraphRequest) {
  const message = (recorded.json ?? {}) as Record<string, unknown>;
  if (message.messaging_product !== "whatsapp") return answerFailure(res, { code: 100 });
  if (message.status === "read") {
    if (typeof message.message_id !== "string") return answerFailure(res, { code: 100 });
    return json(res, 200, { success: true });
  }
  // A number in `to`, or a business-scoped user id ("BR.1502576394655843") in `recipient`.
  const validRecipient =
    (typeof message.to === "string" && /^\+?\d{5,15}$/.test(message.to)) ||
    (message.to === undefined &&
      typeof message.recipient === "string" &&
      /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/.test(message.recipient));
  if (!validRecipient || typeof message.type !== "string" || !(message.type in message))
    return answerFailure(res, { code: 100 });
  recorded.answeredId = `wamid.${crypto.randomBytes(12).toString("base64url")}`;
  return json(res, 200, {
    messaging_product: "whatsapp",
    contacts: [
      message.to !== undefined
        ? { input: message.to, wa_id: message.to }
        : { input: message.recipient, user_id: message.recipient },
    ],
    messages: [{ id: recorded.answeredId }],
  });
}

function answerFailure(res: http.ServerResponse, failure: ProgrammedFailure) {
  const headers: Record<string, string> = failure.retryAfter ? { "retry-after": failure.retryAfter } : {};
  if (failure.code === undefined) {
    res.writeHead(failure.status ?? 500, { ...headers, "content-type": "text/html" });
    return res.end("<html><body>Service Unavailable</body></html>");
  }
  const known = KNOWN_ERRORS[failure.code];
  const details = failure.details ?? known?.details;
  return json(
    res,
    failure.status ?? known?.status ?? 400,
    {
      error: {
        message: failure.message ?? known?.message ?? `(#${failure.code}) Error`,
        type: known?.type ?? "OAuthException",
        code: failure.code,
        ...(failure.subcode ? { error_subcode: failure.subcode } : {}),
        ...(details ? { error_data: { messaging_product: "whatsapp", details } } : {}),
        fbtrace_id: crypto.randomBytes(9).toString("base64url"),
      },
    },
    headers,
  );
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Multipart parsing by the platform's own parser (undici), as Graph would read the form. */
async function parseMultipart(raw: Buffer, contentType: string): Promise<RecordedGraphRequest["form"]> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { "content-type": contentType },
  }).formData();
  const fields: Record<string, string> = {};
  let file: NonNullable<RecordedGraphRequest["form"]>["file"];
  for (const [name, value] of form.entries()) {
    if (typeof value === "string") fields[name] = value;
    else if (name === "file")
      file = { name: value.name, type: value.type, data: Buffer.from(await value.arrayBuffer()) };
  }
  return { fields, file };
}

/** A "messages" webhook as Meta posts it, for tests to push more entries or changes into. */
export interface CloudWebhookPayload {
  object: "whatsapp_business_account";
  entry: { id: string; changes: { field: string; value: Record<string, unknown> }[] }[];
}

/** One entry with one "messages" change for the business number `phoneNumberId`, carrying `value`'s fields. */
export function cloudWebhookPayload(
  phoneNumberId: string,
  value: Record<string, unknown>,
): CloudWebhookPayload {
  const metadata = { display_phone_number: "15550783881", phone_number_id: phoneNumberId };
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata, ...value } }],
      },
    ],
  };
}
