import { and, eq, sql } from "drizzle-orm";
import type { TicketDTO } from "@atende/contracts";
import { type Db, type Executor, type Tx, queryRows } from "../../db/client.js";
import { isSerializationFailure, isUniqueViolationOf } from "../../db/errors.js";
import { tableRow } from "../../db/prepared.js";
import { contacts, messages, tickets, whatsapps } from "../../db/schema/index.js";
import type { ContactRow } from "../contacts/present.js";
import type { MessageRow } from "../messages/present.js";
import { presentSla } from "../tickets/present.js";
import {
  type ContactKey,
  type ContactValues,
  type ConversationRow,
  type ConversationValues,
  type MessageValues,
  batch,
  contactAlone,
  quietBatch,
} from "./batchQueries.js";

export type { ContactKey, ContactValues, ConversationValues, MessageValues };

/**
 * The channels' statements for the inbound pipeline and the connection rows it updates (the
 * session leases, auth keys and sent messages are in sessionState/queries.ts).
 *
 * The inbound pipeline's writes, as few statements as the guarantees allow: the hot path (a
 * message that opens or continues a conversation) is one statement for all the messages that
 * arrive on a connection while the previous batch commits (group commit).
 */

export interface SavedContact {
  contact: ContactRow;
  created: boolean;
  /** Created or renamed: the agents' contact lists must hear of it. */
  changed: boolean;
}

export interface StoredConversation extends SavedContact {
  ticket: TicketDTO;
  message: MessageRow;
  quoted: MessageRow | null;
  /** The batch's first message of this contact / of this ticket (their events go out once). */
  firstOfContact: boolean;
  firstOfTicket: boolean;
  /** Stored by the quiet statement, without the followers (see QuietPath). */
  quiet?: boolean;
}

const REDELIVERY = "messages_whatsapp_wid_uq";

/** True for the unique-index failure of a message id already stored on its connection. */
function isRedelivery(err: unknown): boolean {
  return isUniqueViolationOf(err, [REDELIVERY]);
}

/**
 * The ticket as loadTickets (modules/tickets/present.ts) presents it, from the statement's answer
 * instead of two more queries; inbound.test.ts checks that both agree.
 */
function presentTicket(row: ConversationRow, contact: ContactRow): TicketDTO {
  const t = tableRow(tickets, row.ticket);
  return {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    contactId: t.contactId,
    contact: {
      id: contact.id,
      name: contact.name,
      number: contact.number,
      profilePicUrl: contact.profilePicUrl,
      isGroup: contact.isGroup,
    },
    userId: t.userId,
    user: t.userId !== null && row.user_name !== null ? { id: t.userId, name: row.user_name } : null,
    queueId: t.queueId,
    queue:
      t.queueId !== null && row.queue_name !== null
        ? { id: t.queueId, name: row.queue_name, color: row.queue_color ?? "" }
        : null,
    whatsappId: t.whatsappId,
    whatsapp:
      t.whatsappId !== null && row.whatsapp_name !== null
        ? { id: t.whatsappId, name: row.whatsapp_name }
        : null,
    lastMessage: t.lastMessage,
    unreadMessages: t.unreadMessages,
    isGroup: t.isGroup,
    chatbot: t.chatbot,
    tags: row.tags,
    sla: presentSla(t),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** A message for its contact's live ticket, found by `key`. */
export interface ConversationItem {
  key: ContactKey;
  values: ConversationValues;
}

/** Tries of a batch that lost a race (a twin committed meanwhile, a deadlock) before it is split up. */
const BATCH_TRIES = 3;

function isRetryable(err: unknown): boolean {
  return isRedelivery(err) || isSerializationFailure(err);
}

/**
 * Writes one key's batch and hands its rows to `within`, in the same transaction when `inTx` (the
 * work that must commit with the messages: see storeConversationMessages), else right after.
 */
async function writeBatch<R extends ConversationRow, T>(
  db: Executor,
  statement: { rows(db: Executor, params: { rows: string }): Promise<R[]> },
  items: { idx: number; values: ConversationValues }[],
  inTx: boolean,
  within: (tx: Executor, rows: R[]) => Promise<T>,
): Promise<T> {
  const rows = JSON.stringify(
    items.map(({ idx, values: v }) => ({
      idx,
      company_id: v.companyId,
      whatsapp_id: v.whatsappId,
      name: v.name,
      number: v.number,
      lid: v.lid,
      is_group: v.isGroup,
      at: v.at,
      wid: v.wid,
      body: v.body,
      from_me: v.fromMe,
      ack: v.ack,
      media_type: v.mediaType,
      media_path: v.mediaPath,
      media_mime: v.mediaMime,
      media_name: v.mediaName,
      media_status: v.mediaStatus,
      participant: v.participant,
      is_forwarded: v.isForwarded,
      created_at: v.createdAt,
      updated_at: v.updatedAt,
      quoted_wid: v.quotedWid,
      preview: v.preview,
      unread: v.unread,
    })),
  );
  for (let attempt = 1; ; attempt++) {
    try {
      if (!inTx) return await within(db, await statement.rows(db, { rows }));
      // A failed try aborts its transaction: each try is a transaction of its own.
      return await db.transaction(async (tx) => within(tx, await statement.rows(tx, { rows })));
    } catch (err) {
      if (attempt >= BATCH_TRIES || !isRetryable(err)) throw err;
    }
  }
}

/**
 * The statement's rows as the pipeline keeps them, marking the batch's first message of each contact
 * and ticket. Marked on copies of the sets: a try that fails must not mark those of the next one.
 */
function storedOf(rows: ConversationRow[], contactsSeen: Set<number>, ticketsSeen: Set<number>) {
  const contactsNow = new Set(contactsSeen);
  const ticketsNow = new Set(ticketsSeen);
  return rows.map((row) => {
    const contact = tableRow(contacts, row.contact);
    const ticket = presentTicket(row, contact);
    const one: StoredConversation = {
      contact,
      created: row.inserted,
      changed: row.inserted || row.renamed,
      ticket,
      message: tableRow(messages, row.message),
      quoted: row.quoted ? tableRow(messages, row.quoted) : null,
      firstOfContact: !contactsNow.has(contact.id),
      firstOfTicket: !ticketsNow.has(ticket.id),
    };
    contactsNow.add(contact.id);
    ticketsNow.add(ticket.id);
    return { idx: row.idx, one };
  });
}

/**
 * Work committed with a batch's messages (the durable jobs they call for): run in the batch's
 * transaction, it answers what to do once committed.
 */
export type WithinBatch = (tx: Executor, stored: StoredConversation[]) => Promise<() => void>;

/**
 * Stores a batch of messages (see batchStatement), one result per item in order: null for a
 * redelivery (already stored, or earlier in the same batch). `firstOfContact` / `firstOfTicket`
 * mark the batch's first message of each contact and ticket, so their events go out once. With
 * `withinBatch`, the statement and that work share one transaction (one COMMIT).
 */
export async function storeConversationMessages(
  db: Executor,
  items: ConversationItem[],
  withinBatch?: WithinBatch,
): Promise<(StoredConversation | null)[]> {
  const results: (StoredConversation | null)[] = items.map(() => null);
  const seen = new Set<string>();
  const byKey: Record<ContactKey, { idx: number; values: ConversationValues }[]> = { number: [], lid: [] };
  items.forEach(({ key, values }, idx) => {
    const id = `${values.whatsappId}:${values.wid}`;
    if (seen.has(id)) return; // the same message twice in one batch: the first one is stored
    seen.add(id);
    byKey[key].push({ idx, values });
  });
  const contactsSeen = new Set<number>();
  const ticketsSeen = new Set<number>();
  for (const key of ["number", "lid"] as const) {
    if (byKey[key].length === 0) continue;
    const statement = batch[key];
    const { stored, committed } = await writeBatch(
      db,
      statement,
      byKey[key],
      !!withinBatch,
      async (tx, rows) => {
        const list = storedOf(rows, contactsSeen, ticketsSeen);
        return {
          stored: list,
          committed: withinBatch
            ? await withinBatch(
                tx,
                list.map((s) => s.one),
              )
            : () => undefined,
        };
      },
    );
    committed();
    for (const { idx, one } of stored) {
      results[idx] = one;
      contactsSeen.add(one.contact.id);
      ticketsSeen.add(one.ticket.id);
    }
  }
  return results;
}

/**
 * Stores what it can of a batch with the quiet statement (quietBatch): one statement in autocommit,
 * the bot's turns queued in it. One result per item: the stored message, null for a redelivery, or
 * undefined for a message left to the transaction with the followers (storeConversationMessages).
 */
export async function storeQuietMessages(
  db: Executor,
  items: ConversationItem[],
): Promise<{ results: (StoredConversation | null | undefined)[]; turns: number }> {
  const results: (StoredConversation | null | undefined)[] = items.map(() => null);
  const seen = new Set<string>();
  const byKey: Record<ContactKey, { idx: number; values: ConversationValues }[]> = { number: [], lid: [] };
  items.forEach(({ key, values }, idx) => {
    const id = `${values.whatsappId}:${values.wid}`;
    if (seen.has(id)) return;
    seen.add(id);
    byKey[key].push({ idx, values });
  });
  let turns = 0;
  const contactsSeen = new Set<number>();
  const ticketsSeen = new Set<number>();
  for (const key of ["number", "lid"] as const) {
    if (byKey[key].length === 0) continue;
    let rows;
    try {
      rows = await writeBatch(db, quietBatch[key], byKey[key], false, async (_db, rows) => rows);
    } catch {
      // Nothing of a failed statement is kept: its messages take the other path, which meets the
      // same failure where its callers can act on it (a LID clash reconciled, say).
      for (const { idx } of byKey[key]) results[idx] = undefined;
      continue;
    }
    const written = rows.filter((row) => row.message !== null);
    for (const row of rows) if (row.message === null) results[row.idx] = undefined;
    turns += written[0]?.turns ?? 0;
    for (const { idx, one } of storedOf(written, contactsSeen, ticketsSeen)) {
      results[idx] = { ...one, quiet: true };
      contactsSeen.add(one.contact.id);
      ticketsSeen.add(one.ticket.id);
    }
  }
  return { results, turns };
}

/** Whether the transaction wrote anything so far (PostgreSQL gave it a transaction id). */
export async function transactionWrote(tx: Executor): Promise<boolean> {
  const [row] = await queryRows<{ xid: string | null }>(
    tx,
    sql`select txid_current_if_assigned()::text as xid`,
  );
  return row?.xid != null;
}

/** Finds or creates the contact alone (a reaction joins its target's ticket). */
export async function saveContact(
  db: Executor,
  key: ContactKey,
  values: ContactValues,
): Promise<SavedContact> {
  const [row] = await contactAlone[key].rows(db, values);
  return {
    contact: tableRow(contacts, row!),
    created: row!.inserted,
    changed: row!.inserted || row!.renamed,
  };
}

/** The company's message on a connection by its provider id. */
export async function findMessageByWid(
  db: Tx | Db,
  companyId: number,
  whatsappId: number,
  wid: string,
): Promise<MessageRow | null> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(eq(messages.companyId, companyId), eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)),
    );
  return row ?? null;
}

/** A reaction stored beside its target; no id when it is a redelivery (the unique wid index). */
export async function insertReaction(
  tx: Tx,
  companyId: number,
  values: MessageValues & { ticketId: number; contactId: number; quotedMsgId: number },
): Promise<{ id: number }[]> {
  return tx
    .insert(messages)
    .values({
      companyId,
      ticketId: values.ticketId,
      contactId: values.contactId,
      whatsappId: values.whatsappId,
      wid: values.wid,
      body: values.body,
      fromMe: values.fromMe,
      read: values.fromMe,
      ack: values.ack,
      mediaType: values.mediaType,
      quotedMsgId: values.quotedMsgId,
      participant: values.participant,
      isForwarded: values.isForwarded,
      createdAt: new Date(values.createdAt),
      updatedAt: new Date(values.updatedAt),
    })
    .onConflictDoNothing()
    .returning({ id: messages.id });
}

/** A provider's change to a message (ack, edit, revoke). */
export async function updateMessageById(
  tx: Tx,
  id: number,
  patch: Partial<typeof messages.$inferInsert>,
): Promise<void> {
  // By id alone: the caller just read the row in its company (findMessageByWid), in this transaction.
  await tx.update(messages).set(patch).where(eq(messages.id, id));
}

/** The company's contact by number (a provider's contact update). */
export async function findContactByNumber(
  db: Db,
  companyId: number,
  number: string,
): Promise<ContactRow | null> {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
  return row ?? null;
}

/** A provider's change to a contact (name, picture). */
export async function updateContactById(
  db: Db,
  id: number,
  patch: Partial<typeof contacts.$inferInsert>,
): Promise<ContactRow | undefined> {
  // By id alone: the caller read the contact in the connection's company just before.
  const [row] = await db.update(contacts).set(patch).where(eq(contacts.id, id)).returning();
  return row;
}

/** The connection's status as its provider reports it; undefined when it is not the company's. */
export async function updateConnection(
  tx: Tx,
  companyId: number,
  whatsappId: number,
  patch: Partial<typeof whatsapps.$inferInsert>,
): Promise<typeof whatsapps.$inferSelect | undefined> {
  const [row] = await tx
    .update(whatsapps)
    .set(patch)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, whatsappId)))
    .returning();
  return row;
}

/** The open ticket of a number on a connection (a presence is shown on it). */
export async function openTicketIdOfNumber(
  db: Db,
  companyId: number,
  whatsappId: number,
  number: string,
): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select t.id from tickets t join contacts c on c.id = t.contact_id
        where t.company_id = ${companyId} and t.whatsapp_id = ${whatsappId}
          and c.number = ${number} and t.status <> 'closed' limit 1`,
  );
  return rows[0]?.id ?? null;
}
