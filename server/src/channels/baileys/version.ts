import { DEFAULT_CONNECTION_CONFIG, type WAVersion } from "./lib.js";
import type { Outbound } from "../../lib/outbound.js";
import type { BaileysLogger } from "./logger.js";

/** Where Baileys' own fetchLatestWaWebVersion reads the version WhatsApp Web runs now. */
export const WA_WEB_VERSION_URL = "https://web.whatsapp.com/sw.js";
/** A connect waits at most this long for the answer before using the bundled version. */
export const WA_WEB_VERSION_TIMEOUT_MS = 5_000;
/** A version read is used this long by every session starting or reconnecting. */
export const WA_WEB_VERSION_TTL_MS = 60 * 60_000;
/** After a failed read, the bundled version is used this long before asking again. */
export const WA_WEB_VERSION_RETRY_MS = 5 * 60_000;

/** The version Baileys announces when it is given none. */
export const BUNDLED_WA_WEB_VERSION: WAVersion = DEFAULT_CONNECTION_CONFIG.version;

/** The WhatsApp Web version a socket announces, and where it came from (logged at each connect). */
export interface WaWebVersion {
  version: WAVersion;
  source: "configured" | "fetched" | "bundled";
}

/** The current WhatsApp Web version, read once for every session of the instance for a while. */
export interface WaWebVersionSource {
  /** The version to announce now: the one read from WhatsApp Web, or the bundled one when it could not be. */
  current(): Promise<WaWebVersion>;
  /** WhatsApp refused the version announced (405): the next connect reads it again. */
  forget(): void;
}

/**
 * Reads the version WhatsApp Web serves now, as Baileys' `fetchLatestWaWebVersion` does (its
 * service worker names its `client_revision`), through the guarded outbound client: the URL is the
 * operator's, the wait bounded, the answer capped. Sessions share the read (N sessions starting make
 * one request); a failed or garbled answer falls back to Baileys' bundled version, logged, and is
 * asked again a few minutes later. When WhatsApp retires the bundled version (every socket closed
 * with 405), the sessions come back on their own instead of waiting for a redeploy.
 */
export function waWebVersionSource(options: {
  outbound: Pick<Outbound, "fetch">;
  url: string;
  logger: Pick<BaileysLogger, "info" | "warn">;
  timeoutMs?: number;
  ttlMs?: number;
  retryMs?: number;
  now?: () => number;
}): WaWebVersionSource {
  const now = options.now ?? Date.now;
  let known: { answer: WaWebVersion; until: number } | null = null;
  let reading: Promise<WaWebVersion> | null = null;

  async function read(): Promise<WaWebVersion> {
    try {
      const res = await options.outbound.fetch(options.url, {
        trustedBase: options.url,
        timeoutMs: options.timeoutMs ?? WA_WEB_VERSION_TIMEOUT_MS,
        maxBytes: 4 * 1024 * 1024,
        // What Baileys sends: WhatsApp Web answers a browser's request.
        headers: {
          "sec-fetch-site": "none",
          "user-agent":
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        },
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      const revision = parseClientRevision(await res.text());
      if (revision === null) throw new Error("no client_revision in the answer");
      const answer: WaWebVersion = { version: [2, 3000, revision], source: "fetched" };
      options.logger.info(
        { version: answer.version.join("."), url: options.url },
        "baileys: current WhatsApp Web version read",
      );
      known = { answer, until: now() + (options.ttlMs ?? WA_WEB_VERSION_TTL_MS) };
      return answer;
    } catch (err) {
      const answer: WaWebVersion = { version: BUNDLED_WA_WEB_VERSION, source: "bundled" };
      options.logger.warn(
        { err, url: options.url, version: answer.version.join(".") },
        "baileys: could not read the current WhatsApp Web version; announcing Baileys' bundled one",
      );
      known = { answer, until: now() + (options.retryMs ?? WA_WEB_VERSION_RETRY_MS) };
      return answer;
    }
  }

  return {
    current() {
      if (known && known.until > now()) return Promise.resolve(known.answer);
      reading ??= read().finally(() => {
        reading = null;
      });
      return reading;
    },
    forget() {
      known = null;
    },
  };
}

/** The `client_revision` WhatsApp Web's service worker names (escaped inside a JSON string, or not). */
export function parseClientRevision(body: string): number | null {
  const match = /\\?"client_revision\\?":\s*(\d+)/.exec(body);
  if (!match) return null;
  const revision = Number(match[1]);
  return Number.isSafeInteger(revision) && revision > 0 ? revision : null;
}
