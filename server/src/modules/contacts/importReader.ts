import type { Worker } from "node:worker_threads";
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
/**
 * Files that may wait for a reading slot: past them the server is busy reading already, and a
 * request answers 429 at once rather than hold its body (up to 5 MB) in an unbounded queue.
 */
const MAX_WAITING = 8;

/**
 * At most `max` holders at once, at most `maxWaiting` waiting in turn; one more is refused with
 * 429 ERR_TOO_MANY_REQUESTS.
 */
export function createSlots(max: number, maxWaiting: number) {
  let held = 0;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<void> {
      if (held < max) {
        held++;
        return;
      }
      if (waiting.length >= maxWaiting) throw new AppError("ERR_TOO_MANY_REQUESTS");
      // The slot is handed over by the one who leaves it (held stays the same).
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave(): void {
      const next = waiting.shift();
      if (next) next();
      else held--;
    },
    get held() {
      return held;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
const slots = createSlots(MAX_READING, MAX_WAITING);

/**
 * A reading that failed other than by a refusal of the file (an exception in the worker on a
 * hostile file, the worker gone without an answer, its script not built): the file could not be
 * read, so 400 ERR_IMPORT_INVALID_FILE, the cause kept for the log (the error handler writes it).
 */
function unreadable(cause: unknown): AppError {
  const err = new AppError("ERR_IMPORT_INVALID_FILE");
  err.cause = cause;
  return err;
}

/** Builds the worker's script ahead of the first import (a few hundred ms, once per process). */
export function prepareImportReader(): Promise<unknown> {
  return workerBundle(ENTRY);
}

/**
 * Reads an import's file in a worker thread and checks its rows: answers the plan, or refuses the
 * file whole (AppError ERR_IMPORT_INVALID_FILE or ERR_IMPORT_TOO_MANY_ROWS), or the request when
 * too many files wait to be read (429 ERR_TOO_MANY_REQUESTS). The server's thread neither unzips
 * nor parses it.
 */
export async function readImportInWorker(
  data: Buffer,
  lang: Lang,
  limits: { maxUnzippedBytes?: number } = {},
): Promise<ImportPlan> {
  await slots.take();
  try {
    return await runWorker({ data, lang, ...limits });
  } finally {
    slots.leave();
  }
}

async function runWorker(input: ImportWorkerInput): Promise<ImportPlan> {
  let worker: Worker;
  try {
    worker = await startBundledWorker(ENTRY, {
      workerData: input,
      // Whatever a file makes SheetJS hold, running out of memory ends this thread, not the server.
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
    });
  } catch (err) {
    throw unreadable(new Error("starting the contacts import worker failed", { cause: err }));
  }
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
      () => settle(() => reject(unreadable(new Error(`reading took over ${READ_TIMEOUT_MS} ms`)))),
      READ_TIMEOUT_MS,
    );
    worker.on("message", (m: FromImportWorker) =>
      settle(() => {
        if (m.type === "plan") resolve(m.plan);
        else if (m.code) reject(new AppError(m.code));
        else reject(unreadable(new Error(`reading the contacts import failed: ${m.message}`)));
      }),
    );
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or any other failure of the thread.
    worker.on("error", (err: Error) =>
      settle(() => reject(unreadable(new Error("the contacts import worker failed", { cause: err })))),
    );
    worker.on("exit", (code) =>
      settle(() =>
        reject(unreadable(new Error(`the contacts import worker exited ${code} without an answer`))),
      ),
    );
  });
}
