import fs from "node:fs";
import path from "node:path";

/**
 * PGlite does not lock its data directory: two processes on one folder silently lose writes.
 * We take an exclusive lock file (O_EXCL) holding our pid. A lock left by a dead process is
 * taken over; a live owner makes us refuse to start with a clear message.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dir} is in use by another Atende process (pid ${ownerPid}). ` +
        `Stop that process, or start this one with another DATA_DIR.`,
    );
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "atende.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (isAlive(owner) && owner !== process.pid) throw new DataDirLockedError(dir, owner);
      if (owner === process.pid) throw new DataDirLockedError(dir, owner);
      fs.unlinkSync(lockPath); // stale lock from a process that died
    }
  }
  throw new Error(`Could not lock ${dir}`);
}
