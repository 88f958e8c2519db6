import http from "node:http";
import type { AddressInfo } from "node:net";

/** A loopback listener that records the paths it was asked for. */
export interface Listener {
  url: string;
  port: number;
  seen: string[];
  close(): Promise<void>;
}

/**
 * A bare HTTP listener on 127.0.0.1 (random port) whose `handle` writes the answer itself (a
 * redirect, a body streamed past a cap, a socket left hanging), after the request's body is read.
 * The SSRF tests use it as the internal service that must never hear from the server; protocol
 * fakes build on httpFake.ts instead.
 */
export async function listen(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end(),
): Promise<Listener> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    req.resume();
    req.on("end", () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
