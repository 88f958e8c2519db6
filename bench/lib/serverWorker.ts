import { parentPort, workerData } from "node:worker_threads";
import { threadCpu } from "./cpu.js";
import { threadMemory } from "./memory.js";
import { type ServerOptions, startServer } from "./server.js";

/**
 * The server under measure in a thread of its own, so the load generator and the agent's socket
 * client (main thread) do not queue work in front of the server's event loop.
 */
export type ToServer =
  { type: "reset-profile" } | { type: "profile" } | { type: "cpu" } | { type: "memory" } | { type: "stop" };

const port = parentPort!;
const fail = (err: unknown) =>
  port.postMessage({
    type: "error",
    message: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });

try {
  const server = await startServer(workerData as ServerOptions);
  port.on("message", (msg: ToServer) => {
    switch (msg.type) {
      case "reset-profile":
        server.resetProfile().then(() => port.postMessage({ type: "profile-reset" }), fail);
        break;
      case "profile":
        server.profile().then((profile) => port.postMessage({ type: "profile", profile }), fail);
        break;
      case "cpu":
        port.postMessage({ type: "cpu", cpu: threadCpu() });
        break;
      case "memory":
        port.postMessage({ type: "memory", memory: threadMemory() });
        break;
      case "stop":
        server.stop().then(() => {
          port.postMessage({ type: "stopped" });
          port.close();
        }, fail);
        break;
    }
  });
  port.postMessage({ type: "ready", info: server.info });
} catch (err) {
  fail(err);
}
