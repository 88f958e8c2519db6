import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsappNumberChecks } from "../../db/schema/index.js";

/** What WhatsApp answered about some of the company's numbers (any connection asked). */
export async function readNumberChecks(
  db: Db,
  companyId: number,
  numbers: string[],
): Promise<{ number: string; jid: string | null; checkedAt: Date }[]> {
  return db
    .select({
      number: whatsappNumberChecks.number,
      jid: whatsappNumberChecks.jid,
      checkedAt: whatsappNumberChecks.checkedAt,
    })
    .from(whatsappNumberChecks)
    .where(and(eq(whatsappNumberChecks.companyId, companyId), inArray(whatsappNumberChecks.number, numbers)));
}

/** Keeps the newest answers (one statement), and forgets the company's answers checked before `purgeBefore`. */
export async function writeNumberChecks(
  db: Db,
  companyId: number,
  answers: { number: string; jid: string | null; checkedAt: Date }[],
  purgeBefore: Date,
): Promise<void> {
  if (answers.length)
    await db
      .insert(whatsappNumberChecks)
      .values(answers.map((a) => ({ companyId, ...a })))
      .onConflictDoUpdate({
        target: [whatsappNumberChecks.companyId, whatsappNumberChecks.number],
        set: { jid: sql`excluded.jid`, checkedAt: sql`excluded.checked_at` },
      });
  await db
    .delete(whatsappNumberChecks)
    .where(
      and(eq(whatsappNumberChecks.companyId, companyId), lt(whatsappNumberChecks.checkedAt, purgeBefore)),
    );
}

/** Forgets the company's answers about these numbers. */
export async function deleteNumberChecks(db: Db, companyId: number, numbers: string[]): Promise<void> {
  await db
    .delete(whatsappNumberChecks)
    .where(and(eq(whatsappNumberChecks.companyId, companyId), inArray(whatsappNumberChecks.number, numbers)));
}
