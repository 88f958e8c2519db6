import { and, asc, count, eq, ilike, inArray, sql } from "drizzle-orm";
import type { TagDTO, TagsPage } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { tags, ticketTags } from "../../db/schema/index.js";
import { type TagRow, presentTag } from "./present.js";

/** Every helper takes the caller's companyId first: a tag of another company is simply not found. */

const ticketsCount = sql<number>`(select count(*)::int from ticket_tags tt where tt.tag_id = ${tags.id})`;

function withCounts(rows: { tag: TagRow; ticketsCount: number }[]): TagDTO[] {
  return rows.map((r) => presentTag(r.tag, Number(r.ticketsCount)));
}

export async function findTagRow(db: Executor, companyId: number, id: number): Promise<TagRow | null> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, id)));
  return row ?? null;
}

export async function findTags(db: Executor, companyId: number, ids: number[]): Promise<TagDTO[]> {
  if (ids.length === 0) return [];
  return withCounts(
    await db
      .select({ tag: tags, ticketsCount })
      .from(tags)
      .where(and(eq(tags.companyId, companyId), inArray(tags.id, ids)))
      .orderBy(asc(tags.name), asc(tags.id)),
  );
}

export async function findTag(db: Executor, companyId: number, id: number): Promise<TagDTO | null> {
  return (await findTags(db, companyId, [id]))[0] ?? null;
}

/** The tags page: name search, alphabetical, a page at a time. */
export async function pageTags(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<TagsPage> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam
    ? and(eq(tags.companyId, companyId), ilike(tags.name, term))
    : eq(tags.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(tags).where(where);
  const rows = await db
    .select({ tag: tags, ticketsCount })
    .from(tags)
    .where(where)
    .orderBy(asc(tags.name), asc(tags.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return { tags: withCounts(rows), count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

/** Every tag of the company (the chat's tag editor, the ticket search filter); only lanes with `kanbanOnly`. */
export async function listTags(db: Executor, companyId: number, kanbanOnly = false): Promise<TagDTO[]> {
  const where = kanbanOnly
    ? and(eq(tags.companyId, companyId), eq(tags.kanban, 1))
    : eq(tags.companyId, companyId);
  return withCounts(
    await db
      .select({ tag: tags, ticketsCount })
      .from(tags)
      .where(where)
      .orderBy(asc(tags.name), asc(tags.id)),
  );
}

/** The tags among `ids` that belong to the company. */
export async function companyTags(db: Executor, companyId: number, ids: number[]): Promise<TagRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(tags)
    .where(and(eq(tags.companyId, companyId), inArray(tags.id, ids)));
}

/** The tag ids a ticket carries now. */
export async function tagIdsOfTicket(db: Executor, companyId: number, ticketId: number): Promise<number[]> {
  const rows = await db
    .select({ tagId: ticketTags.tagId })
    .from(ticketTags)
    .where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, ticketId)));
  return rows.map((r) => r.tagId);
}

/** Removes tags from a ticket: all of them, or only those in `tagIds`; answers the ids removed. */
export async function untagTicket(
  db: Executor,
  companyId: number,
  ticketId: number,
  tagIds?: number[],
): Promise<number[]> {
  if (tagIds && tagIds.length === 0) return [];
  const removed = await db
    .delete(ticketTags)
    .where(
      and(
        eq(ticketTags.companyId, companyId),
        eq(ticketTags.ticketId, ticketId),
        tagIds ? inArray(ticketTags.tagId, tagIds) : undefined,
      ),
    )
    .returning({ tagId: ticketTags.tagId });
  return removed.map((r) => r.tagId);
}

/** Adds tags to a ticket; one it already carries is left as it is. Answers the ids added. */
export async function tagTicket(
  db: Executor,
  companyId: number,
  ticketId: number,
  tagIds: number[],
): Promise<number[]> {
  if (tagIds.length === 0) return [];
  const added = await db
    .insert(ticketTags)
    .values(tagIds.map((tagId) => ({ ticketId, tagId, companyId })))
    .onConflictDoNothing()
    .returning({ tagId: ticketTags.tagId });
  return added.map((r) => r.tagId);
}

/** Holds the ticket's row until the transaction ends, so two changes of its tags run one after the other. */
export async function lockTicket(tx: Executor, companyId: number, ticketId: number): Promise<void> {
  await tx.execute(
    sql`select id from tickets where id = ${ticketId} and company_id = ${companyId} for update`,
  );
}

/** The kanban lanes a ticket sits in now. */
export async function kanbanTagIdsOfTicket(
  db: Executor,
  companyId: number,
  ticketId: number,
): Promise<number[]> {
  const rows = await db
    .select({ tagId: ticketTags.tagId })
    .from(ticketTags)
    .innerJoin(tags, eq(tags.id, ticketTags.tagId))
    .where(and(eq(ticketTags.companyId, companyId), eq(ticketTags.ticketId, ticketId), eq(tags.kanban, 1)));
  return rows.map((r) => r.tagId);
}

export async function insertTag(
  db: Executor,
  companyId: number,
  values: Omit<typeof tags.$inferInsert, "companyId">,
): Promise<TagRow> {
  const [row] = await db
    .insert(tags)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

export async function updateTag(
  db: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof tags.$inferInsert>,
): Promise<void> {
  await db
    .update(tags)
    .set(patch)
    .where(and(eq(tags.companyId, companyId), eq(tags.id, id)));
}

/** Its ticket_tags rows go with it (on delete cascade). */
export async function deleteTag(db: Executor, companyId: number, id: number): Promise<void> {
  await db.delete(tags).where(and(eq(tags.companyId, companyId), eq(tags.id, id)));
}
