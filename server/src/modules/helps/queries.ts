import { asc, count, eq, ilike, or } from "drizzle-orm";
import type { HelpsPage } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { helps } from "../../db/schema/index.js";
import { type HelpRow, presentHelp } from "./present.js";

/**
 * Help videos belong to the platform, not to a company: these statements take no companyId, and
 * every company reads the same rows. Who may write them is the service's check (the super user).
 */

const byTitle = [asc(helps.title), asc(helps.id)] as const;

export async function findHelpRow(db: Executor, id: number): Promise<HelpRow | null> {
  const [row] = await db.select().from(helps).where(eq(helps.id, id));
  return row ?? null;
}

/** The Ajuda tab's table: title or description search, by title, a page at a time. */
export async function pageHelps(
  db: Executor,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<HelpsPage> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam ? or(ilike(helps.title, term), ilike(helps.description, term)) : undefined;
  const [total] = await db.select({ n: count() }).from(helps).where(where);
  const rows = await db
    .select()
    .from(helps)
    .where(where)
    .orderBy(...byTitle)
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = Number(total?.n ?? 0);
  return { records: rows.map(presentHelp), count: n, hasMore: opts.pageNumber * opts.pageSize < n };
}

/** Every help video, by title (the /helps page's grid). */
export async function listHelps(db: Executor): Promise<HelpRow[]> {
  return db
    .select()
    .from(helps)
    .orderBy(...byTitle);
}

export async function insertHelp(tx: Executor, values: typeof helps.$inferInsert): Promise<HelpRow> {
  const [row] = await tx.insert(helps).values(values).returning();
  return row!;
}

/** The row after the change; null when it no longer exists. */
export async function updateHelp(
  tx: Executor,
  id: number,
  values: Partial<typeof helps.$inferInsert>,
): Promise<HelpRow | null> {
  const [row] = await tx.update(helps).set(values).where(eq(helps.id, id)).returning();
  return row ?? null;
}

/** Whether a help video was deleted. */
export async function deleteHelp(tx: Executor, id: number): Promise<boolean> {
  const gone = await tx.delete(helps).where(eq(helps.id, id)).returning({ id: helps.id });
  return gone.length > 0;
}
