import { Worker } from "node:worker_threads";
import { AppError } from "../../http/errors.js";
import type { ImportRow, ImportRowError } from "./parse.js";

export interface SheetWorkerInput {
  /** The stored file on disk (the worker reads it; the server never holds its bytes). */
  file: string;
  fileName: string;
  /** "header": only check the header (and the size, where the format says it); "rows": every row. */
  mode: "header" | "rows";
}
export type ToSheetWorker = { type: "next" };
export type FromSheetWorker =
  | { type: "start"; totalRows: number }
  /** Rows from..end-1 of the sheet (1 = the first after the header), checked; empty rows left out. */
  | { type: "batch"; from: number; end: number; rows: (ImportRow | ImportRowError)[] }
  | { type: "end"; totalRows: number }
  | { type: "error"; code: string; message: string };

export interface SheetBatch {
  /** Data rows read so far (the header not counted): the import's processedRows after this batch. */
  processed: number;
  rows: (ImportRow | ImportRowError)[];
}

// Node 20 does not carry `--import tsx` into workers: the worker registers tsx, then loads its module.
const TSX = import.meta.resolve("tsx/esm/api");
const ENTRY = new URL("./sheetWorker.ts", import.meta.url).href;
const BOOT = `import(${JSON.stringify(TSX)}).then((m) => { m.register(); return import(${JSON.stringify(ENTRY)}); })`;

function start(input: SheetWorkerInput): { worker: Worker; next: () => Promise<FromSheetWorker> } {
  const worker = new Worker(BOOT, { eval: true, workerData: input });
  const waiting: ((m: FromSheetWorker) => void)[] = [];
  const queued: FromSheetWorker[] = [];
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
    if (code !== 0) deliver({ type: "error", code: "ERR_INTERNAL", message: `sheet worker exited ${code}` });
  });
  return {
    worker,
    next: () => {
      const m = queued.shift();
      return m ? Promise.resolve(m) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

function refused(m: FromSheetWorker & { type: "error" }): Error {
  return m.code.startsWith("ERR_CONTACT_LIST_IMPORT")
    ? new AppError(m.code as "ERR_CONTACT_LIST_IMPORT_INVALID_FILE")
    : new Error(`reading the spreadsheet failed: ${m.message}`);
}

/**
 * Checks that a stored spreadsheet can be imported: readable, a number column in its header, not
 * over the row limit where the format tells it without reading every row. Answers an AppError
 * (ERR_CONTACT_LIST_IMPORT_*) when not. Runs in a worker thread.
 */
export async function checkSheetHeader(file: string, fileName: string): Promise<void> {
  const { worker, next } = start({ file, fileName, mode: "header" });
  try {
    const m = await next();
    if (m.type === "error") throw refused(m);
  } finally {
    void worker.terminate();
  }
}

/**
 * A stored spreadsheet's rows, checked, in batches of CONTACT_LIST_IMPORT_LIMITS.batchRows,
 * parsed in a worker thread that reads one batch ahead of the one taken, never more (leaving the
 * loop early stops the worker). `onStart` gets the sheet's data-row count before the first batch.
 */
export async function* readSheetBatches(
  file: string,
  fileName: string,
  onStart: (totalRows: number) => void,
): AsyncGenerator<SheetBatch> {
  const { worker, next } = start({ file, fileName, mode: "rows" });
  try {
    const first = await next();
    if (first.type === "error") throw refused(first);
    if (first.type === "end") return onStart(first.totalRows);
    if (first.type !== "start") throw new Error(`unexpected message from the sheet worker: ${first.type}`);
    onStart(first.totalRows);
    const ask = () => worker.postMessage({ type: "next" } satisfies ToSheetWorker);
    ask();
    for (;;) {
      const m = await next();
      if (m.type === "end") return;
      if (m.type === "error") throw refused(m);
      if (m.type !== "batch") throw new Error(`unexpected message from the sheet worker: ${m.type}`);
      // The worker reads the next batch while this one is written: two batches at most are in
      // flight, and the reading overlaps the database's work.
      ask();
      yield { processed: m.end - 1, rows: m.rows };
    }
  } finally {
    void worker.terminate();
  }
}
