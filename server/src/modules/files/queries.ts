import { and, asc, count, eq, ilike, inArray, notInArray } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { fileListOptions, fileLists } from "../../db/schema/index.js";

export type FileListRow = typeof fileLists.$inferSelect;
export type FileListOptionRow = typeof fileListOptions.$inferSelect;
export type FileListWithOptions = FileListRow & { options: FileListOptionRow[] };

async function withOptions(db: Executor, rows: FileListRow[]): Promise<FileListWithOptions[]> {
  if (rows.length === 0) return [];
  const options = await db
    .select()
    .from(fileListOptions)
    .where(
      inArray(
        fileListOptions.fileId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(fileListOptions.id));
  return rows.map((r) => ({ ...r, options: options.filter((o) => o.fileId === r.id) }));
}

/** GET /files/: name search, alphabetical, a page at a time. */
export async function pageFileLists(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: FileListWithOptions[]; count: number }> {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam
    ? and(eq(fileLists.companyId, companyId), ilike(fileLists.name, term))
    : eq(fileLists.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(fileLists).where(where);
  const rows = await db
    .select()
    .from(fileLists)
    .where(where)
    .orderBy(asc(fileLists.name), asc(fileLists.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  return { rows: await withOptions(db, rows), count: Number(total?.n ?? 0) };
}

export async function findFileList(
  db: Executor,
  companyId: number,
  id: number,
): Promise<FileListWithOptions | null> {
  const rows = await db
    .select()
    .from(fileLists)
    .where(and(eq(fileLists.companyId, companyId), eq(fileLists.id, id)));
  return (await withOptions(db, rows))[0] ?? null;
}

export async function insertFileList(db: Executor, values: typeof fileLists.$inferInsert) {
  const [row] = await db.insert(fileLists).values(values).returning();
  return row!;
}

export async function updateFileList(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<typeof fileLists.$inferInsert>,
) {
  const [row] = await db
    .update(fileLists)
    .set(values)
    .where(and(eq(fileLists.companyId, companyId), eq(fileLists.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteFileList(db: Executor, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(fileLists)
    .where(and(eq(fileLists.companyId, companyId), eq(fileLists.id, id)))
    .returning({ id: fileLists.id });
  return rows.length > 0;
}

export async function insertOption(db: Executor, values: typeof fileListOptions.$inferInsert) {
  const [row] = await db.insert(fileListOptions).values(values).returning();
  return row!;
}

export async function updateOption(
  db: Executor,
  companyId: number,
  fileId: number,
  id: number,
  values: Partial<typeof fileListOptions.$inferInsert>,
) {
  const [row] = await db
    .update(fileListOptions)
    .set(values)
    .where(
      and(
        eq(fileListOptions.companyId, companyId),
        eq(fileListOptions.fileId, fileId),
        eq(fileListOptions.id, id),
      ),
    )
    .returning();
  return row ?? null;
}

/** Removes the list's options not among `keep`; answers the removed rows (their files go too). */
export async function deleteOptionsExcept(db: Executor, companyId: number, fileId: number, keep: number[]) {
  const scope = and(eq(fileListOptions.companyId, companyId), eq(fileListOptions.fileId, fileId));
  return db
    .delete(fileListOptions)
    .where(keep.length ? and(scope, notInArray(fileListOptions.id, keep)) : scope)
    .returning();
}
