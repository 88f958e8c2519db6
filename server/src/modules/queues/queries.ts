import { and, asc, count, eq, inArray, isNull, max, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queueOptions, queues } from "../../db/schema/index.js";
import type { QueueOptionRow, QueueRow } from "./present.js";

/** Every helper takes the caller's companyId first: a queue of another company is simply not found. */

export async function findQueueRow(db: Executor, companyId: number, id: number): Promise<QueueRow | null> {
  const [row] = await db
    .select()
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, id)));
  return row ?? null;
}

/**
 * The one queue order, for the bot's menu numbering, every list and every select: orderQueue
 * (unnumbered last), then name, then id. The web sorts live changes with `compareQueues` (contracts).
 */
export const queueOrder = () => [sql`${queues.orderQueue} asc nulls last`, asc(queues.name), asc(queues.id)];

/** The same order in raw SQL, for the queues table aliased `alias`. */
export const queueOrderSql = (alias: string) =>
  sql.raw(`${alias}.order_queue asc nulls last, ${alias}.name asc, ${alias}.id asc`);

/** The company's queues in menu order. */
export function listQueueRows(db: Executor, companyId: number): Promise<QueueRow[]> {
  return db
    .select()
    .from(queues)
    .where(eq(queues.companyId, companyId))
    .orderBy(...queueOrder());
}

export async function countQueues(db: Executor, companyId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(queues).where(eq(queues.companyId, companyId));
  return Number(row?.n ?? 0);
}

/** Serializes the writers of one queue's menu (the company's: see companies' lockCompany). */
export async function lockQueue(tx: Executor, companyId: number, queueId: number): Promise<void> {
  await tx.execute(sql`select id from queues where id = ${queueId} and company_id = ${companyId} for update`);
}

export async function findOptionRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<QueueOptionRow | null> {
  const [row] = await db
    .select()
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)));
  return row ?? null;
}

/** Every option of a queue, all levels. */
export function optionRowsOfQueue(
  db: Executor,
  companyId: number,
  queueId: number,
): Promise<QueueOptionRow[]> {
  return db
    .select()
    .from(queueOptions)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.queueId, queueId)))
    .orderBy(asc(queueOptions.option), asc(queueOptions.id));
}

/** The number after the highest one among the siblings (1 for a first option). */
export async function nextOptionNumber(
  db: Executor,
  companyId: number,
  queueId: number,
  parentId: number | null,
): Promise<number> {
  const [row] = await db
    .select({ top: max(queueOptions.option) })
    .from(queueOptions)
    .where(
      and(
        eq(queueOptions.companyId, companyId),
        eq(queueOptions.queueId, queueId),
        parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
      ),
    );
  return Number(row?.top ?? 0) + 1;
}

/** How many levels sit above an option (0 for one of the first menu). */
export function depthOf(rows: QueueOptionRow[], id: number): number {
  const byId = new Map(rows.map((r) => [r.id, r]));
  let depth = 0;
  for (let at = byId.get(id); at?.parentId != null && depth <= rows.length; at = byId.get(at.parentId))
    depth++;
  return depth;
}

/** True when a sibling (same parent) other than `exceptId` already answers to `option`. */
export function numberTaken(
  rows: QueueOptionRow[],
  parentId: number | null,
  option: number,
  exceptId?: number,
): boolean {
  return rows.some((r) => r.parentId === parentId && r.option === option && r.id !== exceptId);
}

/** The company's queue of that colour, if any. */
export async function findQueueIdByColor(
  db: Executor,
  companyId: number,
  color: string,
): Promise<{ id: number } | undefined> {
  const [row] = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.color, color)));
  return row;
}

export async function insertQueue(
  db: Executor,
  companyId: number,
  values: Omit<typeof queues.$inferInsert, "companyId">,
): Promise<QueueRow> {
  const [row] = await db
    .insert(queues)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

/** Null when the company has no such queue (deleted meanwhile). */
export async function updateQueue(
  db: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof queues.$inferInsert>,
): Promise<QueueRow | null> {
  const [row] = await db
    .update(queues)
    .set(patch)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
    .returning();
  return row ?? null;
}

/** Whether a queue was deleted. */
export async function deleteQueue(db: Executor, companyId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, id)))
    .returning({ id: queues.id });
  return gone.length > 0;
}

export async function insertOption(
  db: Executor,
  companyId: number,
  values: Omit<typeof queueOptions.$inferInsert, "companyId">,
): Promise<number> {
  const [row] = await db
    .insert(queueOptions)
    .values({ ...values, companyId })
    .returning({ id: queueOptions.id });
  return row!.id;
}

/** Null when the company has no such option. */
export async function updateOption(
  db: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof queueOptions.$inferInsert>,
): Promise<QueueOptionRow | null> {
  const [row] = await db
    .update(queueOptions)
    .set(patch)
    .where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)))
    .returning();
  return row ?? null;
}

/** Deletes the option; its sub-menu goes with it (foreign key cascade). */
export async function deleteOption(db: Executor, companyId: number, id: number): Promise<void> {
  await db.delete(queueOptions).where(and(eq(queueOptions.companyId, companyId), eq(queueOptions.id, id)));
}

/** Which of `ids` are queues of the company (another company's id is simply absent). */
export async function companyQueueIds(db: Executor, companyId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), inArray(queues.id, ids)));
  return rows.map((r) => r.id);
}
