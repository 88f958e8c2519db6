import { and, asc, count, eq, inArray, isNotNull, isNull, ne } from "drizzle-orm";
import type { WhatsappDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { queues, users, whatsappQueues, whatsapps } from "../../db/schema/index.js";
import { queueOrder } from "../queues/queries.js";
import { type WhatsappRow, presentWhatsapp } from "./present.js";

/** Every helper takes the caller's companyId first: a connection of another company is simply not found. */

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

export async function queuesOfWhatsapps(db: Executor, companyId: number, ids: number[]) {
  const map = new Map<number, WhatsappDTO["queues"]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select({ whatsappId: whatsappQueues.whatsappId, id: queues.id, name: queues.name, color: queues.color })
    .from(whatsappQueues)
    .innerJoin(queues, eq(queues.id, whatsappQueues.queueId))
    .where(and(eq(whatsappQueues.companyId, companyId), inArray(whatsappQueues.whatsappId, ids)))
    .orderBy(...queueOrder());
  for (const { whatsappId, ...q } of rows) map.set(whatsappId, [...(map.get(whatsappId) ?? []), q]);
  return map;
}

export async function findWhatsappRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<WhatsappRow | null> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));
  return row ?? null;
}

export async function loadWhatsapp(db: Executor, companyId: number, id: number): Promise<WhatsappDTO | null> {
  const row = await findWhatsappRow(db, companyId, id);
  if (!row) return null;
  return presentWhatsapp(row, (await queuesOfWhatsapps(db, companyId, [id])).get(id) ?? []);
}

export async function insertWhatsapp(
  db: Executor,
  companyId: number,
  values: Omit<typeof whatsapps.$inferInsert, "companyId">,
): Promise<WhatsappRow> {
  const [row] = await db
    .insert(whatsapps)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

export async function updateWhatsapp(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<typeof whatsapps.$inferInsert>,
) {
  await db
    .update(whatsapps)
    .set(values)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));
}

export async function deleteWhatsapp(db: Executor, companyId: number, id: number) {
  await db.delete(whatsapps).where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));
}

/** The company's oldest connection other than `exceptId` (the next default when the default goes). */
export async function firstOtherWhatsapp(db: Executor, companyId: number, exceptId: number) {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), ne(whatsapps.id, exceptId)))
    .orderBy(asc(whatsapps.id))
    .limit(1);
  return row ?? null;
}

/** The ids of the company's connections that are not disconnected (the ones a restart-all restarts). */
export async function activeWhatsappIds(db: Executor, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), ne(whatsapps.status, "DISCONNECTED")));
  return rows.map((r) => r.id);
}

/**
 * Connections still holding a token in clear (from before migration 0031), across companies: the
 * start-up step hashes them (secretsAtRest.ts).
 */
export async function connectionsWithLegacyToken(db: Executor) {
  return db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId, legacyToken: whatsapps.legacyToken })
    .from(whatsapps)
    .where(isNotNull(whatsapps.legacyToken));
}

/**
 * Replaces a clear token by its hash and hint, if the row still holds that clear token and no hash
 * (a token generated since wins: the clear one is only dropped). Answers whether it hashed it.
 */
export async function replaceLegacyToken(
  db: Executor,
  companyId: number,
  id: number,
  legacyToken: string,
  stored: { tokenHash: string; tokenHint: string },
): Promise<boolean> {
  const row = and(
    eq(whatsapps.companyId, companyId),
    eq(whatsapps.id, id),
    eq(whatsapps.legacyToken, legacyToken),
  );
  const hashed = await db
    .update(whatsapps)
    .set({ ...stored, legacyToken: null })
    .where(and(row, isNull(whatsapps.tokenHash)))
    .returning({ id: whatsapps.id });
  if (hashed.length) return true;
  await db
    .update(whatsapps)
    .set({ legacyToken: null })
    .where(and(row, isNotNull(whatsapps.tokenHash)));
  return false;
}

/** The e-mails of the company's admins (who hear of a connection that needs a person). */
export async function adminEmails(db: Executor, companyId: number): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, "admin")));
  return rows.map((r) => r.email);
}
