import { AppError } from "../../http/errors.js";
import { callableUrl, createOutbound } from "../../lib/outbound.js";

/**
 * No SSRF through webhooks: a receiver must be a public address. Checked when a subscription is
 * saved (here), and again on every delivery by the guarded client (lib/outbound.ts), which judges
 * the addresses the name resolves to when the socket connects: a name that resolves to a public
 * address at save time and to 127.0.0.1 later is refused then too.
 */

/** The URL as a receiver's: http(s), with a host, no credentials. Throws ERR_WEBHOOK_URL_INVALID. */
export function receiverUrl(raw: string): URL {
  const url = callableUrl(raw);
  if (!url) throw new AppError("ERR_WEBHOOK_URL_INVALID");
  return url;
}

/**
 * The receiver's URL, or ERR_WEBHOOK_URL_FORBIDDEN when its host is or resolves to an address the
 * server may not call (`allowPrivate`: OUTBOUND_ALLOW_PRIVATE), ERR_WEBHOOK_URL_INVALID when it is
 * not an http(s) URL or its name does not resolve.
 */
export async function assertPublicUrl(raw: string, allowPrivate: string): Promise<URL> {
  const verdict = await createOutbound(allowPrivate).check(raw);
  if (verdict.ok) return verdict.url;
  throw new AppError(
    verdict.reason === "forbidden" ? "ERR_WEBHOOK_URL_FORBIDDEN" : "ERR_WEBHOOK_URL_INVALID",
  );
}
