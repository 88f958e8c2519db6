import type { FastifyBaseLogger } from "fastify";
import { checkNumbers } from "../../channels/numberChecks.js";
import type { SessionManager } from "../../channels/sessions.js";
import type { Db, Executor } from "../../db/client.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import { AppError } from "../../http/errors.js";
import { type JobHandler, type JobRunner, JobFailed, RetryLater, enqueueJob } from "../../jobs/runner.js";
import { yieldToEventLoop } from "../../lib/eventLoop.js";
import type { MediaStore } from "../../storage/media.js";
import { presentContactList, presentImport, presentItem } from "./present.js";
import { type ParkedReadings, openSheetReading } from "./sheetReader.js";
import * as q from "./queries.js";

export const CONTACT_LIST_IMPORT_JOB = "contact-list-import" as const;
export const CONTACT_LIST_CHECK_JOB = "contact-list-check" as const;

/** One run of an import job works this long, then leaves the rest to its continuation (locks last 120 s). */
const IMPORT_SLICE_MS = 45_000;
/**
 * Numbers checked per batch: one query's worth (Baileys asks them together, paced per connection),
 * marked in one transaction, so the page's icons follow query by query. A run stops after a slice.
 */
const CHECK_BATCH = 100;
const CHECK_SLICE_MS = 30_000;
/** Bad rows kept per import (all are counted). */
const ERRORS_KEPT = 20_000;

type JobDeps = { db: Db; bus: EventBus; now: () => Date; media: MediaStore };

/**
 * Enqueues the WhatsApp check of a list's unchecked numbers on the connection that checks them
 * (its lane, so the instance running that session does it). Without any connection the numbers
 * stay unchecked (no icon) until one exists and an item is saved again.
 */
export async function enqueueListCheck(
  tx: Executor,
  companyId: number,
  list: { id: number; whatsappId: number | null },
) {
  const whatsappId = await q.checkingConnectionId(tx, companyId, list.whatsappId);
  if (!whatsappId) return;
  await enqueueJob(tx, {
    type: CONTACT_LIST_CHECK_JOB,
    payload: { companyId, contactListId: list.id, whatsappId },
    companyId,
    lane: `wa:${whatsappId}`,
    orderKey: `contact-list-check:${list.id}`,
    dedupeKey: `contact-list-check:${list.id}`,
  });
}

/**
 * Reads a stored spreadsheet into its list, a batch of rows per transaction: each batch adds its
 * items (numbers already in the list skipped and counted), its bad rows and its progress together,
 * so a crash resumes after the last committed batch. The file is parsed and its rows checked in a
 * worker thread (sheetReader.ts), which hands over one batch at a time and reads the next while
 * this one is written: the server's event loop keeps answering, and only the batch being written is
 * in its memory. The reading the upload opened (to check the file) is the one used here, when the
 * job runs on the instance that took the upload; anywhere else the file is read again.
 */
export function contactListImportJob(
  deps: JobDeps & { log: FastifyBaseLogger; readings: ParkedReadings },
): JobHandler<typeof CONTACT_LIST_IMPORT_JOB> {
  const { db, bus, now, media, readings } = deps;

  return {
    async run(job) {
      const started = Date.now();
      const imp = await q.importById(db, job.payload.importId);
      if (!imp || imp.status === "done" || imp.status === "failed")
        return readings.drop(job.payload.importId);
      const companyId = imp.companyId;
      const list = await q.findContactList(db, companyId, imp.contactListId);
      if (!list) return readings.drop(imp.id);
      let reading = readings.take(imp.id, imp.processedRows);
      let total = 0;
      let storedErrors = imp.errors.length;
      let keepOpen = false;
      try {
        if (!reading) {
          const opened = await media.withLocalFile(companyId, imp.path, (file) =>
            openSheetReading(file, imp.fileName, imp.processedRows),
          );
          if (!opened) throw new JobFailed("the uploaded spreadsheet is gone");
          reading = opened;
        }
        total = reading.total;
        for (;;) {
          const batch = await reading.next();
          if (!batch) break;
          const last = batch.processed >= total;
          await inTransaction(db, bus, async (tx, raise) => {
            await q.commitWithoutWaitingForDisk(tx);
            const addedIds = await q.insertImportedItems(tx, companyId, list.id, batch.good);
            const added = addedIds.length;
            const kept = batch.bad.slice(0, Math.max(0, ERRORS_KEPT - storedErrors));
            storedErrors += kept.length;
            const saved = await q.advanceImport(tx, imp.id, {
              processedRows: batch.processed,
              totalRows: total,
              imported: added,
              duplicates: batch.repeated + (batch.good.length - added),
              invalid: batch.bad.length,
              errors: kept,
              status: last ? "done" : "running",
              finishedAt: last ? now() : undefined,
            });
            raise({
              type: "contactListImport.progress",
              companyId,
              payload: { action: "progress", record: presentImport(saved) },
            });
            // The items this batch added, on the list's own channel (what the Whaticket SaaS items
            // page folds in after an import); at most a batch of them per event, read after the
            // commit and only when an admin's socket can hear them.
            if (added > 0)
              raise({
                type: "contactListItems.imported",
                companyId,
                contactListId: list.id,
                records: async () => (await q.itemsByIds(db, companyId, addedIds)).map(presentItem),
              });
            if (last) {
              const after = await q.findContactList(tx, companyId, list.id);
              if (after)
                raise({
                  type: "contactList.changed",
                  companyId,
                  payload: { action: "update", record: presentContactList(after) },
                });
              await enqueueListCheck(tx, companyId, list);
            } else if (Date.now() - started > IMPORT_SLICE_MS) {
              await enqueueJob(tx, {
                type: CONTACT_LIST_IMPORT_JOB,
                payload: { importId: imp.id },
                companyId,
                orderKey: `contact-list-import:${imp.id}`,
              });
            }
          });
          if (last) return;
          if (Date.now() - started > IMPORT_SLICE_MS) {
            readings.park(imp.id, reading);
            keepOpen = true;
            return;
          }
        }
      } catch (err) {
        if (err instanceof AppError) return finishFailed(imp.id, companyId, err.code);
        throw err;
      } finally {
        if (!keepOpen) reading?.close();
      }
      // Nothing left to write (a header and nothing else, or every row already committed): done.
      await inTransaction(db, bus, async (tx, raise) => {
        const saved = await q.advanceImport(tx, imp.id, {
          processedRows: total,
          totalRows: total,
          imported: 0,
          duplicates: 0,
          invalid: 0,
          errors: [],
          status: "done",
          finishedAt: now(),
        });
        raise({
          type: "contactListImport.progress",
          companyId,
          payload: { action: "progress", record: presentImport(saved) },
        });
      });
    },
    async onFailed(job, error) {
      readings.drop(job.payload.importId);
      const imp = await q.importById(db, job.payload.importId);
      if (imp && imp.status !== "done")
        await finishFailed(imp.id, imp.companyId, "ERR_CONTACT_LIST_IMPORT_INVALID_FILE");
      deps.log.warn({ err: error, importId: job.payload.importId }, "contact list import failed");
    },
  };

  async function finishFailed(id: number, companyId: number, code: string) {
    await inTransaction(db, bus, async (tx, raise) => {
      const saved = await q.failImport(tx, id, code, now());
      if (saved)
        raise({
          type: "contactListImport.progress",
          companyId,
          payload: { action: "progress", record: presentImport(saved) },
        });
    });
  }
}

/**
 * Asks WhatsApp, through the list's connection, whether each unchecked number has an account, and
 * marks the item (the page's icon follows live). The session's number check (channels/numberChecks.ts)
 * asks a batch in one query, never back to back, and keeps the answers for the company: a campaign
 * on the list asks nothing again. A connection not running here, or not connected, retries later;
 * a long list continues in a follow-up job.
 */
export function contactListCheckJob(deps: {
  db: Db;
  bus: EventBus;
  now: () => Date;
  sessions: Pick<SessionManager, "session">;
}): JobHandler<typeof CONTACT_LIST_CHECK_JOB> {
  const { db, bus, now, sessions } = deps;
  return {
    async run(job) {
      const { companyId, contactListId, whatsappId } = job.payload;
      const started = Date.now();
      const session = sessions.session(whatsappId);
      if (!session) throw new RetryLater("the list's connection is not running here", 60);
      for (;;) {
        const items = await q.uncheckedItems(db, companyId, contactListId, CHECK_BATCH);
        if (items.length === 0) return;
        let answers;
        try {
          answers = await checkNumbers(
            session,
            items.map((item) => item.number),
          );
        } catch (err) {
          // The batches answered so far are marked; this one's answers are kept by the check itself.
          throw new RetryLater(`number check failed: ${(err as Error).message}`, 30);
        }
        const valid = items.filter((item) => answers.get(item.number)).map((item) => item.id);
        const invalid = items.filter((item) => !answers.get(item.number)).map((item) => item.id);
        await save(valid, invalid);
        // Each batch lets the server answer (on PGlite nothing else would run until the list ends).
        await yieldToEventLoop();
        if (Date.now() - started > CHECK_SLICE_MS) {
          await enqueueJob(db, {
            type: CONTACT_LIST_CHECK_JOB,
            payload: job.payload,
            companyId,
            lane: `wa:${whatsappId}`,
            orderKey: `contact-list-check:${contactListId}`,
          });
          return;
        }
      }

      async function save(valid: number[], invalid: number[]) {
        await inTransaction(db, bus, async (tx, raise) => {
          const at = now();
          await q.markChecked(tx, companyId, valid, true, at);
          await q.markChecked(tx, companyId, invalid, false, at);
          // The items marked, as they are now: a page upserts them (their icons change).
          const records = (await q.itemsByIds(tx, companyId, [...valid, ...invalid])).map(presentItem);
          raise({
            type: "contactListItem.changed",
            companyId,
            payload: { action: "reload", contactListId, records },
          });
        });
        valid.length = 0;
        invalid.length = 0;
      }
    },
  };
}

/** Contact lists' durable jobs: a spreadsheet's import, and the WhatsApp check of a list's numbers. */
export function registerContactListJobs(
  jobs: Pick<JobRunner, "register">,
  deps: Parameters<typeof contactListImportJob>[0] & Parameters<typeof contactListCheckJob>[0],
) {
  jobs.register(CONTACT_LIST_IMPORT_JOB, contactListImportJob(deps));
  jobs.register(CONTACT_LIST_CHECK_JOB, contactListCheckJob(deps));
}
