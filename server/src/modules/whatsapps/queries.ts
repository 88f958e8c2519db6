import { and, asc, count, eq, ne } from "drizzle-orm";
import type { WhatsappDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { presentWhatsapp, queuesOfWhatsapps } from "./present.js";

export async function listWhatsapps(db: Executor, companyId: number): Promise<WhatsappDTO[]> {
  const rows = await db
    .select()
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId))
    .orderBy(asc(whatsapps.name));
  const queues = await queuesOfWhatsapps(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentWhatsapp(r, queues.get(r.id) ?? []));
}

export async function countWhatsapps(db: Executor, companyId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(whatsapps).where(eq(whatsapps.companyId, companyId));
  return row?.n ?? 0;
}

export async function nameTaken(db: Executor, companyId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.companyId, companyId),
        eq(whatsapps.name, name),
        exceptId ? ne(whatsapps.id, exceptId) : undefined,
      ),
    );
  return Boolean(row);
}

export async function otherDefault(db: Executor, companyId: number, exceptId: number) {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(
      and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true), ne(whatsapps.id, exceptId)),
    );
  return row ?? null;
}

export async function clearDefault(db: Executor, companyId: number) {
  await db
    .update(whatsapps)
    .set({ isDefault: false })
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)));
}

export async function setWhatsappQueues(
  db: Executor,
  companyId: number,
  whatsappId: number,
  queueIds: number[],
) {
  await db
    .delete(whatsappQueues)
    .where(and(eq(whatsappQueues.companyId, companyId), eq(whatsappQueues.whatsappId, whatsappId)));
  if (queueIds.length) {
    await db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ whatsappId, queueId, companyId })));
  }
}
