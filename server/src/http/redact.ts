import type { FastifyServerOptions } from "fastify";
import { callerMixin } from "./logContext.js";

/**
 * What a log line may say of a request's URL. A credential can ride in a query string (the socket
 * accepts `?token=` from older clients) or in a path (the legacy password reset,
 * `/resetpasswords/{email}/{token}/{newPassword}`). The path is judged by the routes themselves, not
 * by one spelling of it: a route whose parameters carry a credential is logged as its fixed prefix
 * and `[redacted]`, and so is any URL that reads as one of those prefixes once it is decoded,
 * lower-cased and its slashes collapsed (`//resetpasswords/...`, `/%72esetpasswords/...`,
 * `/ResetPasswords/...`), matched or not (a 404 too), or that has a segment named like a credential
 * with more after it.
 */

/**
 * Whether a parameter's or a path segment's name says it carries a credential: it contains
 * password, passwd, token, secret or api key, or has "code" or "pass" as a whole word (code,
 * resetCode, reset_code, and so countryCode too; not qrcode, barcode or bypass).
 */
function isSecretName(name: string): boolean {
  if (/passw(?:or)?d|token|secret|api[-_]?key/i.test(name)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => word === "code" || word === "pass");
}

const REDACTED = "[redacted]";

/** The parameter names of a route pattern (`/a/:id/:token` → id, token). */
const paramsOf = (pattern: string) => [...pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

/** Decodes the ASCII percent-escapes of a path, as often as they nest (`%2572` → `%72` → `r`). */
function decodeAscii(path: string): string {
  for (let i = 0; i < 4; i++) {
    const next = path.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (next === path) break;
    path = next;
  }
  return path;
}

/**
 * The segments of a path as a router, a proxy or a browser might read them: decoded, lower-cased,
 * `\` as `/`, without empty or `.` segments, and `..` resolved if `resolveDots`. Only for judging
 * what a path names, never logged as such.
 */
function segmentsOf(path: string, resolveDots: boolean): string[] {
  const out: string[] = [];
  for (const segment of decodeAscii(path).toLowerCase().replace(/\\/g, "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && resolveDots) out.pop();
    else out.push(segment);
  }
  return out;
}

/** A path as a router, a proxy or a browser might read it (see segmentsOf). */
export function normalizePath(path: string): string {
  return `/${segmentsOf(path, true).join("/")}`;
}

/** Where `part` starts within `whole`, segment for segment, with something after it; -1 if nowhere. */
function startOf(whole: string[], part: string[]): number {
  for (let i = 0; i + part.length < whole.length; i++)
    if (part.every((segment, j) => whole[i + j] === segment)) return i;
  return -1;
}

/** The query string with the values of credential parameters replaced (names judged decoded). */
function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && isSecretName(decodeAscii(name).replace(/\+/g, " ")) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
}

/** The routes whose path carries a credential, learnt as they are registered; redacts URLs for logs. */
export class SecretRoutes {
  /** Each secret route's fixed prefix (its segments, normalized), by its pattern. */
  private readonly prefixByPattern = new Map<string, string[]>();

  /** The app's onRoute hook: a route with a credential among its path parameters is remembered. */
  watch(pattern: string): void {
    if (!paramsOf(pattern).some((name) => isSecretName(name))) return;
    const segments = pattern.split("/").filter(Boolean);
    const firstParam = segments.findIndex((segment) => segment.includes(":") || segment.includes("*"));
    const prefix = segmentsOf(segments.slice(0, firstParam === -1 ? undefined : firstParam).join("/"), true);
    // Without a fixed prefix every URL would read as this route: give it one.
    if (prefix.length === 0)
      throw new Error(`a route with a credential in its path needs a fixed prefix: ${pattern}`);
    this.prefixByPattern.set(pattern, prefix);
  }

  /**
   * The URL as a log may show it. A secret route (the one matched, or one the path reads as, with
   * its `..` kept or resolved, anywhere in it: a proxy's own prefix may come first) shows its prefix
   * and `[redacted]`: its other parameters (the reset's e-mail) and the query go too. So does a path
   * with a segment named like a credential and anything after it (`/reset-password/...`, a 404).
   * Any other URL shows as it came, with credential values in its query replaced.
   */
  redact(req: { url: string; routeOptions?: { url?: string } }): string {
    const url = req.url;
    const cut = url.search(/[?#]/);
    const path = cut === -1 ? url : url.slice(0, cut);
    const matched = req.routeOptions?.url;
    const ofMatched = matched !== undefined ? this.prefixByPattern.get(matched) : undefined;
    const hidden = (kept: string[]) => `/${kept.join("/")}/${REDACTED}`;
    if (ofMatched) return hidden(ofMatched);
    for (const segments of [segmentsOf(path, false), segmentsOf(path, true)]) {
      for (const prefix of this.prefixByPattern.values()) {
        const at = startOf(segments, prefix);
        if (at !== -1) return hidden(segments.slice(0, at + prefix.length));
      }
      const named = segments.findIndex((segment, i) => i < segments.length - 1 && isSecretName(segment));
      if (named !== -1) return hidden(segments.slice(0, named + 1));
    }
    return cut === -1 ? url : `${path}${url[cut]}${redactQuery(url.slice(cut + 1))}`;
  }
}

interface LoggedRequest {
  method: string;
  url: string;
  routeOptions?: { url?: string };
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The app's logger options with the request serializer Fastify uses by default, but with the URL
 * redacted by `secrets` ("incoming request" logs `req.url` as it came), and the signed-in caller on
 * each line of their request (callerMixin). The app feeds `secrets` from an onRoute hook added before
 * any route.
 */
export function withRedactedUrls(
  logger: FastifyServerOptions["logger"],
  secrets: SecretRoutes,
): FastifyServerOptions["logger"] {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    // The signed-in caller, on every line of their request (http/logContext.ts).
    mixin: callerMixin,
    serializers: {
      ...base.serializers,
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: secrets.redact(req),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
