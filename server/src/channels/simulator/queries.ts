import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../db/prepared.js";
import { simulatorMessages } from "../../db/schema/index.js";

/**
 * The simulated phones' message book. Its rows are a connection's: every statement is keyed by the
 * connection (whatsappId), which its callers found in their company or were started for.
 */

type PhoneRow = typeof simulatorMessages.$inferSelect;

// Every phone message passes here, in both directions, in batches (group commit, see GroupCommit):
// one insert for the messages recorded together on a connection, prepared (see PreparedSql).
const recordStatement = new PreparedSql<{ rows: string }>(
  "simulator_record",
  sql`insert into simulator_messages
        (company_id, whatsapp_id, number, direction, provider_id, body, kind, media, quoted_id, ack, created_at)
      select company_id, whatsapp_id, number, direction, provider_id, body, kind, media, quoted_id, ack, created_at
      from jsonb_to_recordset(${p("rows")}::jsonb) as x(idx int, company_id int, whatsapp_id int, number text,
        direction text, provider_id text, body text, kind text, media jsonb, quoted_id text, ack smallint,
        created_at timestamptz)
      order by idx
      on conflict (whatsapp_id, provider_id) do update set ack = greatest(simulator_messages.ack, excluded.ack)
      returning ${columnList(simulatorMessages)}`,
);
function p(name: string) {
  return sql.placeholder(name);
}

/** Records a batch (rows in snake case, as the statement reads them); the rows by provider id. */
export async function recordPhoneMessages(db: Db, rows: object[]): Promise<Map<string, PhoneRow>> {
  const saved = await recordStatement.rows(db, { rows: JSON.stringify(rows) });
  return new Map(saved.map((raw) => [raw.provider_id as string, tableRow(simulatorMessages, raw)]));
}

/** Moves acks forward only, for the given messages of one direction. */
export async function advancePhoneAcks(
  db: Db,
  whatsappId: number,
  direction: "in" | "out",
  ack: number,
  where: { ids?: string[]; number?: string },
): Promise<PhoneRow[]> {
  const conditions = [
    eq(simulatorMessages.whatsappId, whatsappId),
    eq(simulatorMessages.direction, direction),
    sql`${simulatorMessages.ack} < ${ack}`,
  ];
  if (where.ids) conditions.push(inArray(simulatorMessages.providerId, where.ids.length ? where.ids : [""]));
  if (where.number) conditions.push(eq(simulatorMessages.number, where.number));
  return db
    .update(simulatorMessages)
    .set({ ack })
    .where(and(...conditions))
    .returning();
}

export async function changePhoneMessage(
  db: Db,
  whatsappId: number,
  providerId: string,
  patch: { body?: string; isDeleted?: boolean; kind?: string },
): Promise<PhoneRow[]> {
  return db
    .update(simulatorMessages)
    .set(patch)
    .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.providerId, providerId)))
    .returning();
}

export async function findPhoneMessage(
  db: Db,
  whatsappId: number,
  providerId: string,
): Promise<PhoneRow | null> {
  const [row] = await db
    .select()
    .from(simulatorMessages)
    .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.providerId, providerId)));
  return row ?? null;
}
