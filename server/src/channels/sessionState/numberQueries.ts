import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";
import { textArray } from "../../db/prepared.js";
import { whatsappNumberChecks } from "../../db/schema/index.js";

/** What WhatsApp answered about some of the company's numbers (any connection asked). */
export async function readNumberChecks(
  db: Db,
  companyId: number,
  numbers: string[],
): Promise<{ number: string; jid: string | null; checkedAt: Date }[]> {
  const rows = await queryRows<{ number: string; jid: string | null; checked_at: Date | string }>(
    db,
    sql`select number, jid, checked_at from ${whatsappNumberChecks}
        where company_id = ${companyId} and number = any(${textArray(numbers)}::text[])`,
  );
  return rows.map((r) => ({ number: r.number, jid: r.jid, checkedAt: new Date(r.checked_at) }));
}

/** Keeps the newest answers (one statement), and forgets the company's answers checked before `purgeBefore`. */
export async function writeNumberChecks(
  db: Db,
  companyId: number,
  answers: { number: string; jid: string | null; checkedAt: Date }[],
  purgeBefore: Date,
): Promise<void> {
  // The rows go as three arrays (unnest), not three bound values per row. A jid is "" for "no account".
  if (answers.length)
    await db.execute(sql`
      insert into ${whatsappNumberChecks} (company_id, number, jid, checked_at)
      select ${companyId}, a.number, nullif(a.jid, ''), a.checked_at
        from unnest(${textArray(answers.map((a) => a.number))}::text[],
                    ${textArray(answers.map((a) => a.jid ?? ""))}::text[],
                    ${textArray(answers.map((a) => a.checkedAt.toISOString()))}::timestamptz[])
             as a(number, jid, checked_at)
      on conflict (company_id, number) do update set jid = excluded.jid, checked_at = excluded.checked_at`);
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
