import type { Db } from "../../db/client.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import type { ConnectionInfo, InboundMessage } from "../../channels/provider.js";
import { raiseMessageSaved } from "../messages/events.js";
import { newestShownMessage, setTicketPreview } from "../messages/queries.js";
import { enqueueMediaDownload } from "./mediaJob.js";
import { type MessageValues, findMessageByWid, updateMessageById } from "./queries.js";

/** The message type of a placeholder for a message this device could not read (see baileys/mapping.ts). */
export const UNREADABLE = "unreadable";

/**
 * A message WhatsApp delivered that this device could not read is stored as a placeholder; when
 * WhatsApp's retry brings its content under the same id, the store refuses it as a redelivery and
 * it comes here: the placeholder becomes the message in place (the same row, its ticket and place
 * kept), its file downloaded as any other, and the agents' screens hear the update. A redelivery
 * of anything else is left as it was. Only redeliveries pay this look.
 */
export function placeholderReplacer(deps: { db: Db; bus: EventBus; now: () => Date }) {
  return async function replacePlaceholder(
    connection: ConnectionInfo,
    values: MessageValues,
    msg: InboundMessage,
    preview: string,
  ): Promise<void> {
    const { companyId } = connection;
    await inTransaction(deps.db, deps.bus, async (tx, raise) => {
      const row = await findMessageByWid(tx, companyId, connection.id, msg.id);
      if (!row || row.mediaType !== UNREADABLE) return;
      const quoted = msg.quotedId ? await findMessageByWid(tx, companyId, connection.id, msg.quotedId) : null;
      await updateMessageById(tx, row.id, {
        body: values.body,
        mediaType: values.mediaType,
        mediaPath: values.mediaPath,
        mediaMime: values.mediaMime,
        mediaName: values.mediaName,
        mediaStatus: values.mediaStatus,
        quotedMsgId: quoted?.id ?? null,
        isForwarded: values.isForwarded,
        updatedAt: deps.now(),
      });
      if (values.mediaStatus === "pending" && msg.media?.ref)
        await enqueueMediaDownload(tx, companyId, row.id, {
          whatsappId: connection.id,
          ref: msg.media.ref,
          size: msg.media.size,
        });
      // The ticket list previewed the placeholder when it was the ticket's last message.
      if ((await newestShownMessage(tx, companyId, row.ticketId))?.id === row.id)
        await setTicketPreview(tx, companyId, row.ticketId, preview);
      await raiseMessageSaved(tx, raise, companyId, row.id, "update");
    });
  };
}
