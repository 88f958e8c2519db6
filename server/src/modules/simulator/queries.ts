import { and, desc, eq, sql } from "drizzle-orm";
import { type Executor, queryRows } from "../../db/client.js";
import { baileysKeys, simulatorMessages, whatsapps } from "../../db/schema/index.js";

/** Every helper takes the caller's companyId first: another company's phones are simply not found. */

/** The numbers that wrote to the connection, with their contact's name, most recent first. */
export async function simulatorPhones(db: Executor, companyId: number, whatsappId: number) {
  const rows = await queryRows<{ number: string; name: string; lastMessageAt: string | Date }>(
    db,
    sql`select s.number, coalesce(c.name, s.number) as name, max(s.created_at) as "lastMessageAt"
        from simulator_messages s
        left join contacts c on c.company_id = s.company_id and c.number = s.number
        where s.whatsapp_id = ${whatsappId} and s.company_id = ${companyId}
        group by s.number, c.name order by max(s.created_at) desc limit 200`,
  );
  return rows.map((r) => ({ ...r, lastMessageAt: new Date(r.lastMessageAt).toISOString() }));
}

/** One phone's chat with the connection: its last 500 messages, newest first. */
export function simulatorChat(db: Executor, companyId: number, whatsappId: number, number: string) {
  return db
    .select()
    .from(simulatorMessages)
    .where(
      and(
        eq(simulatorMessages.companyId, companyId),
        eq(simulatorMessages.whatsappId, whatsappId),
        eq(simulatorMessages.number, number),
      ),
    )
    .orderBy(desc(simulatorMessages.id))
    .limit(500);
}

/**
 * A company's simulator connection, already paired (CONNECTED at its session's first start): a new
 * company (the demo's, a sign-up's, the super user's) tries the product without a phone. It has no
 * API token: nobody would see one made here; an admin generates it from the connection's dialog.
 */
export async function insertPairedSimulator(
  db: Executor,
  companyId: number,
  v: { name: string; greetingMessage?: string; isDefault?: boolean },
) {
  const [row] = await db
    .insert(whatsapps)
    .values({
      companyId,
      name: v.name,
      provider: "simulator",
      status: "OPENING",
      isDefault: v.isDefault ?? true,
      greetingMessage: v.greetingMessage ?? "",
    })
    .returning();
  await db
    .insert(baileysKeys)
    .values({ whatsappId: row!.id, companyId, category: "simulator", keyId: "paired", value: true });
  return row!;
}
