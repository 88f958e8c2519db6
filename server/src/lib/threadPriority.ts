import fs from "node:fs";
import os from "node:os";

/**
 * Lowers the priority of the calling thread (a worker thread doing bulk work: parsing an import),
 * so that on a busy machine the server's own thread, which answers every request, gets the cores
 * first. Linux gives each thread its own nice value (setpriority on the thread's id); elsewhere, or
 * where it is not allowed, the thread keeps the usual priority.
 */
export function lowerThreadPriority(nice = 10): void {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    // Not Linux, or no /proc: the usual priority.
  }
}
