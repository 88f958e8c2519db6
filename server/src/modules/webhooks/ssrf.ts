import { AppError } from "../../http/errors.js";
import type { Outbound } from "../../lib/outbound.js";

/**
 * No SSRF through webhooks: a receiver must be a public address. Checked when a subscription is
 * saved (here, by the rule every saved URL follows: Outbound.accept), and again on every delivery
 * by the guarded client (lib/outbound.ts), which judges the addresses the name resolves to when the
 * socket connects: a name that resolves to a public address at save time and to 127.0.0.1 later is
 * refused then too.
 */

/**
 * The receiver's URL: ERR_WEBHOOK_URL_INVALID when it is not an http(s) URL without credentials,
 * ERR_WEBHOOK_URL_FORBIDDEN when its host is, or resolves now to, an address the server may not
 * call. A name that does not resolve yet is accepted (judged again on every delivery).
 */
export function assertPublicUrl(outbound: Outbound, raw: string): Promise<URL> {
  return outbound.accept(
    raw,
    { invalid: "ERR_WEBHOOK_URL_INVALID", forbidden: "ERR_WEBHOOK_URL_FORBIDDEN" } as const,
    (code) => new AppError(code),
  );
}
