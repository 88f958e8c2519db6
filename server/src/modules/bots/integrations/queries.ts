import { and, asc, count, eq, ilike, ne } from "drizzle-orm";
import type { Executor } from "../../../db/client.js";
import { queueIntegrations } from "../../../db/schema/index.js";

export type QueueIntegrationRow = typeof queueIntegrations.$inferSelect;
export type QueueIntegrationValues = Omit<typeof queueIntegrations.$inferInsert, "id" | "companyId">;

/** Every helper takes the caller's companyId first: another company's integration is simply not found. */

export async function findIntegrationRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<QueueIntegrationRow | null> {
  const [row] = await db
    .select()
    .from(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)));
  return row ?? null;
}

/** The integrations page: name search (case-insensitive), newest first, a page at a time. */
export async function pageIntegrationRows(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: QueueIntegrationRow[]; count: number; hasMore: boolean }> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam
    ? and(eq(queueIntegrations.companyId, companyId), ilike(queueIntegrations.name, term))
    : eq(queueIntegrations.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(queueIntegrations).where(where);
  const rows = await db
    .select()
    .from(queueIntegrations)
    .where(where)
    .orderBy(asc(queueIntegrations.name), asc(queueIntegrations.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return { rows, count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

export async function nameTaken(db: Executor, companyId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: queueIntegrations.id })
    .from(queueIntegrations)
    .where(
      and(
        eq(queueIntegrations.companyId, companyId),
        eq(queueIntegrations.name, name),
        exceptId === undefined ? undefined : ne(queueIntegrations.id, exceptId),
      ),
    );
  return row !== undefined;
}

export async function insertIntegration(
  db: Executor,
  companyId: number,
  values: QueueIntegrationValues,
): Promise<QueueIntegrationRow> {
  const [row] = await db
    .insert(queueIntegrations)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

export async function updateIntegration(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<QueueIntegrationValues>,
): Promise<QueueIntegrationRow | null> {
  const [row] = await db
    .update(queueIntegrations)
    .set(values)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
    .returning();
  return row ?? null;
}

/** Queues and connections pointing at it drop the link (on delete set null). */
export async function deleteIntegration(db: Executor, companyId: number, id: number): Promise<boolean> {
  const gone = await db
    .delete(queueIntegrations)
    .where(and(eq(queueIntegrations.companyId, companyId), eq(queueIntegrations.id, id)))
    .returning({ id: queueIntegrations.id });
  return gone.length > 0;
}
