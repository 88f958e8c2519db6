/**
 * The import's reading, in a worker thread (started by sheetReader.ts from a bundle of this
 * module): SheetJS parses the whole file synchronously, which for a 100,000-row spreadsheet would
 * stop the server's event loop for a second or more. Here the stored file is read from disk, parsed
 * once, and its rows checked (loose headers, numbers normalized, repeats in the file found, bad rows
 * with their line) and posted back one batch at a time, each when the job asks for it: at most two
 * batches wait in the server's memory.
 *
 * Imports only what the checks need (no HTTP layer, no database): everything reached is bundled.
 */
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { CONTACT_LIST_IMPORT_LIMITS } from "@atende/contracts";
import { lowerThreadPriority } from "../../lib/threadPriority.js";
import {
  type ImportRow,
  type ImportRowError,
  SheetRefused,
  checkRow,
  columnsOf,
  isRowError,
  openSheet,
} from "./parse.js";
import type { FromSheetWorker, SheetWorkerInput, ToSheetWorker } from "./sheetReader.js";

const input = workerData as SheetWorkerInput;
const port = parentPort!;
const post = (m: FromSheetWorker) => port.postMessage(m);
const fail = (err: unknown) =>
  post({
    type: "error",
    code: err instanceof SheetRefused ? err.code : "ERR_CONTACT_LIST_IMPORT_INVALID_FILE",
    message: (err as Error).message,
  });

// The server's thread answers requests meanwhile: on a busy machine it gets the cores first.
lowerThreadPriority();

try {
  run();
} catch (err) {
  fail(err);
}

function run() {
  const { maxRows, batchRows } = CONTACT_LIST_IMPORT_LIMITS;
  const sheet = openSheet(fs.readFileSync(input.file), input.fileName, maxRows + 2, input.maxUnzippedBytes);
  const columns = columnsOf(sheet.slice(0, 1)[0] ?? []);
  const rows = Math.max(sheet.rows, sheet.fullRows ?? 0);
  if (rows > maxRows + 1) throw new SheetRefused("ERR_CONTACT_LIST_IMPORT_TOO_LARGE");
  const totalRows = Math.max(0, rows - 1);
  // Numbers of the file seen so far: a number repeated further down is counted, not written.
  const seen = new Set<string>();
  let at = 1;
  // Resuming: the rows already committed are read only to know their numbers.
  const resumeAt = Math.min(rows, input.after + 1);
  while (at < resumeAt) {
    const end = Math.min(resumeAt, at + batchRows);
    const cells = sheet.slice(at, end);
    for (let i = 0; i < cells.length; i++) {
      const r = checkRow(cells[i]!, at + i + 1, columns);
      if (r && !isRowError(r)) seen.add(r.number);
    }
    at = end;
  }
  post({ type: "start", totalRows });

  const next = () => {
    if (at >= rows) return post({ type: "end", totalRows });
    const end = Math.min(rows, at + batchRows);
    const cells = sheet.slice(at, end);
    const good: ImportRow[] = [];
    const bad: ImportRowError[] = [];
    let repeated = 0;
    for (let i = 0; i < cells.length; i++) {
      const r = checkRow(cells[i]!, at + i + 1, columns);
      if (!r) continue;
      if (isRowError(r)) bad.push(r);
      else if (seen.has(r.number)) repeated++;
      else {
        seen.add(r.number);
        good.push(r);
      }
    }
    post({ type: "batch", processed: end - 1, good, bad, repeated });
    at = end;
  };
  port.on("message", (m: ToSheetWorker) => {
    try {
      if (m.type === "next") next();
    } catch (err) {
      fail(err);
    }
  });
}
