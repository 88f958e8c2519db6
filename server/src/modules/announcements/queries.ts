import { type SQL, and, count, desc, eq, ilike, inArray, or } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { announcementCompanies, announcementViews, announcements, companies } from "../../db/schema/index.js";
import type { AnnouncementAudience, AnnouncementRow } from "./present.js";

/**
 * Announcements belong to the platform, not to a company: the super user's statements take no
 * companyId. What a company's user reads is scoped by `addressedTo(companyId)`: active, and for
 * every company or for theirs.
 */

const newestFirst = [desc(announcements.publishedAt), desc(announcements.id)] as const;

function addressedTo(db: Executor, companyId: number): SQL {
  const named = db
    .select({ id: announcementCompanies.announcementId })
    .from(announcementCompanies)
    .where(eq(announcementCompanies.companyId, companyId));
  return and(
    eq(announcements.status, true),
    or(eq(announcements.allCompanies, true), inArray(announcements.id, named)),
  )!;
}

function searching(searchParam: string): SQL | undefined {
  if (!searchParam) return undefined;
  const term = `%${searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(ilike(announcements.title, term), ilike(announcements.text, term));
}

/** Any announcement by id (the super user's writes). */
export async function findAnnouncementRow(db: Executor, id: number): Promise<AnnouncementRow | null> {
  const [row] = await db.select().from(announcements).where(eq(announcements.id, id));
  return row ?? null;
}

/** An announcement a company's user may read: active and addressed to their company. */
export async function findVisibleAnnouncement(
  db: Executor,
  companyId: number,
  id: number,
): Promise<AnnouncementRow | null> {
  const [row] = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.id, id), addressedTo(db, companyId)));
  return row ?? null;
}

/** The chosen companies of each announcement (empty for one sent to every company). */
export async function companyIdsOf(db: Executor, ids: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return map;
  const rows = await db
    .select()
    .from(announcementCompanies)
    .where(inArray(announcementCompanies.announcementId, ids));
  for (const row of rows) map.get(row.announcementId)?.push(row.companyId);
  return map;
}

export async function audienceOf(db: Executor, row: AnnouncementRow): Promise<AnnouncementAudience> {
  if (row.allCompanies) return { allCompanies: true, companyIds: [] };
  return { allCompanies: false, companyIds: (await companyIdsOf(db, [row.id])).get(row.id) ?? [] };
}

/** Which of these companies exist (the platform's list: the super user addresses any of them). */
export async function existingCompanyIds(db: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: companies.id }).from(companies).where(inArray(companies.id, ids));
  return rows.map((r) => r.id);
}

/** A page, newest first: every announcement (companyId null: the super user) or a company's. */
export async function pageAnnouncements(
  db: Executor,
  companyId: number | null,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: AnnouncementRow[]; count: number }> {
  const where = and(companyId === null ? undefined : addressedTo(db, companyId), searching(opts.searchParam));
  const [total] = await db.select({ n: count() }).from(announcements).where(where);
  const rows = await db
    .select()
    .from(announcements)
    .where(where)
    .orderBy(...newestFirst)
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  return { rows, count: Number(total?.n ?? 0) };
}

/** The popover's list: a company's active announcements, newest first. */
export async function listForCompany(
  db: Executor,
  companyId: number,
  limit: number,
): Promise<AnnouncementRow[]> {
  return db
    .select()
    .from(announcements)
    .where(addressedTo(db, companyId))
    .orderBy(...newestFirst)
    .limit(limit);
}

export async function insertAnnouncement(
  tx: Executor,
  values: typeof announcements.$inferInsert,
): Promise<AnnouncementRow> {
  const [row] = await tx.insert(announcements).values(values).returning();
  return row!;
}

/** The row after the change; null when it no longer exists. */
export async function updateAnnouncement(
  tx: Executor,
  id: number,
  values: Partial<typeof announcements.$inferInsert>,
): Promise<AnnouncementRow | null> {
  const [row] = await tx.update(announcements).set(values).where(eq(announcements.id, id)).returning();
  return row ?? null;
}

/** Replaces the chosen companies. */
export async function setAnnouncementCompanies(
  tx: Executor,
  id: number,
  companyIds: number[],
): Promise<void> {
  await tx.delete(announcementCompanies).where(eq(announcementCompanies.announcementId, id));
  if (companyIds.length)
    await tx
      .insert(announcementCompanies)
      .values(companyIds.map((companyId) => ({ announcementId: id, companyId })));
}

/** Whether it was deleted (its chosen companies go with it). */
export async function deleteAnnouncement(tx: Executor, id: number): Promise<boolean> {
  const gone = await tx
    .delete(announcements)
    .where(eq(announcements.id, id))
    .returning({ id: announcements.id });
  return gone.length > 0;
}

/** When the user last opened the popover; null if never. */
export async function seenAtOf(db: Executor, companyId: number, userId: number): Promise<Date | null> {
  const [row] = await db
    .select({ seenAt: announcementViews.seenAt })
    .from(announcementViews)
    .where(and(eq(announcementViews.companyId, companyId), eq(announcementViews.userId, userId)));
  return row?.seenAt ?? null;
}

export async function markAnnouncementsSeen(
  db: Executor,
  companyId: number,
  userId: number,
  at: Date,
): Promise<void> {
  await db
    .insert(announcementViews)
    .values({ userId, companyId, seenAt: at })
    .onConflictDoUpdate({ target: announcementViews.userId, set: { seenAt: at, companyId } });
}
