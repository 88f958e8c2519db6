import net from "node:net";

/**
 * Where the Graph API is in tests unless a test starts the fake (fakes/graph.ts): the discard port
 * on loopback, which refuses at once, so nothing a test does can reach Meta.
 */
export const NO_GRAPH_URL = "http://127.0.0.1:9/v21.0";
/** Google's token endpoint and Dialogflow in tests unless a test starts the fake (fakes/google.ts). */
export const NO_GOOGLE_URL = "http://127.0.0.1:9";
/** The AI provider (prompts, the composer's AI help) in tests unless a test starts the fake (fakes/ai.ts). */
export const NO_OPENAI_URL = "http://127.0.0.1:9/v1";

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|0\.0\.0\.0|::)$/i;

/** The outside hosts tests of this file tried to reach. */
export const blockedConnections: string[] = [];
let installed = false;

/** The host a `Socket#connect` call dials, or null for a local (IPC) path. */
function hostOf(args: unknown[]): string | null {
  // net.connect/tls.connect hand over their normalised arguments as one array.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === "object") {
    const options = first as { host?: string; path?: string };
    if (options.path) return null;
    return options.host ?? "localhost";
  }
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first)))
    return typeof args[1] === "string" ? args[1] : "localhost";
  return typeof first === "string" ? null : "localhost";
}

/**
 * Refuses every TCP connection a test opens to a host other than this machine (fetch, http, tls,
 * WebSocket and database clients all connect through `net.Socket`): the socket fails with an error
 * that names the host, and `blockedConnections` keeps it for the suite to fail on, since the app may
 * catch the error and carry on. Installed once per test worker. `allowed` adds hosts (the PostgreSQL server of TEST_DATABASE_URL).
 */
export function blockOutboundConnections(allowed: string[] = []): void {
  if (installed) return;
  installed = true;
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const host = hostOf(args);
    if (host === null || LOOPBACK.test(host.replace(/^\[|\]$/g, "")) || allowed.includes(host))
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    blockedConnections.push(host);
    const error = new Error(
      `Outbound connection to ${host} refused: tests never leave this machine (start a local fake instead)`,
    );
    process.nextTick(() => this.destroy(error));
    return this;
  } as typeof connect;
}
