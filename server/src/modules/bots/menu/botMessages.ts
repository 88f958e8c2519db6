import type { Tx } from "../../../db/client.js";
import type { Raise } from "../../../events/bus.js";
import { queueOutbound } from "../../messages/outbound.js";

const MIME_BY_EXT: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  pdf: "application/pdf",
};

export function mediaOf(row: { mediaPath: string | null; mediaName: string | null }) {
  if (!row.mediaPath) return null;
  const name = row.mediaName || row.mediaPath.split("/").pop() || "file";
  const ext = name.split(".").pop()?.toLowerCase() ?? "";
  return { path: row.mediaPath, name, mimetype: MIME_BY_EXT[ext] ?? "application/octet-stream" };
}

/** A message from the bot (never an agent's reply). */
export function botSays(
  tx: Tx,
  raise: Raise,
  ticket: { id: number; companyId: number },
  body: string,
  media: ReturnType<typeof mediaOf> = null,
) {
  return queueOutbound(tx, raise, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    body,
    isBot: true,
    media,
  });
}
