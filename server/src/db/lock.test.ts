import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "./lock.js";

const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("data directory lock", () => {
  it("refuses a second lock on the same folder while the first is held, and allows it after release", () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    release();
    const again = lockDataDir(dir);
    again();
  });

  it("takes over a lock left by a process that died", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "atende.lock"), "2147483646");
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "atende.lock"), "utf8")).toBe(String(process.pid));
    release();
  });

  it("a second server process on the same DATA_DIR exits with a clear message", async () => {
    const dir = tempDir();
    const release = lockDataDir(dir); // this test process plays the first server
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
      child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: serverDir,
        env: {
          ...process.env,
          DATA_DIR: dir,
          PORT: "0",
          LOG_LEVEL: "silent",
          TEST_DATABASE_URL: "",
          DATABASE_URL: "",
        },
      });
      let stderr = "";
      child.stderr!.on("data", (b) => (stderr += String(b)));
      const code = await new Promise<number | null>((resolve) => child!.on("exit", resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(
        `The data directory ${dir} is in use by another Atende process (pid ${process.pid})`,
      );
    } finally {
      // A test that timed out must not leave a whole server running (one was found 28 min later).
      if (child && child.exitCode === null) child.kill("SIGKILL");
      release();
    }
    // A cold start of the whole app under tsx: it took past 20 s once, beside the rest of the suite
    // and an e2e loop on two cores.
  }, 60_000);
});
