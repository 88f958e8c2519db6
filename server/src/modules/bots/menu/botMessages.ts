import type { Tx } from "../../../db/client.js";
import type { Raise } from "../../../events/bus.js";
import { queueOutbound } from "../../messages/outbound.js";
import { mimeOf } from "../../../storage/mime.js";

export function mediaOf(row: { mediaPath: string | null; mediaName: string | null }) {
  if (!row.mediaPath) return null;
  const name = row.mediaName || row.mediaPath.split("/").pop() || "file";
  return { path: row.mediaPath, name, mimetype: mimeOf(name) };
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
