/**
 * The contacts import's reading, in a worker thread (started by importReader.ts from a bundle of
 * this module, as the contact-list import's sheetWorker.ts is): unzipping and parsing a spreadsheet
 * is synchronous work that a 300 KB .xlsx can stretch into seconds, which on the server's thread
 * would keep every other request waiting. Here the file is read, its rows checked with the contact
 * dialog's rules, and the plan posted back once.
 *
 * Imports only what the checks need (no HTTP layer, no database): everything reached is bundled.
 */
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../lib/threadPriority.js";
import { ImportRefused, planImport, readImportFile } from "./importFile.js";
import type { FromImportWorker, ImportWorkerInput } from "./importReader.js";

const input = workerData as ImportWorkerInput;
const post = (m: FromImportWorker) => parentPort!.postMessage(m);

// The server's thread answers requests meanwhile: on a busy machine it gets the cores first.
lowerThreadPriority();

try {
  const data = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  post({ type: "plan", plan: planImport(readImportFile(data, input.maxUnzippedBytes), input.lang) });
} catch (err) {
  post({
    type: "error",
    code: err instanceof ImportRefused ? err.code : null,
    message: err instanceof Error ? err.message : String(err),
  });
}
