import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A company's webhook endpoint as the benchmarks play it: answers every delivery 204 at once and
 * counts them (by the event named in the body), so the server's dispatch and deliveries run as they
 * would for a company that subscribed.
 */
export async function startWebhookReceiver() {
  const received = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let event = "unreadable";
      try {
        event = String((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event?: unknown }).event);
      } catch {
        // counted as unreadable
      }
      received.set(event, (received.get(event) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/atende-webhook`,
    /** Deliveries received so far, per event, as "ticket.created 50, contact.created 50". */
    summary: () => [...received].map(([event, n]) => `${event} ${n}`).join(", ") || "none",
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
