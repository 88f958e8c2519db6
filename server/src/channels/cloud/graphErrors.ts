import { OutboundError, OutboundRefused } from "../../lib/outbound.js";
import { ChannelError } from "../provider.js";

/** Graph's error body: `{ error: { message, type, code, error_subcode, error_data: { details }, fbtrace_id } }`. */
export interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { messaging_product?: string; details?: string };
    fbtrace_id?: string;
  };
}

/** Seconds to wait before retrying when Graph did not say (rate limits, outages, network errors). */
export const DEFAULT_RETRY_SECONDS = 30;

/** Re-engagement message: more than 24 hours since the customer's last message; only a template may go. */
const OUTSIDE_24H_WINDOW = 131047;
/**
 * Template errors (the 132000 series) by what the agent can do about them: fix the variables, pick
 * another template, or wait for Meta to enable it again.
 */
const TEMPLATE_ERRORS = new Map<number, string>([
  [132000, "ERR_WAPP_TEMPLATE_PARAMS"], // number of parameters does not match the template
  [132005, "ERR_WAPP_TEMPLATE_PARAMS"], // the text with its parameters is too long
  [132007, "ERR_WAPP_TEMPLATE_PARAMS"], // a parameter breaks the format's character policy
  [132012, "ERR_WAPP_TEMPLATE_PARAMS"], // a parameter's format does not match the template
  [132001, "ERR_WAPP_TEMPLATE_MISSING"], // no such template (name or language)
  [132015, "ERR_WAPP_TEMPLATE_PAUSED"], // paused for low quality
  [132016, "ERR_WAPP_TEMPLATE_PAUSED"], // disabled for low quality
]);

/** The ERR_* code of a Graph error code the agent is shown by name (131047, the 132000 series), or null. */
export function errCodeOfGraphCode(code: number | undefined): string | null {
  if (code === undefined) return null;
  if (code === OUTSIDE_24H_WINDOW) return "ERR_WAPP_24H_WINDOW";
  if (code >= 132000 && code < 133000) return TEMPLATE_ERRORS.get(code) ?? "ERR_WAPP_TEMPLATE";
  return null;
}

/** The access token expired or is invalid: the connection must be set up again. */
const INVALID_TOKEN = 190;
/** The code of a call Graph refused for its token (190): a person must set a new one on the connection. */
export const TOKEN_REFUSED = "ERR_WAPP_TOKEN_EXPIRED";
/**
 * Errors that pass with time: throttling (4 app calls, 80007 account, 130429 throughput, 131056
 * pair rate) and Meta's temporary failures (1 unknown, 2 service, 131016 service unavailable).
 */
const TEMPORARY_CODES = new Set([1, 2, 4, 80007, 130429, 131016, 131056]);

/**
 * Turns a failed Graph answer into the ChannelError the outbound queue acts on: retryable with a
 * delay, or final with an ERR_* code the UI can show. `fallbackCode` names what was being done.
 */
export function channelErrorFromGraph(
  status: number,
  body: GraphErrorBody | null,
  retryAfterHeader: string | null,
  fallbackCode = "ERR_SENDING_WAPP_MSG",
): ChannelError {
  const code = body?.error?.code;
  const message = describeGraphError(status, body);
  const named = errCodeOfGraphCode(code);
  if (named) return new ChannelError(message, false, named);
  if (code === INVALID_TOKEN) return new ChannelError(message, false, TOKEN_REFUSED);
  if (status === 401 && code === undefined)
    return new ChannelError(message, false, "ERR_WAPP_NOT_INITIALIZED");
  if ((code !== undefined && TEMPORARY_CODES.has(code)) || status === 429 || status >= 500) {
    return new ChannelError(message, true, fallbackCode, parseRetryAfter(retryAfterHeader));
  }
  return new ChannelError(message, false, fallbackCode);
}

/** Connection errors that happen before a request is written: Graph never saw it. */
const NEVER_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * A request that never got an answer (refused, reset, timed out): worth trying again, unless it is
 * not idempotent (a send) and may have reached Graph: then it is ERR_WAPP_SEND_UNKNOWN, final, and
 * the status webhook settles it (a send retried now could reach the customer twice).
 */
export function channelErrorFromNetwork(
  err: unknown,
  what: string,
  fallbackCode = "ERR_SENDING_WAPP_MSG",
  opts: { notIdempotent?: boolean } = {},
): ChannelError {
  const reason = err instanceof Error ? err.message : String(err);
  // The guarded client's own refusal (an address it may not reach, an answer over its cap, too many
  // redirects): trying again changes nothing. Only a refused address surely sent nothing.
  if (err instanceof OutboundError) {
    const maybeSent = opts.notIdempotent && !(err instanceof OutboundRefused);
    return new ChannelError(`${what}: ${reason}`, false, maybeSent ? SEND_OUTCOME_UNKNOWN : fallbackCode);
  }
  if (opts.notIdempotent && !neverSent(err))
    return new ChannelError(`${what}: ${reason}`, false, SEND_OUTCOME_UNKNOWN);
  return new ChannelError(`${what}: ${reason}`, true, fallbackCode, DEFAULT_RETRY_SECONDS);
}

/** The code of a send that may or may not have gone out (see channelErrorFromNetwork). */
export const SEND_OUTCOME_UNKNOWN = "ERR_WAPP_SEND_UNKNOWN";

/** fetch's "fetch failed" carries the socket's error as `cause` (undici); a timeout has none. */
function neverSent(err: unknown): boolean {
  const cause = err instanceof Error ? (err.cause as { code?: string } | undefined) : undefined;
  const code = cause?.code;
  return code !== undefined && NEVER_SENT_CODES.has(code);
}

/** Meta's message with its details, e.g. "(#131047) Re-engagement message: Message failed to send because …". */
function describeGraphError(status: number, body: GraphErrorBody | null): string {
  const error = body?.error;
  if (!error?.message) return `Graph API answered HTTP ${status}`;
  const details = error.error_data?.details;
  return details ? `${error.message}: ${details}` : error.message;
}

/** Retry-After as seconds or as an HTTP date; DEFAULT_RETRY_SECONDS when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number {
  if (!header) return DEFAULT_RETRY_SECONDS;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? DEFAULT_RETRY_SECONDS : Math.max(0, Math.ceil((at - now) / 1000));
}
