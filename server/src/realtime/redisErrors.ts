import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
} from "redis";

const LOST = [
  SocketClosedUnexpectedlyError,
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  SocketTimeoutError,
  DisconnectsClientError,
];

/**
 * A Redis command that failed because the connection went away (Redis restarting, a network cut):
 * the client reconnects by itself, so work nobody awaited that failed this way (a command the
 * Socket.IO adapter sent without a catch) is logged, not a crash. A Redis error reply is not one.
 */
export function isRedisConnectionLost(err: unknown): boolean {
  return LOST.some((kind) => err instanceof kind);
}
