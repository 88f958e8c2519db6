import { CALL_MAX_MS, DEFAULT_MAX_BYTES, type Outbound, OutboundSocketError } from "../../../lib/outbound.js";
import { BotError } from "./contract.js";

/**
 * JSON over HTTP for the adapters, through the guarded client: the turn's abort signal on every
 * request, an answer read within `maxBytes` (1 MiB by default), a non-2xx answer as a BotError
 * naming the service (never shown to the customer), and `retries` more attempts when the request
 * did not reach the service at all (refused, reset, DNS), never after an answer and never for an
 * address the server may not call. `trustedBase`: the operator's configured base (AI, Google).
 */
export async function postJson<T = unknown>(
  outbound: Outbound,
  url: string,
  body: unknown,
  opts: {
    signal: AbortSignal;
    headers?: Record<string, string>;
    retries?: number;
    raw?: string;
    trustedBase?: string;
    maxBytes?: number;
  },
): Promise<T> {
  const payload = opts.raw ?? JSON.stringify(body);
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await outbound.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...opts.headers },
        body: payload,
        signal: opts.signal,
        timeoutMs: CALL_MAX_MS,
        maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
        trustedBase: opts.trustedBase,
      });
    } catch (err) {
      // Only a socket's failure is tried again; the client's own refusals (an address it may not
      // reach, an answer over the cap, too many redirects, not an http(s) URL) and the deadline are final.
      if (!(err instanceof OutboundSocketError) || opts.signal.aborted || attempt >= (opts.retries ?? 0))
        throw err;
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
