import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { refreshTokens } from "../../db/schema/index.js";

export async function insertRefreshToken(
  db: Executor,
  row: { companyId: number; userId: number; sessionId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(row);
}

/**
 * Stores a rotated token's successor unless a replay of the same token already did (the successor
 * is derived from it): answers the stored row either way.
 */
export async function insertSuccessorToken(
  db: Executor,
  row: { companyId: number; userId: number; sessionId: string; tokenHash: string; expiresAt: Date },
) {
  const [inserted] = await db.insert(refreshTokens).values(row).onConflictDoNothing().returning();
  return inserted ?? (await findRefreshToken(db, row.tokenHash));
}

/** By its hash alone: the caller has no session yet; the row names its company. */
export async function findRefreshToken(db: Executor, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Marks a token used, only if nobody else did first: answers false when it lost that race. By id
 * alone: the row was just found by its hash.
 */
export async function markRotated(db: Executor, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ rotatedAt: at })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

/** By session id alone: a random uuid, read from the token row just found by its hash. */
export async function revokeSession(db: Executor, sessionId: string, at: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.revokedAt)));
}

export async function revokeUserSessions(db: Executor, companyId: number, userId: number, at: Date) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(
      and(
        eq(refreshTokens.companyId, companyId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
      ),
    );
}
