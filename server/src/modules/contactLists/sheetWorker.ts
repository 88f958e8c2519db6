/**
 * The import's reading, in a worker thread (started by sheetReader.ts): SheetJS parses the whole
 * file synchronously, which for a 100,000-row spreadsheet would stop the server's event loop for
 * seconds. Here the stored file is read from disk, parsed, and its rows checked (loose headers,
 * numbers normalized, bad rows with their line) and posted back one batch at a time, each only
 * when the job asks for it, so at most two batches wait in the server's memory.
 */
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { CONTACT_LIST_IMPORT_LIMITS } from "@atende/contracts";
import { AppError } from "../../http/errors.js";
import { checkRow, columnsOf, openSheet } from "./parse.js";
import type { FromSheetWorker, SheetWorkerInput, ToSheetWorker } from "./sheetReader.js";

const input = workerData as SheetWorkerInput;
const port = parentPort!;
const post = (m: FromSheetWorker) => port.postMessage(m);

try {
  run();
} catch (err) {
  post({
    type: "error",
    code: err instanceof AppError ? err.code : "ERR_CONTACT_LIST_IMPORT_INVALID_FILE",
    message: (err as Error).message,
  });
}

function run() {
  const { maxRows, batchRows } = CONTACT_LIST_IMPORT_LIMITS;
  const headerOnly = input.mode === "header";
  const sheet = openSheet(fs.readFileSync(input.file), input.fileName, headerOnly ? 1 : maxRows + 2);
  const columns = columnsOf(sheet.slice(0, 1)[0] ?? []);
  const rows = Math.max(sheet.rows, sheet.fullRows ?? 0);
  if (rows > maxRows + 1) throw new AppError("ERR_CONTACT_LIST_IMPORT_TOO_LARGE");
  if (headerOnly) return post({ type: "end", totalRows: Math.max(0, rows - 1) });
  post({ type: "start", totalRows: Math.max(0, rows - 1) });
  let at = 1;
  const next = () => {
    if (at >= rows) return post({ type: "end", totalRows: Math.max(0, rows - 1) });
    const end = Math.min(rows, at + batchRows);
    const cells = sheet.slice(at, end);
    const checked = [];
    for (let i = 0; i < cells.length; i++) {
      const r = checkRow(cells[i]!, at + i + 1, columns);
      if (r) checked.push(r);
    }
    post({ type: "batch", from: at, end, rows: checked });
    at = end;
  };
  port.on("message", (m: ToSheetWorker) => {
    try {
      if (m.type === "next") next();
    } catch (err) {
      post({ type: "error", code: "ERR_CONTACT_LIST_IMPORT_INVALID_FILE", message: (err as Error).message });
    }
  });
}
