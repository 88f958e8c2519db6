import { DisconnectReason } from "./lib.js";
import { ChannelError } from "../provider.js";

/** The status code Baileys puts on its errors (they are @hapi/boom errors: `output.statusCode`). */
export function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("output" in error)) return undefined;
  const { output } = error;
  if (typeof output !== "object" || output === null || !("statusCode" in output)) return undefined;
  return typeof output.statusCode === "number" ? output.statusCode : undefined;
}

/** Codes under 500 that still mean "try again later": the link dropped, timed out, or was rate limited. */
const TRANSIENT_CODES = new Set<number>([
  DisconnectReason.timedOut,
  DisconnectReason.connectionClosed,
  DisconnectReason.connectionReplaced,
  429,
]);

/**
 * A send failure as the outbound queue needs it. Errors without a code are network or socket
 * trouble (fetch failed, socket hang up) and are retried; 4xx answers (bad jid, not allowed,
 * not found) are not, since a retry would be refused the same way.
 */
export function toChannelError(error: unknown, code = "ERR_SENDING_WAPP_MSG"): ChannelError {
  if (error instanceof ChannelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const status = statusCodeOf(error);
  const retryable = status === undefined || status >= 500 || TRANSIENT_CODES.has(status);
  return new ChannelError(message, retryable, code);
}

/** Raised when a session is asked to act while its socket is not open; the queue tries again later. */
export function notConnected(): ChannelError {
  return new ChannelError("The WhatsApp session is not connected", true, "ERR_WAPP_NOT_INITIALIZED");
}
