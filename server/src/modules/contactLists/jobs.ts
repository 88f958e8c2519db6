import fs from "node:fs/promises";
import type { FastifyBaseLogger } from "fastify";
import type { SessionManager } from "../../channels/sessions.js";
import type { Db, Executor } from "../../db/client.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import { AppError } from "../../http/errors.js";
import { type JobHandler, JobFailed, RetryLater, enqueueJob } from "../../jobs/runner.js";
import type { MediaStore } from "../../storage/media.js";
import { type ImportRow, type ImportRowError, isRowError } from "./parse.js";
import { presentContactList, presentImport } from "./present.js";
import { type SheetBatch, readSheetBatches } from "./sheetReader.js";
import * as q from "./queries.js";

export const CONTACT_LIST_IMPORT_JOB = "contact-list-import" as const;
export const CONTACT_LIST_CHECK_JOB = "contact-list-check" as const;

/** One run of an import job works this long, then leaves the rest to its continuation (locks last 120 s). */
const IMPORT_SLICE_MS = 45_000;
/**
 * How long a reading (its worker, the parsed sheet, the numbers seen) waits for the continuation
 * of the run that left it, before it is closed (the continuation then reads the file again).
 */
const PARKED_MS = 60_000;
/** An import's file being read: the batches still to come, and the numbers seen so far. */
interface Reading {
  batches: AsyncGenerator<SheetBatch>;
  seen: Set<string>;
  /** Data rows handed over so far. */
  processed: number;
  total: number;
}
/** Numbers asked on WhatsApp per batch, and per run of a check job. */
const CHECK_BATCH = 50;
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
 * Reads a stored spreadsheet into its list, 500 rows per transaction: each batch adds its items
 * (numbers already in the list skipped and counted), its bad rows and its progress together, so a
 * crash resumes after the last committed batch. Numbers repeated in the file are found again on
 * resume by re-reading the rows before it. The file is parsed in a worker thread
 * (sheetReader.ts), which hands over one checked batch at a time: the server's event loop keeps
 * answering, and only the batch being written is in its memory.
 */
export function contactListImportJob(
  deps: JobDeps & { log: FastifyBaseLogger },
): JobHandler<typeof CONTACT_LIST_IMPORT_JOB> {
  const { db, bus, now, media } = deps;
  /** Readings left open by a run that ended its slice, for its continuation (on this instance). */
  const parked = new Map<number, Reading & { timer: NodeJS.Timeout }>();

  return {
    async run(job) {
      const started = Date.now();
      const imp = await q.importById(db, job.payload.importId);
      if (!imp || imp.status === "done" || imp.status === "failed") return;
      const companyId = imp.companyId;
      const list = await q.findContactList(db, companyId, imp.contactListId);
      if (!list) return;
      const file = media.resolve(companyId, imp.path);
      if (!file || !(await fs.stat(file).catch(() => null)))
        throw new JobFailed("the uploaded spreadsheet is gone");
      // A continuation on this instance takes the reading its previous run left open; anything
      // else (a crash, another instance) reads the file again from the top.
      const reading = unpark(imp.id, imp.processedRows) ?? openReading(file, imp.fileName);
      const { seen } = reading;
      let storedErrors = imp.errors.length;
      let keepOpen = false;
      try {
        for (;;) {
          const step = await reading.batches.next();
          if (step.done) break;
          const batch = step.value;
          const total = reading.total;
          reading.processed = batch.processed;
          if (batch.processed <= imp.processedRows) {
            for (const r of batch.rows) if (!isRowError(r)) seen.add(r.number);
            continue;
          }
          const good: ImportRow[] = [];
          const bad: ImportRowError[] = [];
          let inFile = 0;
          for (const r of batch.rows) {
            // A batch straddling the resume point (the batch size changed): its committed rows are only seen.
            if (r.row - 1 <= imp.processedRows) {
              if (!isRowError(r)) seen.add(r.number);
            } else if (isRowError(r)) bad.push(r);
            else if (seen.has(r.number)) inFile++;
            else {
              seen.add(r.number);
              good.push(r);
            }
          }
          const last = batch.processed >= total;
          await inTransaction(db, bus, async (tx, raise) => {
            const added = await q.insertItemsSkippingTaken(
              tx,
              good.map((r) => ({
                companyId,
                contactListId: list.id,
                name: r.name,
                number: r.number,
                email: r.email,
              })),
            );
            const kept = bad.slice(0, Math.max(0, ERRORS_KEPT - storedErrors));
            storedErrors += kept.length;
            const saved = await q.advanceImport(tx, imp.id, {
              processedRows: batch.processed,
              totalRows: total,
              imported: added,
              duplicates: inFile + (good.length - added),
              invalid: bad.length,
              errors: kept,
              status: last ? "done" : "running",
              finishedAt: last ? now() : undefined,
            });
            raise({
              type: "contactListImport.progress",
              companyId,
              payload: { action: "progress", record: presentImport(saved) },
            });
            if (added > 0)
              raise({
                type: "contactListItem.changed",
                companyId,
                payload: { action: "reload", contactListId: list.id },
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
            park(imp.id, reading);
            keepOpen = true;
            return;
          }
        }
      } catch (err) {
        if (err instanceof AppError) return finishFailed(imp.id, companyId, err.code);
        throw err;
      } finally {
        if (!keepOpen) void reading.batches.return(undefined); // stops the worker
      }
      const total = reading.total;
      if (reading.processed <= imp.processedRows) {
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
      }
    },
    async onFailed(job, error) {
      const imp = await q.importById(db, job.payload.importId);
      if (imp && imp.status !== "done")
        await finishFailed(imp.id, imp.companyId, "ERR_CONTACT_LIST_IMPORT_INVALID_FILE");
      deps.log.warn({ err: error, importId: job.payload.importId }, "contact list import failed");
    },
  };

  function openReading(file: string, fileName: string): Reading {
    const reading: Reading = { seen: new Set(), processed: 0, total: 0 } as Reading;
    reading.batches = readSheetBatches(file, fileName, (n) => (reading.total = n));
    return reading;
  }

  function park(importId: number, reading: Reading) {
    const timer = setTimeout(() => {
      parked.delete(importId);
      void reading.batches.return(undefined);
    }, PARKED_MS);
    timer.unref();
    parked.set(importId, { ...reading, timer });
  }

  /** The reading left open for this import, if it stopped where the import did. */
  function unpark(importId: number, processedRows: number): Reading | null {
    const open = parked.get(importId);
    if (!open) return null;
    parked.delete(importId);
    clearTimeout(open.timer);
    if (open.processed === processedRows) return open;
    void open.batches.return(undefined);
    return null;
  }

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
 * marks the item (the page's icon follows live). A connection not running here, or not connected,
 * retries later; a long list continues in a follow-up job.
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
        const valid: number[] = [];
        const invalid: number[] = [];
        for (const item of items) {
          let address;
          try {
            address = await session.checkNumber(item.number);
          } catch (err) {
            if (valid.length + invalid.length > 0) await save(valid, invalid);
            throw new RetryLater(`number check failed: ${(err as Error).message}`, 30);
          }
          (address ? valid : invalid).push(item.id);
        }
        await save(valid, invalid);
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
          raise({ type: "contactListItem.changed", companyId, payload: { action: "reload", contactListId } });
        });
        valid.length = 0;
        invalid.length = 0;
      }
    },
  };
}
