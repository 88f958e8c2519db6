import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request a fake received: enough for a test to check what our server sent. */
export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The body parsed as JSON when it is JSON. */
  json?: unknown;
  at: number;
}

export interface Answer {
  status?: number;
  json?: unknown;
  body?: Buffer | string;
  contentType?: string;
  /** More headers of the answer (a redirect's Location). */
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering (a slow service). */
  delayMs?: number;
  /** Drops the connection without answering (a network error on the caller's side). */
  destroy?: boolean;
}

export interface HttpFake {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 (random port) that records every request and answers what
 * `handle` says: the base the protocol fakes (Typebot, OpenAI-compatible, Google, Azure) build on.
 */
export async function startHttpFake(
  handle: (req: Recorded) => Answer | Promise<Answer>,
  opts: { port?: number } = {},
): Promise<HttpFake> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const rec: Recorded = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        raw,
        at: Date.now(),
      };
      if ((req.headers["content-type"] ?? "").includes("json") && raw.length) {
        try {
          rec.json = JSON.parse(raw.toString("utf8"));
        } catch {
          // recorded raw
        }
      }
      requests.push(rec);
      void Promise.resolve(handle(rec)).then(
        async (a) => {
          if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
          if (res.destroyed) return;
          if (a.destroy) {
            req.socket.destroy();
            return;
          }
          const body = a.json !== undefined ? JSON.stringify(a.json) : (a.body ?? "");
          res.writeHead(a.status ?? 200, {
            "content-type": a.contentType ?? (a.json !== undefined ? "application/json" : "text/plain"),
            ...a.headers,
          });
          res.end(body);
        },
        (err: unknown) => {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(String(err));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
