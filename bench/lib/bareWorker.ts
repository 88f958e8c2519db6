import http from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort } from "node:worker_threads";
import { Server } from "socket.io";
import { threadMemory } from "./memory.js";

/**
 * The bare baseline of bench/fanout, in a thread of its own as the app's server is: a plain HTTP
 * server with Socket.IO on it. Every socket joins one room; `POST /emit` emits its body, parsed, to
 * that room under the event name in `?event=`. No authentication, no database, no adapter.
 */
const port = parentPort!;
const server = http.createServer((req, res) => {
  if (req.method !== "POST" || !req.url?.startsWith("/emit")) {
    res.writeHead(404).end();
    return;
  }
  const event = new URL(req.url, "http://x").searchParams.get("event") ?? "bare";
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    io.to("company").emit(event, JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
    res.writeHead(204).end();
  });
});
const io = new Server(server);
io.on("connection", (socket) => {
  void socket.join("company");
  socket.emit("ready");
});
server.listen(0, "127.0.0.1", () => {
  port.postMessage({ type: "ready", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
port.on("message", (msg: { type: "memory" | "stop" }) => {
  if (msg.type === "memory") port.postMessage({ type: "memory", memory: threadMemory() });
  if (msg.type === "stop") {
    io.local.disconnectSockets(true);
    io.close(() => port.postMessage({ type: "stopped" }));
  }
});
