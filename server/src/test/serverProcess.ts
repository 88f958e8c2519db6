import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NO_GRAPH_URL } from "./network.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The real server (`node --import tsx src/main.ts`) as a child process, for what only a process shows. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Resolves once GET /health answers `status`; throws after `timeoutMs`. */
  health(status: number, timeoutMs?: number): Promise<void>;
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-proc-"));
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: "test",
      SEED_DEMO: "false",
      LOG_LEVEL: "error",
      JWT_SECRET: "process-test-secret-".padEnd(48, "x"),
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      WEB_DIST: path.join(dataDir, "no-web"),
      TEST_DATABASE_URL: "",
      GRAPH_API_URL: NO_GRAPH_URL,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (b) => (out += String(b)));
  child.stderr!.on("data", (b) => (out += String(b)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  void exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    url,
    output: () => out,
    exited,
    async health(status, timeoutMs = 90_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
        const got = await fetch(`${url}/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (got === status) return;
        if (Date.now() > until)
          throw new Error(`/health did not answer ${status} in time (last ${got}):\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async kill() {
      if (child.exitCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}
