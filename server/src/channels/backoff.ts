/** The longest wait between two attempts to bring a session up (a socket reconnect, a failed start). */
export const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * 1 s, 2 s, 4 s ... up to 5 minutes, each between half and all of it so many sessions do not retry
 * in step (a whole instance's connections drop together when its network does).
 */
export function exponentialBackoff(attempt: number): number {
  const ceiling = Math.min(1000 * 2 ** Math.min(attempt - 1, 30), MAX_BACKOFF_MS);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
