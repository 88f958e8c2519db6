import { type SQL, and, asc, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { ContactDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { contactCustomFields, contacts, tickets, whatsapps } from "../../db/schema/index.js";
import { type ContactRow, presentContact } from "./present.js";

/** Every helper takes the caller's companyId first: a contact of another company is simply not found. */

type ExtraInfo = ContactDTO["extraInfo"];

export async function extraInfoOf(
  db: Executor,
  companyId: number,
  contactIds: number[],
): Promise<Map<number, ExtraInfo>> {
  const map = new Map<number, ExtraInfo>();
  if (contactIds.length === 0) return map;
  const rows = await db
    .select()
    .from(contactCustomFields)
    .where(
      and(eq(contactCustomFields.companyId, companyId), inArray(contactCustomFields.contactId, contactIds)),
    )
    .orderBy(asc(contactCustomFields.id));
  for (const r of rows) {
    const list = map.get(r.contactId) ?? [];
    list.push({ id: r.id, name: r.name, value: r.value });
    map.set(r.contactId, list);
  }
  return map;
}

export async function presentContacts(db: Executor, companyId: number, rows: ContactRow[]) {
  const extra = await extraInfoOf(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentContact(r, extra.get(r.id) ?? []));
}

export async function findContactRow(
  db: Executor,
  companyId: number,
  contactId: number,
): Promise<ContactRow | null> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)));
  return row ?? null;
}

export async function findContact(
  db: Executor,
  companyId: number,
  contactId: number,
): Promise<ContactDTO | null> {
  const row = await findContactRow(db, companyId, contactId);
  return row ? ((await presentContacts(db, companyId, [row]))[0] ?? null) : null;
}

/** The contact holding one of these numbers (the forms WhatsApp may use for one person), if any. */
export async function findContactByNumbers(
  db: Executor,
  companyId: number,
  numbers: string[],
  exceptId?: number,
): Promise<ContactRow | null> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.companyId, companyId),
        inArray(contacts.number, numbers),
        exceptId ? sql`${contacts.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Which of these numbers are already contacts of the company. */
export async function existingNumbers(
  db: Executor,
  companyId: number,
  numbers: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < numbers.length; i += 1000) {
    const chunk = numbers.slice(i, i + 1000);
    const rows = await db
      .select({ number: contacts.number })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), inArray(contacts.number, chunk)));
    for (const r of rows) found.add(r.number);
  }
  return found;
}

export interface ContactFilters {
  searchParam: string;
  /** Calendar days (YYYY-MM-DD) read in `timeZone`. */
  date?: string;
  dateStart?: string;
  dateEnd?: string;
  timeZone: string;
}

function likeTerm(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filterWhere(companyId: number, f: ContactFilters): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(contacts.companyId, companyId)];
  const search = f.searchParam.trim();
  if (search) {
    const term = likeTerm(search);
    // Typed like a phone number ("(11) 99999-0001", "+55 11"): matched against the stored digits.
    const digits = /^[\d\s()+\-.]+$/.test(search) ? search.replace(/\D/g, "") : "";
    where.push(
      or(
        ilike(contacts.name, term),
        ilike(contacts.email, term),
        digits.length > 0 ? ilike(contacts.number, likeTerm(digits)) : undefined,
      ),
    );
  }
  const createdDay = sql`(${contacts.createdAt} at time zone ${f.timeZone})::date`;
  if (f.date) where.push(sql`${createdDay} = ${f.date}::date`);
  if (f.dateStart) where.push(sql`${createdDay} >= ${f.dateStart}::date`);
  if (f.dateEnd) where.push(sql`${createdDay} <= ${f.dateEnd}::date`);
  return and(...where);
}

export async function pageContacts(
  db: Executor,
  companyId: number,
  filters: ContactFilters & { pageNumber: number; pageSize: number },
) {
  const where = filterWhere(companyId, filters);
  const [total] = await db.select({ n: count() }).from(contacts).where(where);
  const rows = await db
    .select()
    .from(contacts)
    .where(where)
    .orderBy(asc(contacts.name), asc(contacts.id))
    .limit(filters.pageSize)
    .offset((filters.pageNumber - 1) * filters.pageSize);
  const n = total?.n ?? 0;
  return {
    contacts: await presentContacts(db, companyId, rows),
    count: n,
    hasMore: filters.pageNumber * filters.pageSize < n,
  };
}

/** Every contact matching the filters, in name order (GET /contacts/list and the CSV export). */
export async function allContacts(db: Executor, companyId: number, filters: ContactFilters) {
  const rows = await db
    .select()
    .from(contacts)
    .where(filterWhere(companyId, filters))
    .orderBy(asc(contacts.name), asc(contacts.id));
  return presentContacts(db, companyId, rows);
}

/** Replaces the contact's extra info with `list`. */
export async function setExtraInfo(
  db: Executor,
  companyId: number,
  contactId: number,
  list: { name: string; value: string }[],
) {
  await db
    .delete(contactCustomFields)
    .where(and(eq(contactCustomFields.companyId, companyId), eq(contactCustomFields.contactId, contactId)));
  if (list.length > 0) {
    await db
      .insert(contactCustomFields)
      .values(list.map((x) => ({ companyId, contactId, name: x.name, value: x.value })));
  }
}

/** The contact's tickets, for the events that tell their viewers the tickets are gone. */
export async function ticketsOfContact(db: Executor, companyId: number, contactId: number) {
  return db
    .select({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)));
}

export async function insertContact(
  tx: Executor,
  companyId: number,
  values: Omit<typeof contacts.$inferInsert, "companyId">,
): Promise<ContactRow> {
  const [row] = await tx
    .insert(contacts)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

/** Null when the company has no such contact. */
export async function updateContact(
  tx: Executor,
  companyId: number,
  contactId: number,
  patch: Partial<typeof contacts.$inferInsert>,
): Promise<ContactRow | null> {
  const [row] = await tx
    .update(contacts)
    .set(patch)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .returning();
  return row ?? null;
}

/** Deletes the contact with its tickets and messages (the database cascades); whether it was there. */
export async function deleteContact(tx: Executor, companyId: number, contactId: number): Promise<boolean> {
  const [gone] = await tx
    .delete(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, contactId)))
    .returning({ id: contacts.id });
  return gone !== undefined;
}

/** An import's batch: a number saved meanwhile by someone else is skipped (no row for it). */
export async function insertImportedContacts(
  tx: Executor,
  companyId: number,
  values: Omit<typeof contacts.$inferInsert, "companyId">[],
): Promise<ContactRow[]> {
  return tx
    .insert(contacts)
    .values(values.map((v) => ({ ...v, companyId })))
    .onConflictDoNothing()
    .returning();
}

export async function insertCustomFields(
  tx: Executor,
  companyId: number,
  fields: { contactId: number; name: string; value: string }[],
): Promise<(typeof contactCustomFields.$inferSelect)[]> {
  if (fields.length === 0) return [];
  return tx
    .insert(contactCustomFields)
    .values(fields.map((f) => ({ ...f, companyId })))
    .returning();
}

/** The company's CONNECTED connections, the default one first. */
export async function connectedConnectionIds(db: Executor, companyId: number): Promise<{ id: number }[]> {
  return db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.status, "CONNECTED")))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id));
}
