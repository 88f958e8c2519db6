import { normalizeNumber } from "../numbers.js";
import {
  type ChannelAddress,
  type ChannelProvider,
  type ChannelSession,
  type ChannelSink,
  ChannelError,
  type ConnectionInfo,
  type OutboundMessage,
  type OutboundTemplate,
} from "../provider.js";
import { MediaTooLarge } from "../../storage/media.js";
import { cloudMediaProblem } from "./mediaLimits.js";
import { TOKEN_REFUSED } from "./graphErrors.js";
import {
  type CloudCredentials,
  type GraphClient,
  type GraphContent,
  type GraphTemplateComponent,
  createGraphClient,
} from "./graph.js";

/**
 * The official WhatsApp Cloud API as a ChannelProvider. There is no socket to keep: a session is
 * the connection's credentials and the Graph client. Inbound events arrive by webhook (webhook.ts),
 * not through the session.
 *
 * Addresses: a customer is reached by number; one who withholds it (WhatsApp usernames) by Meta's
 * business-scoped user id (BSUID, "BR.1502576394655843"), which rides in ChannelAddress.lid, the
 * address field for "a WhatsApp id other than the number" (Baileys keeps its LIDs there: digits only,
 * so the two never meet).
 */

export interface CloudProviderOptions {
  /** GRAPH_API_URL, version included. */
  graphUrl: string;
  fetch?: typeof fetch;
  /** How long one Graph call may take (default 30 s). */
  timeoutMs?: number;
  /** How long start() waits before checking the token again after Graph could not be reached (default 30 s). */
  recheckMs?: number;
}

/** A business-scoped user id: two-letter country, a dot, maybe "ENT.", then up to 128 letters and digits. */
export const BSUID_PATTERN = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

/** The connection's Cloud API credentials, or null when providerConfig lacks them. */
export function cloudCredentialsOf(connection: Pick<ConnectionInfo, "config">): CloudCredentials | null {
  const { phoneNumberId, accessToken } = connection.config;
  return phoneNumberId && accessToken ? { phoneNumberId, accessToken } : null;
}

export function cloudProvider(opts: CloudProviderOptions): ChannelProvider {
  const graph = createGraphClient({ baseUrl: opts.graphUrl, fetch: opts.fetch, timeoutMs: opts.timeoutMs });
  const recheckMs = opts.recheckMs ?? 30_000;
  return {
    name: "cloud",
    async start(connection, sink) {
      const creds = cloudCredentialsOf(connection);
      if (!creds) {
        await sink.emit({ type: "connection", status: "DISCONNECTED" });
        return cloudSession(graph, null, () => undefined, sink);
      }
      const checker = tokenChecker(graph, creds, connection, sink, recheckMs);
      await checker.check();
      return cloudSession(graph, creds, checker.stop, sink);
    },
    // Media info first (its announced size is checked before a byte is read), then the download.
    async downloadMedia(connection, ref, maxBytes) {
      const creds = cloudCredentialsOf(connection);
      if (!creds)
        throw new ChannelError("Cloud API connection without accessToken", false, "ERR_WAPP_NOT_INITIALIZED");
      if (typeof ref.mediaId !== "string") throw new ChannelError("no Cloud media id", false);
      const info = await graph.mediaInfo(creds.accessToken, ref.mediaId);
      const announced = Number(info.file_size);
      const size = Number.isFinite(announced) && announced >= 0 ? announced : undefined;
      if (size !== undefined && size > maxBytes) throw new MediaTooLarge(maxBytes);
      return {
        ...(await graph.openMedia(creds.accessToken, info.url)),
        ...(size !== undefined ? { size } : {}),
      };
    },
  };
}

/**
 * CONNECTED only once Graph accepted the token (GET /{phone-number-id}); a token Graph refuses is
 * DISCONNECTED with its reason (a person must set a new one: the admins are told); Graph out of reach
 * keeps the connection OPENING and checks again after `recheckMs`, until the session stops.
 */
function tokenChecker(
  graph: GraphClient,
  creds: CloudCredentials,
  connection: ConnectionInfo,
  sink: ChannelSink,
  recheckMs: number,
) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  async function check(): Promise<void> {
    timer = null;
    try {
      const phone = await graph.phoneNumber(creds);
      if (stopped) return;
      const number = normalizeNumber(phone.display_phone_number ?? "") || normalizeNumber(connection.number);
      await sink.emit({ type: "connection", status: "CONNECTED", ...(number ? { number } : {}) });
    } catch (err) {
      if (stopped) return;
      if (err instanceof ChannelError && err.retryable) {
        await sink.emit({ type: "connection", status: "OPENING" });
        timer = setTimeout(() => void check().catch(() => undefined), recheckMs);
        timer.unref();
        return;
      }
      const reason =
        err instanceof ChannelError && err.code === TOKEN_REFUSED ? { reason: TOKEN_REFUSED } : {};
      await sink.emit({ type: "connection", status: "DISCONNECTED", ...reason });
    }
  }
  return {
    check,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** How Graph addresses a customer: the number, else the business-scoped user id. */
function recipientOf(to: ChannelAddress): { to: string; userId?: string } {
  if (to.number) return { to: to.number };
  if (to.lid && BSUID_PATTERN.test(to.lid)) return { to: "", userId: to.lid };
  throw new ChannelError("The contact has neither a number nor a business-scoped user id", false);
}

function cloudSession(
  graph: GraphClient,
  creds: CloudCredentials | null,
  stopChecks: () => void,
  sink: ChannelSink,
): ChannelSession {
  let refused = false;
  /**
   * A call Graph refuses for its token (190, expired or revoked) leaves the connection DISCONNECTED
   * with the reason, once: nothing more can go until a person sets a new token, and the admins are told.
   */
  async function watched<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ChannelError && err.code === TOKEN_REFUSED && !refused) {
        refused = true;
        stopChecks();
        await sink.emit({ type: "connection", status: "DISCONNECTED", reason: TOKEN_REFUSED });
      }
      throw err;
    }
  }
  const requireCreds = (): CloudCredentials => {
    if (creds) return creds;
    throw new ChannelError(
      "Cloud API connection without phoneNumberId or accessToken",
      false,
      "ERR_WAPP_NOT_INITIALIZED",
    );
  };
  return {
    async send(message) {
      const credentials = requireCreds();
      return watched(async () => {
        const content = await outboundContent(graph, credentials, message);
        return graph.sendMessage(credentials, {
          ...recipientOf(message.to),
          replyTo: message.quotedId,
          content,
          ...(message.id ? { callbackData: message.id } : {}),
        });
      });
    },
    async react(to, targetId, _targetFromMe, emoji) {
      // An empty emoji removes the reaction, as on WhatsApp.
      const credentials = requireCreds();
      await watched(() =>
        graph.sendMessage(credentials, {
          ...recipientOf(to),
          content: { type: "reaction", reaction: { message_id: targetId, emoji } },
        }),
      );
    },
    async edit() {
      throw new ChannelError(
        "The WhatsApp Cloud API cannot edit a sent message",
        false,
        "ERR_SENDING_WAPP_MSG",
      );
    },
    async deleteForEveryone() {
      throw new ChannelError(
        "The WhatsApp Cloud API cannot delete a sent message",
        false,
        "ERR_DELETE_WAPP_MSG",
      );
    },
    async markRead(_chat, ids) {
      const credentials = requireCreds();
      for (const id of ids) await watched(() => graph.markRead(credentials, id));
    },
    // The Cloud API reports no calls to decline (nor any endpoint to decline one): nothing to do.
    async rejectCall() {},
    // The Cloud API has no lookup: a number not on WhatsApp fails when a message is sent to it.
    async checkNumber(number) {
      const normalized = normalizeNumber(number);
      return normalized ? { number: normalized, isGroup: false } : null;
    },
    async profilePicture() {
      return null;
    },
    async stop() {
      stopChecks();
    },
    async logout() {
      stopChecks();
    },
  };
}

/**
 * Text goes as text (with a link preview when it has a link); media is uploaded first and sent by
 * its id. Captions exist for image, video and document only; a voice note (an Ogg/Opus recording,
 * as the composer makes every audio) goes with `voice: true`, so WhatsApp shows it as a recording,
 * downloads it by itself and transcribes it.
 */
async function outboundContent(
  graph: GraphClient,
  creds: CloudCredentials,
  message: OutboundMessage,
): Promise<GraphContent> {
  const { media, body, template } = message;
  if (template) return { type: "template", template: templateSend(template) };
  if (!media) return { type: "text", text: { body, preview_url: /https?:\/\//i.test(body) } };
  // Refused before the upload: a type or size the Cloud API does not take cannot go by retrying.
  const problem = cloudMediaProblem(media.kind, media.mimetype, media.data.length);
  if (problem)
    throw new ChannelError(
      `the Cloud API does not take this ${media.kind} (${media.mimetype})`,
      false,
      problem,
    );
  const uploaded = await graph.uploadMedia(creds, media);
  const canCaption = media.kind === "image" || media.kind === "video" || media.kind === "document";
  const voice = media.kind === "audio" && media.voiceNote === true && isOggOpus(media.mimetype);
  return {
    type: media.kind,
    media: {
      id: uploaded.id,
      ...(canCaption && body ? { caption: body } : {}),
      ...(media.kind === "document" ? { filename: media.filename } : {}),
      ...(voice ? { voice: true } : {}),
    },
  };
}

/** Meta takes `voice` only for Ogg files with the Opus codec ("audio/ogg; codecs=opus", or plain audio/ogg). */
function isOggOpus(mimetype: string): boolean {
  const [type, ...params] = mimetype
    .toLowerCase()
    .split(";")
    .map((p) => p.trim());
  if (type !== "audio/ogg" && type !== "audio/opus") return false;
  const codecs = params.find((p) => p.startsWith("codecs="));
  return !codecs || codecs.includes("opus");
}

/**
 * Our template send as Graph's `template` object (Meta's template message reference): the header's
 * text values or its file, the body's values (with `parameter_name` in a NAMED template), and one
 * component per button with a value: a URL button's {{1}} as text, a quick reply's payload.
 */
export function templateSend(
  template: OutboundTemplate,
): Extract<GraphContent, { type: "template" }>["template"] {
  const components: GraphTemplateComponent[] = [];
  const text = (values: string[], names?: string[]) =>
    values.map((value, i) => ({
      type: "text" as const,
      text: value,
      ...(names?.[i] ? { parameter_name: names[i] } : {}),
    }));
  const media = template.headerMedia;
  if (media) {
    const file = {
      ...(media.id ? { id: media.id } : { link: media.link }),
      ...(media.type === "document" && media.filename ? { filename: media.filename } : {}),
    };
    const parameter =
      media.type === "image"
        ? { type: "image" as const, image: file }
        : media.type === "video"
          ? { type: "video" as const, video: file }
          : { type: "document" as const, document: file };
    components.push({ type: "header", parameters: [parameter] });
  } else if (template.header?.length)
    components.push({ type: "header", parameters: text(template.header, template.headerNames) });
  if (template.body?.length)
    components.push({ type: "body", parameters: text(template.body, template.bodyNames) });
  for (const button of template.buttons ?? [])
    components.push({
      type: "button",
      sub_type: button.type,
      index: String(button.index),
      parameters:
        button.type === "url"
          ? [{ type: "text", text: button.value }]
          : [{ type: "payload", payload: button.value }],
    });
  return {
    name: template.name,
    language: { code: template.language },
    ...(components.length ? { components } : {}),
  };
}
