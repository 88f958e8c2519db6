import type { Lang } from "@atende/contracts";
import { AppError } from "../../http/errors.js";
import { startBundledWorker, workerBundle } from "../../lib/workerBundle.js";
import type { ImportPlan, ImportRefusalCode } from "./importFile.js";

export interface ImportWorkerInput {
  data: Uint8Array;
  lang: Lang;
  /** What an .xlsx may unpack to (importFile.ts's MAX_UNZIPPED_BYTES unless a test says less). */
  maxUnzippedBytes?: number;
}
export type FromImportWorker =
  | { type: "plan"; plan: ImportPlan }
  /** `code`: why the file is refused; null for a failure of our own. */
  | { type: "error"; code: ImportRefusalCode | null; message: string };

const ENTRY = new URL("./importWorker.ts", import.meta.url);

/**
 * How long a file may take to read. A file of 10,000 rows takes well under a second; one built to
 * be slow (a sheet of a million rows, a cell of 90 MB) is refused rather than keep a core busy.
 */
const READ_TIMEOUT_MS = 60_000;
/** Files read at once on this instance: each worker may hold up to its heap limit. */
const MAX_READING = 2;

let reading = 0;
const waiting: (() => void)[] = [];
async function takeSlot(): Promise<void> {
  if (reading < MAX_READING) {
    reading++;
    return;
  }
  // The slot is handed over by the one who leaves it (reading stays the same).
  await new Promise<void>((resolve) => waiting.push(resolve));
}
function leaveSlot() {
  const next = waiting.shift();
  if (next) next();
  else reading--;
}

/** Builds the worker's script ahead of the first import (a few hundred ms, once per process). */
export function prepareImportReader(): Promise<unknown> {
  return workerBundle(ENTRY);
}

/**
 * Reads an import's file in a worker thread and checks its rows: answers the plan, or refuses the
 * file whole (AppError ERR_IMPORT_INVALID_FILE or ERR_IMPORT_TOO_MANY_ROWS). The server's thread
 * neither unzips nor parses it.
 */
export async function readImportInWorker(
  data: Buffer,
  lang: Lang,
  limits: { maxUnzippedBytes?: number } = {},
): Promise<ImportPlan> {
  await takeSlot();
  try {
    return await runWorker({ data, lang, ...limits });
  } finally {
    leaveSlot();
  }
}

async function runWorker(input: ImportWorkerInput): Promise<ImportPlan> {
  const worker = await startBundledWorker(ENTRY, {
    workerData: input,
    // Whatever a file makes SheetJS hold, running out of memory ends this thread, not the server.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  return new Promise<ImportPlan>((resolve, reject) => {
    let settled = false;
    const settle = (answer: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      answer();
    };
    const timer = setTimeout(
      () => settle(() => reject(new AppError("ERR_IMPORT_INVALID_FILE"))),
      READ_TIMEOUT_MS,
    );
    worker.on("message", (m: FromImportWorker) =>
      settle(() => {
        if (m.type === "plan") resolve(m.plan);
        else if (m.code) reject(new AppError(m.code));
        else reject(new Error(`reading the contacts import failed: ${m.message}`));
      }),
    );
    worker.on("error", (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new AppError("ERR_IMPORT_INVALID_FILE")
            : new Error(`the contacts import worker failed: ${err.message}`),
        ),
      ),
    );
    worker.on("exit", (code) =>
      settle(() => reject(new Error(`the contacts import worker exited ${code} without an answer`))),
    );
  });
}
