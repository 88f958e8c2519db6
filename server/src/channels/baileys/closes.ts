import { DisconnectReason } from "./lib.js";

/**
 * A logout (401) this soon after WhatsApp asked for a restart (515) is taken for the spurious one
 * WhatsApp sends now and then right after pairing, as Evolution API does: reconnect, keep the
 * credentials. A real logout is answered 401 again, and wipes them once past this window.
 */
export const LOGOUT_AFTER_RESTART_GRACE_MS = 30_000;

/** Replacements (440) further apart than this are not a fight between two clients: the count starts over. */
export const REPLACED_QUIET_MS = 10 * 60_000;

/** What a closed socket calls for. */
export type CloseVerdict =
  /** Logged out on the phone: forget the credentials, stop. */
  | { kind: "loggedOut" }
  /** WhatsApp refuses the session (403): stop, shown DISCONNECTED. */
  | { kind: "refused" }
  /** Reconnect after `delayMs`; `failures` counts the drops in a row (TIMEOUT past the threshold). */
  | { kind: "retry"; delayMs: number; reason: "drop" | "restart" | "replaced"; attempt: number };

/**
 * How one connection answers its socket's closes, by code, counting what it must across sockets:
 * drops in a row (reset by an open), restarts in a row (515, reset by an open), and replacements
 * (440), whose count an open does not reset: two clients taking the session from each other would
 * otherwise reconnect every second forever.
 */
export class CloseCounter {
  failures = 0;
  private restarts = 0;
  private restartedAt = Number.NEGATIVE_INFINITY;
  private replaced = 0;
  private replacedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly backoff: (attempt: number) => number) {}

  opened(): void {
    this.failures = 0;
    this.restarts = 0;
  }

  verdict(code: number | undefined, now = Date.now()): CloseVerdict {
    if (code === DisconnectReason.loggedOut && now - this.restartedAt >= LOGOUT_AFTER_RESTART_GRACE_MS)
      return { kind: "loggedOut" };
    if (code === DisconnectReason.forbidden) return { kind: "refused" };
    if (code === DisconnectReason.connectionReplaced) {
      // The same credentials connected elsewhere: another instance of ours during a lease handover
      // (its lease round stops the loser within seconds), or a copy of the session elsewhere.
      this.replaced = now - this.replacedAt > REPLACED_QUIET_MS ? 1 : this.replaced + 1;
      this.replacedAt = now;
      return {
        kind: "retry",
        reason: "replaced",
        attempt: this.replaced,
        delayMs: this.backoff(this.replaced),
      };
    }
    if (code === DisconnectReason.restartRequired) {
      // Asked after pairing and now and then later: expected, not a failure. At once; only a
      // second one in a row, before any open, waits (no tight loop).
      this.restarts += 1;
      this.restartedAt = now;
      const delayMs = this.restarts === 1 ? 0 : this.backoff(this.restarts - 1);
      return { kind: "retry", reason: "restart", attempt: this.restarts, delayMs };
    }
    // 408, 428, 500, 503, 405 (an outdated WhatsApp Web version), network errors, and a 401 right
    // after a restart: a drop, retried.
    this.failures += 1;
    this.restarts = 0;
    return { kind: "retry", reason: "drop", attempt: this.failures, delayMs: this.backoff(this.failures) };
  }
}
