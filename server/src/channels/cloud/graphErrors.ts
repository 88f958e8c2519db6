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
/** The access token expired or is invalid: the connection must be set up again. */
const INVALID_TOKEN = 190;
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
  if (code === OUTSIDE_24H_WINDOW) return new ChannelError(message, false, "ERR_WAPP_24H_WINDOW");
  if (code === INVALID_TOKEN || (status === 401 && code === undefined))
    return new ChannelError(message, false, "ERR_WAPP_NOT_INITIALIZED");
  if ((code !== undefined && TEMPORARY_CODES.has(code)) || status === 429 || status >= 500) {
    return new ChannelError(message, true, fallbackCode, parseRetryAfter(retryAfterHeader));
  }
  return new ChannelError(message, false, fallbackCode);
}

/** A request that never got an answer (refused, reset, timed out): worth trying again. */
export function channelErrorFromNetwork(
  err: unknown,
  what: string,
  fallbackCode = "ERR_SENDING_WAPP_MSG",
): ChannelError {
  const reason = err instanceof Error ? err.message : String(err);
  return new ChannelError(`${what}: ${reason}`, true, fallbackCode, DEFAULT_RETRY_SECONDS);
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
