import { and, asc, count, eq, ilike, or, type SQL } from "drizzle-orm";
import type { QuickMessageDTO, QuickMessagesPage } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { quickMessages, users } from "../../db/schema/index.js";
import { type QuickMessageRow, presentQuickMessage } from "./present.js";

/** Every helper takes the caller's companyId first: a quick message of another company is simply not found. */

/** Which quick messages a viewer lists: all of the company, or their own and the global ones. */
export interface QuickMessageViewer {
  userId: number;
  seesAll: boolean;
}

function visibleTo(companyId: number, viewer: QuickMessageViewer): SQL {
  const company = eq(quickMessages.companyId, companyId);
  if (viewer.seesAll) return company;
  return and(company, or(eq(quickMessages.geral, true), eq(quickMessages.userId, viewer.userId)))!;
}

const likeTerm = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function withAuthors(rows: { qm: QuickMessageRow; userName: string | null }[]): QuickMessageDTO[] {
  return rows.map((r) => presentQuickMessage(r.qm, r.userName));
}

export async function findQuickMessageRow(
  db: Executor,
  companyId: number,
  id: number,
): Promise<QuickMessageRow | null> {
  const [row] = await db
    .select()
    .from(quickMessages)
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)));
  return row ?? null;
}

export async function findQuickMessage(
  db: Executor,
  companyId: number,
  id: number,
): Promise<QuickMessageDTO | null> {
  const rows = await db
    .select({ qm: quickMessages, userName: users.name })
    .from(quickMessages)
    .leftJoin(users, eq(users.id, quickMessages.userId))
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)));
  return withAuthors(rows)[0] ?? null;
}

/** The quick messages page: shortcode or text search, by shortcode, a page at a time. */
export async function pageQuickMessages(
  db: Executor,
  companyId: number,
  viewer: QuickMessageViewer,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<QuickMessagesPage> {
  const term = likeTerm(opts.searchParam);
  const where = opts.searchParam
    ? and(
        visibleTo(companyId, viewer),
        or(ilike(quickMessages.shortcode, term), ilike(quickMessages.message, term)),
      )
    : visibleTo(companyId, viewer);
  const [total] = await db.select({ n: count() }).from(quickMessages).where(where);
  const rows = await db
    .select({ qm: quickMessages, userName: users.name })
    .from(quickMessages)
    .leftJoin(users, eq(users.id, quickMessages.userId))
    .where(where)
    .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return { records: withAuthors(rows), count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

/** The chat's '/' list: the user's own quick messages and the global ones, by shortcode. */
export async function chatQuickMessages(
  db: Executor,
  companyId: number,
  userId: number,
): Promise<QuickMessageDTO[]> {
  const rows = await db
    .select({ qm: quickMessages, userName: users.name })
    .from(quickMessages)
    .leftJoin(users, eq(users.id, quickMessages.userId))
    .where(visibleTo(companyId, { userId, seesAll: false }))
    .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id));
  return withAuthors(rows);
}

export async function insertQuickMessage(
  tx: Executor,
  companyId: number,
  values: Omit<typeof quickMessages.$inferInsert, "companyId">,
): Promise<QuickMessageRow> {
  const [row] = await tx
    .insert(quickMessages)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

/** Null when the company has no such quick message (deleted meanwhile). */
export async function updateQuickMessage(
  tx: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof quickMessages.$inferInsert>,
): Promise<QuickMessageRow | null> {
  const [row] = await tx
    .update(quickMessages)
    .set(patch)
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)))
    .returning();
  return row ?? null;
}

/** The deleted row, or null when it was gone already. */
export async function deleteQuickMessage(
  tx: Executor,
  companyId: number,
  id: number,
): Promise<QuickMessageRow | null> {
  const [row] = await tx
    .delete(quickMessages)
    .where(and(eq(quickMessages.companyId, companyId), eq(quickMessages.id, id)))
    .returning();
  return row ?? null;
}
