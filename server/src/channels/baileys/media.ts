import { Readable } from "node:stream";
import { downloadMediaMessage, type proto, toNumber, type WAMessage, type WAMessageKey } from "./lib.js";
import type { MediaDownload, MediaRef } from "../provider.js";
import { toChannelError } from "./errors.js";
import type { BaileysLogger } from "./logger.js";

/** Downloads a message's file from WhatsApp (Baileys' downloadMediaMessage, or a test's fake). */
export type MediaDownloader = (message: WAMessage) => Promise<Buffer>;

/** The message fields that carry a downloadable file, as readContent reads them. */
const MEDIA_FIELDS = [
  "imageMessage",
  "videoMessage",
  "ptvMessage",
  "audioMessage",
  "documentMessage",
  "stickerMessage",
] as const;
type MediaField = (typeof MEDIA_FIELDS)[number];

function base64Of(value: Uint8Array | string | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : Buffer.from(value).toString("base64");
}

/**
 * What the media job needs to download a message's file later, on any instance: the media key and
 * WhatsApp's CDN path (not the thumbnail nor the rest of the message), and the size the sender
 * announced. Null for a message without a file.
 */
export function mediaRefOf(
  key: WAMessageKey,
  content: proto.IMessage,
): { ref: MediaRef; size?: number } | null {
  const field = MEDIA_FIELDS.find((f) => content[f]);
  if (!field) return null;
  const media = content[field]!;
  const mediaKey = base64Of(media.mediaKey);
  if (!mediaKey || (!media.directPath && !media.url)) return null;
  const size = media.fileLength != null ? toNumber(media.fileLength) : undefined;
  return {
    ref: {
      field,
      id: key.id ?? null,
      remoteJid: key.remoteJid ?? null,
      fromMe: key.fromMe === true,
      url: media.url ?? null,
      directPath: media.directPath ?? null,
      mediaKey,
      mimetype: media.mimetype ?? null,
    },
    ...(size !== undefined && Number.isFinite(size) ? { size } : {}),
  };
}

/** The smallest message Baileys downloads a file from, rebuilt from a ref. */
export function messageOfRef(ref: MediaRef): WAMessage {
  const field = ref.field as MediaField;
  if (!MEDIA_FIELDS.includes(field) || typeof ref.mediaKey !== "string")
    throw new Error("not a Baileys media ref");
  const media = {
    url: typeof ref.url === "string" ? ref.url : undefined,
    directPath: typeof ref.directPath === "string" ? ref.directPath : undefined,
    mediaKey: Buffer.from(ref.mediaKey, "base64"),
    mimetype: typeof ref.mimetype === "string" ? ref.mimetype : undefined,
  };
  return {
    key: {
      id: typeof ref.id === "string" ? ref.id : undefined,
      remoteJid: typeof ref.remoteJid === "string" ? ref.remoteJid : undefined,
      fromMe: ref.fromMe === true,
    },
    message: { [field]: media },
  };
}

/**
 * Opens a file by its ref as a stream (decrypted on the fly). An expired CDN link is asked again
 * from the phone through `reupload` when this instance runs the connection's socket.
 */
export async function openBaileysMedia(
  ref: MediaRef,
  opts: {
    logger: BaileysLogger;
    download?: MediaDownloader;
    reupload?: (message: WAMessage) => Promise<WAMessage>;
  },
): Promise<MediaDownload> {
  try {
    const message = messageOfRef(ref);
    if (opts.download) return { stream: Readable.from([await opts.download(message)]) };
    const stream = await downloadMediaMessage(
      message,
      "stream",
      {},
      {
        logger: opts.logger as never,
        reuploadRequest: async (m) => {
          if (!opts.reupload)
            throw new Error("the media link expired and this instance has no session to renew it");
          return opts.reupload(m);
        },
      },
    );
    return { stream };
  } catch (err) {
    throw toChannelError(err, "ERR_WAPP_DOWNLOAD_MEDIA");
  }
}
