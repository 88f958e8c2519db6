import { and, eq, lt } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { apiIdempotencyKeys, whatsapps } from "../../db/schema/index.js";

/**
 * The connection whose token has this keyed hash. Not scoped by company: the token is what names
 * the company (the hash's unique index makes it one connection at most); the caller scopes
 * everything after.
 */
export async function connectionByTokenHash(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId })
    .from(whatsapps)
    .where(eq(whatsapps.tokenHash, tokenHash));
  return row ?? null;
}

/** The answer stored under a key (null while its first call has not committed, or none). */
export async function idempotentAnswer(db: Executor, companyId: number, whatsappId: number, key: string) {
  const [row] = await db
    .select({ answer: apiIdempotencyKeys.answer })
    .from(apiIdempotencyKeys)
    .where(
      and(
        eq(apiIdempotencyKeys.companyId, companyId),
        eq(apiIdempotencyKeys.whatsappId, whatsappId),
        eq(apiIdempotencyKeys.key, key),
      ),
    );
  return row?.answer ?? null;
}

/**
 * Claims a key in the sending transaction: true when this call is the first. A concurrent call with
 * the same key waits on the unique index until this one commits (then false) or rolls back (then true).
 */
export async function claimIdempotencyKey(
  tx: Executor,
  companyId: number,
  whatsappId: number,
  key: string,
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .insert(apiIdempotencyKeys)
    .values({ companyId, whatsappId, key, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: apiIdempotencyKeys.id });
  return rows.length === 1;
}

export async function storeIdempotentAnswer(
  tx: Executor,
  companyId: number,
  whatsappId: number,
  key: string,
  answer: Record<string, unknown>,
) {
  await tx
    .update(apiIdempotencyKeys)
    .set({ answer })
    .where(
      and(
        eq(apiIdempotencyKeys.companyId, companyId),
        eq(apiIdempotencyKeys.whatsappId, whatsappId),
        eq(apiIdempotencyKeys.key, key),
      ),
    );
}

/** Keys older than `before` are forgotten (across companies: a housekeeping sweep). */
export async function forgetIdempotencyKeys(db: Executor, before: Date) {
  await db.delete(apiIdempotencyKeys).where(lt(apiIdempotencyKeys.createdAt, before));
}
