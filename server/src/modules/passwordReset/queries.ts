import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { accountCodes } from "../../db/schema/index.js";
import { RESET_CODE_ATTEMPTS } from "@atende/contracts";

/** A user's new code, replacing the one before (of either purpose) with fresh attempts. */
export async function replaceCode(
  db: Executor,
  row: {
    companyId: number;
    userId: number;
    purpose: "reset" | "invite";
    codeHash: string;
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insert(accountCodes)
    .values(row)
    .onConflictDoUpdate({
      target: accountCodes.userId,
      set: {
        companyId: row.companyId,
        purpose: row.purpose,
        codeHash: row.codeHash,
        expiresAt: row.expiresAt,
        createdAt: row.createdAt,
        attempts: 0,
        usedAt: null,
      },
    });
}

/**
 * One try at the user's code: counts it and answers the row while the code is still alive (unused,
 * unexpired, tries left), else null. By user id alone: the caller is not signed in; the id comes
 * from the e-mail, unique across the platform. Counted in one statement, so parallel guesses cannot
 * pass the limit.
 */
export async function claimAttempt(db: Executor, userId: number, at: Date) {
  const [row] = await db
    .update(accountCodes)
    .set({ attempts: sql`${accountCodes.attempts} + 1` })
    .where(
      and(
        eq(accountCodes.userId, userId),
        isNull(accountCodes.usedAt),
        lt(accountCodes.attempts, RESET_CODE_ATTEMPTS),
        gt(accountCodes.expiresAt, at),
      ),
    )
    .returning();
  return row ?? null;
}

/** Marks the code used, unless a twin request already did: answers whether this one won. */
export async function markUsed(db: Executor, companyId: number, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(accountCodes)
    .set({ usedAt: at })
    .where(and(eq(accountCodes.companyId, companyId), eq(accountCodes.id, id), isNull(accountCodes.usedAt)))
    .returning({ id: accountCodes.id });
  return rows.length === 1;
}
