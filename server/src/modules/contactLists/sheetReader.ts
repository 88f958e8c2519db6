import type { Worker } from "node:worker_threads";
import { AppError } from "../../http/errors.js";
import { startBundledWorker, workerBundle } from "../../lib/workerBundle.js";
import type { ImportRow, ImportRowError, SheetRefusalCode } from "./parse.js";

export interface SheetWorkerInput {
  /** The stored file on disk (the worker reads it; the server's thread never holds its bytes). */
  file: string;
  fileName: string;
  /** Data rows already committed (a resumed import): read only to know their numbers. */
  after: number;
  /** What an .xlsx may unpack to (parse.ts's MAX_UNZIPPED_BYTES unless a test says less). */
  maxUnzippedBytes?: number;
}
export type ToSheetWorker = { type: "next" };
export type FromSheetWorker =
  | { type: "start"; totalRows: number }
  /**
   * The next rows of the sheet, checked, through data row `processed` (the header not counted):
   * good rows new to the file, bad rows, and how many repeat a number met earlier in the file.
   */
  | { type: "batch"; processed: number; good: ImportRow[]; bad: ImportRowError[]; repeated: number }
  | { type: "end"; totalRows: number }
  | { type: "error"; code: string; message: string };

export type SheetBatch = Omit<FromSheetWorker & { type: "batch" }, "type">;

/**
 * A spreadsheet being read by its worker thread, parsed once: checked at upload (readable, a
 * number column, not too many rows), then handed to the import's job, which takes its batches.
 */
export interface SheetReading {
  /** Data rows in the sheet (the header not counted). */
  readonly total: number;
  /** Data rows handed over so far (where the reading started, before the first batch). */
  readonly processed: number;
  /** The next batch, read ahead while the one before was written; null after the last. */
  next(): Promise<SheetBatch | null>;
  /** Stops the worker (and frees the parsed sheet). Safe to call twice. */
  close(): void;
  readonly closed: boolean;
}

const ENTRY = new URL("./sheetWorker.ts", import.meta.url);

/** Builds the worker's script ahead of the first upload (a few hundred ms, once per process). */
export function prepareSheetReader(): Promise<unknown> {
  return workerBundle(ENTRY);
}

/**
 * Opens a stored spreadsheet in a worker thread: answers once its header is checked and its rows
 * counted, or refuses it (AppError ERR_CONTACT_LIST_IMPORT_*). `after`: rows already committed.
 */
export async function openSheetReading(
  file: string,
  fileName: string,
  after = 0,
  limits: { maxUnzippedBytes?: number } = {},
): Promise<SheetReading> {
  const input: SheetWorkerInput = { file, fileName, after, ...limits };
  const worker = await startBundledWorker(ENTRY, {
    workerData: input,
    // Whatever a file makes SheetJS hold, running out of memory ends this thread, not the server.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  // A parked reading does not keep the process alive.
  worker.unref();
  const { next: message, closed } = inbox(worker);
  let done = false;
  const close = () => {
    if (done) return;
    done = true;
    void worker.terminate();
  };
  try {
    const first = await message();
    if (first.type === "error") throw refused(first);
    if (first.type !== "start") throw new Error(`unexpected message from the sheet worker: ${first.type}`);
    let processed = after;
    let asked = false;
    const ask = () => {
      asked = true;
      worker.postMessage({ type: "next" } satisfies ToSheetWorker);
    };
    const total = first.totalRows;
    // The first batch is read while the caller gets ready to write.
    if (processed < total) ask();
    return {
      total,
      get processed() {
        return processed;
      },
      get closed() {
        return done || closed();
      },
      close,
      async next() {
        if (processed >= total) return null;
        if (!asked) ask();
        const m = await message();
        asked = false;
        if (m.type === "end") return null;
        if (m.type === "error") throw refused(m);
        if (m.type !== "batch") throw new Error(`unexpected message from the sheet worker: ${m.type}`);
        processed = m.processed;
        // The worker reads the next batch while this one is written: two at most are in flight.
        if (processed < total) ask();
        return { processed: m.processed, good: m.good, bad: m.bad, repeated: m.repeated };
      },
    };
  } catch (err) {
    close();
    throw err;
  }
}

/** The worker's messages in order, each to the first who waits for it. */
function inbox(worker: Worker) {
  const waiting: ((m: FromSheetWorker) => void)[] = [];
  const queued: FromSheetWorker[] = [];
  let exited = false;
  const deliver = (m: FromSheetWorker) => {
    const w = waiting.shift();
    if (w) w(m);
    else queued.push(m);
  };
  worker.on("message", deliver);
  worker.on("error", (err) =>
    deliver({ type: "error", code: "ERR_CONTACT_LIST_IMPORT_INVALID_FILE", message: err.message }),
  );
  worker.on("exit", (code) => {
    exited = true;
    // A worker stopped by close() exits 1 too, but nobody waits for it then.
    deliver({ type: "error", code: "ERR_INTERNAL", message: `sheet worker exited ${code}` });
  });
  return {
    next: (): Promise<FromSheetWorker> => {
      const m = queued.shift();
      return m ? Promise.resolve(m) : new Promise((resolve) => waiting.push(resolve));
    },
    closed: () => exited,
  };
}

function refused(m: FromSheetWorker & { type: "error" }): Error {
  return m.code.startsWith("ERR_CONTACT_LIST_IMPORT")
    ? new AppError(m.code as SheetRefusalCode)
    : new Error(`reading the spreadsheet failed: ${m.message}`);
}

/**
 * Readings kept between the upload and its import's job, or between one run of the job and its
 * continuation, on this instance. A reading not taken within `keepMs` is closed (a job on another
 * instance, or after a crash, reads the file again).
 */
export class ParkedReadings {
  private readonly parked = new Map<number, { reading: SheetReading; timer: NodeJS.Timeout }>();

  constructor(private readonly keepMs = 60_000) {}

  park(importId: number, reading: SheetReading) {
    this.drop(importId);
    const timer = setTimeout(() => this.drop(importId), this.keepMs);
    timer.unref();
    this.parked.set(importId, { reading, timer });
  }

  /** The reading left for this import, if it is still open and stopped where the import did. */
  take(importId: number, processedRows: number): SheetReading | null {
    const open = this.parked.get(importId);
    if (!open) return null;
    this.parked.delete(importId);
    clearTimeout(open.timer);
    if (!open.reading.closed && open.reading.processed === processedRows) return open.reading;
    open.reading.close();
    return null;
  }

  dropAll() {
    for (const id of [...this.parked.keys()]) this.drop(id);
  }

  drop(importId: number) {
    const open = this.parked.get(importId);
    if (!open) return;
    this.parked.delete(importId);
    clearTimeout(open.timer);
    open.reading.close();
  }
}
