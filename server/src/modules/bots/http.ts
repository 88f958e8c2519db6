import { BotError } from "./contract.js";

/**
 * JSON over HTTP for the adapters: the turn's abort signal on every request, a non-2xx answer as a
 * BotError naming the service (never shown to the customer), and `retries` more attempts when the
 * request did not reach the service at all (refused, reset, DNS), never after an answer.
 */
export async function postJson<T = unknown>(
  url: string,
  body: unknown,
  opts: { signal: AbortSignal; headers?: Record<string, string>; retries?: number; raw?: string },
): Promise<T> {
  const payload = opts.raw ?? JSON.stringify(body);
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...opts.headers },
        body: payload,
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal.aborted || attempt >= (opts.retries ?? 0)) throw err;
      continue;
    }
    const text = await res.text();
    if (!res.ok) throw new BotError(`${new URL(url).host} answered ${res.status}: ${text.slice(0, 300)}`);
    if (!text.trim()) return {} as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new BotError(`${new URL(url).host} answered something other than JSON`);
    }
  }
}
