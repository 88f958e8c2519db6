import { type EventLoopUtilization, performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { type CpuTime, threadCpu } from "./cpu.js";
import { type ThreadMemory, threadMemory } from "./memory.js";
import { type ServerInfo, type ServerOptions, type ServerProfile, startServer } from "./server.js";
import type { ToServer } from "./serverWorker.js";

/** The server under measure, wherever it runs; `elu` is its event loop's utilization since `since`. */
export interface ServerHandle {
  info: ServerInfo;
  where: "thread" | "inline";
  resetProfile(): Promise<void>;
  profile(): Promise<ServerProfile>;
  elu(since?: EventLoopUtilization): EventLoopUtilization;
  /** CPU time the server's thread has used so far. */
  cpu(): Promise<CpuTime>;
  /** The server's heap, after a full collection when the process runs with --expose-gc. */
  memory(): Promise<ThreadMemory>;
  stop(): Promise<void>;
}

type FromServer =
  | { type: "ready"; info: ServerInfo }
  | { type: "profile-reset" }
  | { type: "profile"; profile: ServerProfile }
  | { type: "cpu"; cpu: CpuTime }
  | { type: "memory"; memory: ThreadMemory }
  | { type: "stopped" }
  | { type: "error"; message: string };

/**
 * Starts the server in its own worker thread (the default: the load generator gets the main thread's
 * event loop), or inline in this thread when BENCH_SERVER=inline.
 */
export async function launchServer(opts: ServerOptions, where: "thread" | "inline"): Promise<ServerHandle> {
  if (where === "inline") {
    const server = await startServer(opts);
    return {
      info: server.info,
      where,
      resetProfile: () => server.resetProfile(),
      profile: () => server.profile(),
      elu: (since) => performance.eventLoopUtilization(since),
      cpu: async () => threadCpu(),
      memory: async () => threadMemory(),
      stop: () => server.stop(),
    };
  }

  // Node 20 does not carry `--import tsx` into workers: the worker registers tsx, then loads its module.
  const tsx = import.meta.resolve("tsx/esm/api");
  const entry = new URL("./serverWorker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: opts });
  const waiting = new Map<FromServer["type"], (msg: FromServer) => void>();
  let failure: Error | null = null;
  const failAll = (err: Error) => {
    failure = err;
    for (const resolve of waiting.values()) resolve({ type: "error", message: err.message });
    waiting.clear();
  };
  worker.on("message", (msg: FromServer) => {
    if (msg.type === "error") return failAll(new Error(`server thread: ${msg.message}`));
    const resolve = waiting.get(msg.type);
    waiting.delete(msg.type);
    resolve?.(msg);
  });
  worker.on("error", (err) => failAll(err));
  worker.on("exit", (code) => {
    if (code !== 0) failAll(new Error(`server thread exited with code ${code}`));
  });

  function request<T extends FromServer["type"]>(
    send: ToServer | null,
    answer: T,
  ): Promise<Extract<FromServer, { type: T }>> {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      waiting.set(answer, (msg) =>
        msg.type === "error"
          ? reject(new Error(msg.message))
          : resolve(msg as Extract<FromServer, { type: T }>),
      );
      if (send) worker.postMessage(send);
    });
  }

  const ready = await request(null, "ready").catch(async (err) => {
    await worker.terminate();
    throw err;
  });
  return {
    info: ready.info,
    where,
    resetProfile: async () => {
      await request({ type: "reset-profile" }, "profile-reset");
    },
    profile: async () => (await request({ type: "profile" }, "profile")).profile,
    elu: (since) => worker.performance.eventLoopUtilization(since),
    cpu: async () => (await request({ type: "cpu" }, "cpu")).cpu,
    memory: async () => (await request({ type: "memory" }, "memory")).memory,
    async stop() {
      try {
        // A server that cannot close (requests still coming) is cut off after a while.
        await Promise.race([
          request({ type: "stop" }, "stopped"),
          new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
        ]);
      } finally {
        await worker.terminate();
      }
    },
  };
}
