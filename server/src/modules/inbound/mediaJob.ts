import type { FastifyBaseLogger } from "fastify";
import type { Db, Executor } from "../../db/client.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import { type JobHandler, JobFailed, enqueueJob } from "../../jobs/runner.js";
import { raiseMessageSaved } from "../messages/events.js";
import { findMessageRow, updateMessage } from "../messages/queries.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { type MediaStore, MediaTooLarge } from "../../storage/media.js";
import { ChannelError, type MediaRef, connectionInfoOf } from "../../channels/provider.js";
import { type ProviderRegistry, providerFor } from "../../channels/registry.js";

export const INBOUND_MEDIA_JOB = "inbound-media";

/** Tries of one download: the first at once, then after the runner's backoff (2, 4, 8 s...). */
export const INBOUND_MEDIA_ATTEMPTS = 4;

/** What the media job needs besides the message: where to fetch the file and its announced size. */
export interface PendingMedia {
  whatsappId: number;
  ref: MediaRef;
  size?: number;
}

/** Queues the download of a message's file, in the transaction that stores the message. */
export async function enqueueMediaDownload(
  tx: Executor,
  companyId: number,
  messageId: number,
  media: PendingMedia,
): Promise<void> {
  await enqueueJob(tx, {
    type: INBOUND_MEDIA_JOB,
    companyId,
    payload: { messageId, whatsappId: media.whatsappId, ref: media.ref, size: media.size },
    dedupeKey: `inbound-media:${messageId}`,
    maxAttempts: INBOUND_MEDIA_ATTEMPTS,
  });
}

/**
 * Downloads an inbound message's file after the message is stored: any instance runs it (the
 * provider fetches by the message's ref, no live session needed), streamed to the media store
 * under the size limit, retried with backoff; then the message shows the file (message.saved update),
 * or "tooLarge" / "failed" for good.
 */
export function inboundMediaJob(deps: {
  db: Db;
  bus: EventBus;
  media: MediaStore;
  /** INBOUND_MEDIA_MAX_BYTES: larger files are not downloaded. */
  maxBytes: number;
  providers: ProviderRegistry;
  now: () => Date;
  log: FastifyBaseLogger;
}): JobHandler<typeof INBOUND_MEDIA_JOB> {
  const { db, bus, media, now } = deps;

  async function settle(
    companyId: number,
    messageId: number,
    values: Parameters<typeof updateMessage>[3],
  ): Promise<void> {
    await inTransaction(db, bus, async (tx, raise) => {
      await updateMessage(tx, companyId, messageId, { ...values, updatedAt: now() });
      await raiseMessageSaved(tx, raise, companyId, messageId, "update");
    });
  }

  return {
    async run(job) {
      const { messageId, whatsappId, ref, size } = job.payload;
      const companyId = job.companyId!;
      const message = await findMessageRow(db, companyId, messageId);
      if (!message || message.mediaStatus !== "pending") return; // stored already, or gone
      const tooLarge = () => settle(companyId, messageId, { mediaStatus: "tooLarge" });
      if (size !== undefined && size > deps.maxBytes) return tooLarge();
      const row = await findWhatsappRow(db, companyId, whatsappId);
      if (!row) throw new JobFailed("the connection is gone");
      const provider = providerFor(deps.providers, row.provider);
      if (!provider?.downloadMedia) throw new JobFailed(`provider ${row.provider} cannot download media`);
      const connection = connectionInfoOf(row);
      try {
        const download = await provider.downloadMedia(connection, ref, deps.maxBytes);
        if (download.size !== undefined && download.size > deps.maxBytes) {
          // Announced by the source before a byte was read: nothing is downloaded.
          (download.stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
          return tooLarge();
        }
        const stored = await media.saveStream(
          companyId,
          download.stream,
          message.mediaMime ?? undefined,
          deps.maxBytes,
        );
        await settle(companyId, messageId, {
          mediaPath: stored.path,
          mediaMime: stored.mimetype,
          mediaStatus: null,
        });
      } catch (err) {
        if (err instanceof MediaTooLarge) return tooLarge();
        if (err instanceof ChannelError && !err.retryable) throw new JobFailed(`${err.code}: ${err.message}`);
        throw err;
      }
    },
    async onFailed(job, error) {
      deps.log.warn(
        { err: error.message, messageId: job.payload.messageId, whatsappId: job.payload.whatsappId },
        "inbound media download failed for good",
      );
      const message = await findMessageRow(db, job.companyId!, job.payload.messageId);
      if (message?.mediaStatus === "pending")
        await settle(job.companyId!, job.payload.messageId, { mediaStatus: "failed" });
    },
  };
}
