import { normalizeNumber } from "../numbers.js";
import {
  type ChannelProvider,
  type ChannelSession,
  ChannelError,
  type ConnectionInfo,
  type OutboundMessage,
} from "../provider.js";
import { MediaTooLarge } from "../../storage/media.js";
import { cloudMediaProblem } from "./mediaLimits.js";
import { type CloudCredentials, type GraphClient, type GraphContent, createGraphClient } from "./graph.js";

/**
 * The official WhatsApp Cloud API as a ChannelProvider. There is no socket to keep: a session is
 * the connection's credentials and the Graph client. Inbound events arrive by webhook (webhook.ts),
 * not through the session.
 */

export interface CloudProviderOptions {
  /** GRAPH_API_URL, version included. */
  graphUrl: string;
  fetch?: typeof fetch;
}

/** The connection's Cloud API credentials, or null when providerConfig lacks them. */
export function cloudCredentialsOf(connection: Pick<ConnectionInfo, "config">): CloudCredentials | null {
  const { phoneNumberId, accessToken } = connection.config;
  return phoneNumberId && accessToken ? { phoneNumberId, accessToken } : null;
}

export function cloudProvider(opts: CloudProviderOptions): ChannelProvider {
  const graph = createGraphClient({ baseUrl: opts.graphUrl, fetch: opts.fetch });
  return {
    name: "cloud",
    async start(connection, sink) {
      const creds = cloudCredentialsOf(connection);
      const number = normalizeNumber(connection.number);
      await sink.emit({
        type: "connection",
        status: creds ? "CONNECTED" : "DISCONNECTED",
        ...(creds && number ? { number } : {}),
      });
      return cloudSession(graph, creds);
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

function cloudSession(graph: GraphClient, creds: CloudCredentials | null): ChannelSession {
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
      const content = await outboundContent(graph, credentials, message);
      return graph.sendMessage(credentials, { to: message.to.number, replyTo: message.quotedId, content });
    },
    async react(to, targetId, _targetFromMe, emoji) {
      // An empty emoji removes the reaction, as on WhatsApp.
      await graph.sendMessage(requireCreds(), {
        to: to.number,
        content: { type: "reaction", reaction: { message_id: targetId, emoji } },
      });
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
      for (const id of ids) await graph.markRead(credentials, id);
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
    async stop() {},
    async logout() {},
  };
}

/**
 * Text goes as text (with a link preview when it has a link); media is uploaded first and sent by
 * its id. Captions exist for image, video and document only; a voice note is plain audio here.
 */
async function outboundContent(
  graph: GraphClient,
  creds: CloudCredentials,
  message: OutboundMessage,
): Promise<GraphContent> {
  const { media, body } = message;
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
  return {
    type: media.kind,
    media: {
      id: uploaded.id,
      ...(canCaption && body ? { caption: body } : {}),
      ...(media.kind === "document" ? { filename: media.filename } : {}),
    },
  };
}
