import type { Tx } from "../../db/client.js";
import type { Raise } from "../../events/bus.js";
import { hashToken, newRefreshToken } from "../../http/tokens.js";
import * as q from "./queries.js";

/**
 * What every password change does, whoever makes it (the user, an admin, the reset flow): inside
 * the change's transaction, every refresh token of the user is revoked and, after commit, their
 * sockets are cut. `keepSessionId` (a user changing their own password) survives with a fresh
 * refresh token, answered for the caller's cookie; the others must log in with the new password.
 */
export async function endSessionsForNewPassword(
  tx: Tx,
  raise: Raise,
  who: { companyId: number; userId: number; keepSessionId?: string },
  at: Date,
  refreshDays: number,
): Promise<{ refreshToken: string; refreshExpiresAt: Date } | null> {
  const { companyId, userId, keepSessionId } = who;
  await q.revokeUserSessions(tx, companyId, userId, at);
  raise({ type: "user.sessionsRevoked", companyId, userId, keepSessionId });
  if (!keepSessionId) return null;
  const refreshToken = newRefreshToken();
  const refreshExpiresAt = new Date(at.getTime() + refreshDays * 86_400_000);
  await q.insertRefreshToken(tx, {
    companyId,
    userId,
    sessionId: keepSessionId,
    tokenHash: hashToken(refreshToken),
    expiresAt: refreshExpiresAt,
  });
  return { refreshToken, refreshExpiresAt };
}
