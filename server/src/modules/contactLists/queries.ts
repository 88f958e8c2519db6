import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import { type Executor, queryRows } from "../../db/client.js";
import { intArray } from "../../db/prepared.js";
import { contactListImports, contactListItems, contactLists, whatsapps } from "../../db/schema/index.js";

export type ContactListRow = typeof contactLists.$inferSelect;
export type ContactListItemRow = typeof contactListItems.$inferSelect;
export type ContactListImportRow = typeof contactListImports.$inferSelect;
export type NewContactListItem = typeof contactListItems.$inferInsert;

const likeTerm = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// Written out: inside a subquery drizzle would leave "id" unqualified (the item's own id).
const contactsCount = sql<number>`(select count(*)::int from contact_list_items cli where cli.contact_list_id = "contact_lists"."id")`;

export type ContactListWithCount = ContactListRow & { contactsCount: number };

/** GET /contact-lists/: name search, alphabetical, a page at a time, each with its item count. */
export async function pageContactLists(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: ContactListWithCount[]; count: number }> {
  const where = opts.searchParam
    ? and(eq(contactLists.companyId, companyId), ilike(contactLists.name, likeTerm(opts.searchParam)))
    : eq(contactLists.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(contactLists).where(where);
  const rows = await db
    .select({ list: contactLists, contactsCount })
    .from(contactLists)
    .where(where)
    .orderBy(asc(contactLists.name), asc(contactLists.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  return {
    rows: rows.map((r) => ({ ...r.list, contactsCount: Number(r.contactsCount) })),
    count: Number(total?.n ?? 0),
  };
}

/** Every list of the company, by name (GET /contact-lists/list). */
export async function allContactLists(db: Executor, companyId: number): Promise<ContactListWithCount[]> {
  const rows = await db
    .select({ list: contactLists, contactsCount })
    .from(contactLists)
    .where(eq(contactLists.companyId, companyId))
    .orderBy(asc(contactLists.name), asc(contactLists.id));
  return rows.map((r) => ({ ...r.list, contactsCount: Number(r.contactsCount) }));
}

export async function findContactList(
  db: Executor,
  companyId: number,
  id: number,
): Promise<ContactListWithCount | null> {
  const [row] = await db
    .select({ list: contactLists, contactsCount })
    .from(contactLists)
    .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)));
  return row ? { ...row.list, contactsCount: Number(row.contactsCount) } : null;
}

export async function insertContactList(db: Executor, values: typeof contactLists.$inferInsert) {
  const [row] = await db.insert(contactLists).values(values).returning();
  return row!;
}

export async function updateContactList(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<typeof contactLists.$inferInsert>,
): Promise<ContactListRow | null> {
  const [row] = await db
    .update(contactLists)
    .set(values)
    .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteContactList(db: Executor, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(contactLists)
    .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  return rows.length > 0;
}

/** The company's connection among `id`, or null when it is another company's. */
export async function companyConnection(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)));
  return row ?? null;
}

/** The connection a list's numbers are checked through: its own, else the default (else the first). */
export async function checkingConnectionId(
  db: Executor,
  companyId: number,
  whatsappId: number | null,
): Promise<number | null> {
  if (whatsappId) return whatsappId;
  const [row] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, companyId))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  return row?.id ?? null;
}

// ---- Items ----

/** GET /contact-list-items: name, number or email search in one list, by name. */
export async function pageItems(
  db: Executor,
  companyId: number,
  opts: { contactListId: number; searchParam: string; pageNumber: number; pageSize: number },
): Promise<{ rows: ContactListItemRow[]; count: number }> {
  const scope = and(
    eq(contactListItems.companyId, companyId),
    eq(contactListItems.contactListId, opts.contactListId),
  );
  const term = likeTerm(opts.searchParam);
  const where = opts.searchParam
    ? and(
        scope,
        or(
          ilike(contactListItems.name, term),
          ilike(contactListItems.number, likeTerm(opts.searchParam.replace(/\D/g, "") || opts.searchParam)),
          ilike(contactListItems.email, term),
        ),
      )
    : scope;
  const [total] = await db.select({ n: count() }).from(contactListItems).where(where);
  const rows = await db
    .select()
    .from(contactListItems)
    .where(where)
    .orderBy(asc(contactListItems.name), asc(contactListItems.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findItem(
  db: Executor,
  companyId: number,
  id: number,
): Promise<ContactListItemRow | null> {
  const [row] = await db
    .select()
    .from(contactListItems)
    .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)));
  return row ?? null;
}

export async function insertItem(db: Executor, values: NewContactListItem): Promise<ContactListItemRow> {
  const [row] = await db.insert(contactListItems).values(values).returning();
  return row!;
}

/**
 * This transaction's commit does not wait for its log to reach the disk. For an import's batches:
 * a crash of the database's machine may lose the last few, each with its own progress (so the
 * import resumes before them); the job's own end, committed normally after, flushes them all.
 */
export async function commitWithoutWaitingForDisk(tx: Executor) {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/**
 * An import's batch of items, numbers already in the list skipped: one statement whatever the
 * batch's size (the rows travel as one JSON parameter). Answers the ids of the items added, in order
 * (their event reads them when someone listens).
 */
export async function insertImportedItems(
  db: Executor,
  companyId: number,
  contactListId: number,
  rows: { name: string; number: string; email: string }[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const added = await queryRows<{ id: number }>(
    db,
    sql`insert into contact_list_items (company_id, contact_list_id, name, number, email)
      select ${companyId}, ${contactListId}, r.name, r.number, r.email
        from jsonb_to_recordset(${JSON.stringify(rows.map(({ name, number, email }) => ({ name, number, email })))}::jsonb)
          as r(name text, number text, email text)
      on conflict (contact_list_id, number) do nothing
      returning id`,
  );
  return added.map((row) => row.id).sort((a, b) => a - b);
}

/** The company's items among `ids`, by id (what the WhatsApp check just marked, for its event). */
export async function itemsByIds(
  db: Executor,
  companyId: number,
  ids: number[],
): Promise<ContactListItemRow[]> {
  if (ids.length === 0) return [];
  // One array parameter: an import's batch reads up to 2,000 ids (a bound value each cost PGlite dearly).
  return db
    .select()
    .from(contactListItems)
    .where(
      and(
        eq(contactListItems.companyId, companyId),
        sql`${contactListItems.id} = any(${intArray(ids)}::int[])`,
      ),
    )
    .orderBy(asc(contactListItems.id));
}

export async function updateItem(
  db: Executor,
  companyId: number,
  id: number,
  values: Partial<NewContactListItem>,
): Promise<ContactListItemRow | null> {
  const [row] = await db
    .update(contactListItems)
    .set(values)
    .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteItem(db: Executor, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(contactListItems)
    .where(and(eq(contactListItems.companyId, companyId), eq(contactListItems.id, id)))
    .returning({ id: contactListItems.id });
  return rows.length > 0;
}

/** The items of a list not yet checked on WhatsApp, oldest first. */
export async function uncheckedItems(
  db: Executor,
  companyId: number,
  contactListId: number,
  limit: number,
): Promise<Pick<ContactListItemRow, "id" | "number">[]> {
  return db
    .select({ id: contactListItems.id, number: contactListItems.number })
    .from(contactListItems)
    .where(
      and(
        eq(contactListItems.companyId, companyId),
        eq(contactListItems.contactListId, contactListId),
        isNull(contactListItems.whatsappCheckedAt),
      ),
    )
    .orderBy(asc(contactListItems.id))
    .limit(limit);
}

export async function markChecked(
  db: Executor,
  companyId: number,
  ids: number[],
  valid: boolean,
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(contactListItems)
    .set({ isWhatsappValid: valid, whatsappCheckedAt: at })
    .where(and(eq(contactListItems.companyId, companyId), inArray(contactListItems.id, ids)));
}

// ---- Imports ----

export async function insertImport(db: Executor, values: typeof contactListImports.$inferInsert) {
  const [row] = await db.insert(contactListImports).values(values).returning();
  return row!;
}

export async function findImport(
  db: Executor,
  companyId: number,
  id: number,
): Promise<ContactListImportRow | null> {
  const [row] = await db
    .select()
    .from(contactListImports)
    .where(and(eq(contactListImports.companyId, companyId), eq(contactListImports.id, id)));
  return row ?? null;
}

/** The latest import of a list (the page shows its progress when opened). */
export async function latestImport(
  db: Executor,
  companyId: number,
  contactListId: number,
): Promise<ContactListImportRow | null> {
  const [row] = await db
    .select()
    .from(contactListImports)
    .where(
      and(eq(contactListImports.companyId, companyId), eq(contactListImports.contactListId, contactListId)),
    )
    .orderBy(desc(contactListImports.id))
    .limit(1);
  return row ?? null;
}

/** Adds a batch's counts and bad rows to an import; answers the row after. */
export async function advanceImport(
  db: Executor,
  id: number,
  step: {
    processedRows: number;
    totalRows: number;
    imported: number;
    duplicates: number;
    invalid: number;
    errors: { row: number; reason: string; value?: string }[];
    status: ContactListImportRow["status"];
    finishedAt?: Date | null;
  },
): Promise<ContactListImportRow> {
  const [row] = await db
    .update(contactListImports)
    .set({
      processedRows: step.processedRows,
      totalRows: step.totalRows,
      imported: sql`${contactListImports.imported} + ${step.imported}`,
      duplicates: sql`${contactListImports.duplicates} + ${step.duplicates}`,
      invalid: sql`${contactListImports.invalid} + ${step.invalid}`,
      errors: step.errors.length
        ? sql`${contactListImports.errors} || ${JSON.stringify(step.errors)}::jsonb`
        : contactListImports.errors,
      status: step.status,
      ...(step.finishedAt !== undefined ? { finishedAt: step.finishedAt } : {}),
    })
    .where(eq(contactListImports.id, id))
    .returning();
  return row!;
}

export async function failImport(db: Executor, id: number, error: string, at: Date) {
  const [row] = await db
    .update(contactListImports)
    .set({ status: "failed", error, finishedAt: at })
    .where(eq(contactListImports.id, id))
    .returning();
  return row ?? null;
}

/** An import by id alone: the job's own row (its payload names it; the company comes with it). */
export async function importById(db: Executor, id: number): Promise<ContactListImportRow | null> {
  // Unscoped on purpose: a durable job knows only the id it was given; the row carries its company.
  const [row] = await db.select().from(contactListImports).where(eq(contactListImports.id, id));
  return row ?? null;
}
