import { type SQL, and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import type { ContactDTO } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { isSerializationFailure, isUniqueViolationOf } from "../../db/errors.js";
import { columnList, tableRow } from "../../db/prepared.js";
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
    const rows = await numbersAmong(db, companyId, numbers.slice(i, i + 1000));
    for (const r of rows) found.add(r.number);
  }
  return found;
}

/**
 * The company's contacts among `numbers` (one chunk of existingNumbers; exported for its plan's
 * test). `number <> ''` is the condition of the contacts' unique index on the number (a partial
 * one): PostgreSQL proves it from `number in (...)` of up to 100 values only, and past that, without
 * it, a chunk read every contact of the company.
 */
export function numbersAmong(db: Executor, companyId: number, numbers: string[]) {
  return db
    .select({ number: contacts.number })
    .from(contacts)
    .where(
      and(eq(contacts.companyId, companyId), ne(contacts.number, ""), inArray(contacts.number, numbers)),
    );
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

/* Merging the contacts of one person (a number and its LID). */

/**
 * One customer, two names: WhatsApp calls a person by phone number or by privacy id (LID), and
 * tells the pair only sometimes. Before it does, the same person may have become two contacts (one
 * with the number, one with the LID alone); once the pair is known they become one again.
 */

/**
 * The tables whose rows point at a contact and follow it when it is merged into another.
 * channels/lid.test.ts checks this list against the database's foreign keys, so a new table is not missed.
 */
export const CONTACT_REFERENCES = [
  "tickets",
  "messages",
  "ticket_notes",
  "schedules",
  "contact_custom_fields",
  "campaign_shippings",
  "campaign_opt_outs",
] as const;

export interface ContactIdentity {
  companyId: number;
  /** Normalised digits, never "". */
  number: string;
  lid: string;
}

export interface ReconciledContact {
  contact: ContactRow;
  /** The LID-only contact folded into `contact`, now deleted. */
  absorbedId: number | null;
  /** Tickets that now belong to `contact` (moved, or given the messages of a twin). */
  changedTicketIds: number[];
  /** Live tickets of the absorbed contact emptied into `contact`'s live ticket of the same connection. */
  deletedTickets: { id: number; queueId: number | null; userId: number | null }[];
}

/**
 * Whether the company's contacts already say that `number` and `lid` are one person: no contact
 * holds either (the inbound upsert creates it), or one contact holds both. Read without locks: the
 * cheap check before `reconcileContact`.
 */
export async function identityIsSettled(db: Executor, who: ContactIdentity): Promise<boolean> {
  const rows = await queryRows<{ number: string; lid: string | null }>(
    db,
    sql`select number, lid from contacts
        where company_id = ${who.companyId} and not is_group and (number = ${who.number} or lid = ${who.lid})`,
  );
  return (
    rows.length === 0 || (rows.length === 1 && rows[0]!.number === who.number && rows[0]!.lid === who.lid)
  );
}

/**
 * Makes the contacts say that `number` and `lid` are one person, in the caller's transaction:
 * - a contact with the LID alone gets the number (or the number's contact gets the LID);
 * - a contact with the number and another with the LID become the number's one: the other's tickets,
 *   messages, notes, schedules, custom fields and campaign rows move to it, a live ticket of both on
 *   one connection keeps the number's ticket (the other one's messages and notes join it), then
 *   the other contact is deleted.
 * Null when no contact holds either. Concurrent calls serialise on the rows' locks; a contact
 * inserted meanwhile by another transaction surfaces as a unique violation, for the caller to retry.
 */
export async function reconcileContact(
  tx: Executor,
  who: ContactIdentity,
): Promise<ReconciledContact | null> {
  const { companyId, number, lid } = who;
  const found = (
    await queryRows<Record<string, unknown>>(
      tx,
      sql`select ${columnList(contacts)} from contacts
          where company_id = ${companyId} and not is_group and (number = ${number} or lid = ${lid})
          order by id for update`,
    )
  ).map((raw) => tableRow(contacts, raw));
  const byNumber = found.find((c) => c.number === number);
  const byLid = found.find((c) => c.lid === lid);
  const keeper = byNumber ?? byLid;
  if (!keeper) return null;
  const absorbed = byNumber && byLid && byLid.id !== byNumber.id ? byLid : null;
  const result: ReconciledContact = {
    contact: keeper,
    absorbedId: null,
    changedTicketIds: [],
    deletedTickets: [],
  };

  if (absorbed) {
    // Its LID is the keeper's now: released first, or the unique index refuses the keeper's.
    await tx.execute(sql`update contacts set lid = null where id = ${absorbed.id}`);
    await mergeTickets(tx, companyId, keeper.id, absorbed.id, result);
    for (const table of CONTACT_REFERENCES) {
      await tx.execute(
        sql`update ${sql.identifier(table)} set contact_id = ${keeper.id}
            where company_id = ${companyId} and contact_id = ${absorbed.id}`,
      );
    }
    await tx.execute(sql`delete from contacts where id = ${absorbed.id}`);
    result.absorbedId = absorbed.id;
  }

  // The keeper takes both names; a name the phone gave the absorbed contact replaces one that is
  // only the number, and an e-mail or picture only the absorbed contact had is kept.
  const named = (c: ContactRow) => c.name !== "" && c.name !== c.number && c.name !== c.lid;
  const name =
    absorbed && !named(keeper) && named(absorbed)
      ? absorbed.name
      : keeper.name === keeper.lid || keeper.name === ""
        ? number // a contact named by its LID is named by its number once it has one
        : keeper.name;
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`update contacts set number = ${number}, lid = ${lid},
          name = ${name},
          email = ${keeper.email || absorbed?.email || ""},
          profile_pic_url = ${keeper.profilePicUrl || absorbed?.profilePicUrl || ""},
          updated_at = now()
        where id = ${keeper.id}
        returning ${columnList(contacts)}`,
  );
  result.contact = tableRow(contacts, row!);
  return result;
}

/** The absorbed contact's tickets become the keeper's; two live ones on one connection become one. */
async function mergeTickets(
  tx: Executor,
  companyId: number,
  keeperId: number,
  absorbedId: number,
  result: ReconciledContact,
) {
  const twins = await queryRows<{
    twin: number;
    keep: number;
    queue_id: number | null;
    user_id: number | null;
  }>(
    tx,
    sql`select a.id as twin, k.id as keep, a.queue_id, a.user_id
        from tickets a join tickets k on k.company_id = a.company_id and k.whatsapp_id = a.whatsapp_id
          and k.contact_id = ${keeperId} and k.status <> 'closed'
        where a.company_id = ${companyId} and a.contact_id = ${absorbedId} and a.status <> 'closed'
        order by a.id for update of a, k`,
  );
  for (const { twin, keep, queue_id, user_id } of twins) {
    await tx.execute(sql`update messages set ticket_id = ${keep} where ticket_id = ${twin}`);
    await tx.execute(sql`update ticket_notes set ticket_id = ${keep} where ticket_id = ${twin}`);
    // The live ticket shows the latest of both conversations and every unread message.
    await tx.execute(
      sql`update tickets k set
            unread_messages = k.unread_messages + a.unread_messages,
            last_message = case when a.updated_at > k.updated_at then a.last_message else k.last_message end,
            updated_at = greatest(a.updated_at, k.updated_at)
          from tickets a where k.id = ${keep} and a.id = ${twin}`,
    );
    await tx.execute(sql`delete from tickets where id = ${twin}`);
    result.deletedTickets.push({ id: twin, queueId: queue_id, userId: user_id });
    result.changedTicketIds.push(keep);
  }
  const moved = await queryRows<{ id: number }>(
    tx,
    sql`update tickets set contact_id = ${keeperId}
        where company_id = ${companyId} and contact_id = ${absorbedId} returning id`,
  );
  result.changedTicketIds.push(...moved.map((t) => t.id));
}

const CONTACT_KEYS = ["contacts_company_lid_uq", "contacts_company_number_uq"];

/**
 * True for a unique violation on a contact's number or LID: the inbound upsert met a contact that
 * holds the other half of the address (or a twin committed meanwhile). Reconcile, then try again.
 */
export function isContactKeyClash(err: unknown): boolean {
  return isUniqueViolationOf(err, CONTACT_KEYS);
}

/** A reconcile that lost a race (a twin contact committed meanwhile, a deadlock): the next try sees the winner. */
export function isReconcileRace(err: unknown): boolean {
  return isContactKeyClash(err) || isSerializationFailure(err);
}
