import type { OutboundMedia } from "../provider.js";

/**
 * What the WhatsApp Cloud API accepts as media (Meta's "Supported media types"): the types of each
 * kind and its largest size. An audio in Ogg must be Opus; WebM is refused. Checked before a file is
 * uploaded, so an agent learns at once what cannot be sent instead of after a failed upload.
 */
const MB = 1024 * 1024;

export const CLOUD_MEDIA_LIMITS: Record<
  OutboundMedia["kind"],
  { types: readonly string[]; maxBytes: number }
> = {
  audio: {
    types: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
    maxBytes: 16 * MB,
  },
  image: { types: ["image/jpeg", "image/png"], maxBytes: 5 * MB },
  video: { types: ["video/mp4", "video/3gpp"], maxBytes: 16 * MB },
  sticker: { types: ["image/webp"], maxBytes: 500 * 1024 },
  document: {
    types: [
      "text/plain",
      "application/pdf",
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.ms-excel",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.ms-powerpoint",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ],
    maxBytes: 100 * MB,
  },
};

/** The ERR_* code of a file the Cloud API would refuse, or null when it may be sent. */
export function cloudMediaProblem(
  kind: OutboundMedia["kind"],
  mimetype: string,
  size: number,
): "ERR_CLOUD_MEDIA_TYPE" | "ERR_CLOUD_MEDIA_TOO_LARGE" | null {
  const limits = CLOUD_MEDIA_LIMITS[kind];
  const [type, ...params] = mimetype
    .toLowerCase()
    .split(";")
    .map((p) => p.trim());
  if (!limits.types.includes(type!)) return "ERR_CLOUD_MEDIA_TYPE";
  // Ogg is accepted only with Opus inside (a voice note).
  if (type === "audio/ogg" && !params.some((p) => p.replace(/\s/g, "") === "codecs=opus"))
    return "ERR_CLOUD_MEDIA_TYPE";
  if (size > limits.maxBytes) return "ERR_CLOUD_MEDIA_TOO_LARGE";
  return null;
}
