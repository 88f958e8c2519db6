/**
 * bench/import's baseline, in a worker thread of its own (started by import.ts): the same
 * spreadsheet read with the import's own reader (`openSheet`, the same SheetJS options) and every
 * row turned into text cells, 500 at a time, with nothing checked or written. Posts the rows read
 * and the time taken.
 */
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { CONTACT_LIST_IMPORT_LIMITS } from "@atende/contracts";
import { openSheet } from "../../server/src/modules/contactLists/parse.js";

const { file, fileName } = workerData as { file: string; fileName: string };
const started = performance.now();
const sheet = openSheet(fs.readFileSync(file), fileName, CONTACT_LIST_IMPORT_LIMITS.maxRows + 2);
let cells = 0;
for (let at = 1; at < sheet.rows; at += CONTACT_LIST_IMPORT_LIMITS.batchRows)
  for (const row of sheet.slice(at, Math.min(sheet.rows, at + CONTACT_LIST_IMPORT_LIMITS.batchRows)))
    cells += row.length;
parentPort!.postMessage({ rows: sheet.rows - 1, cells, ms: performance.now() - started });
