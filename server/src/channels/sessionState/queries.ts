import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../db/prepared.js";
import { baileysKeys, whatsappLeases, whatsappSentMessages, whatsapps } from "../../db/schema/index.js";

/**
 * What keeps a connection's session alive across instances and restarts: the session leases, the
 * connection rows the sessions load, the providers' auth keys and the messages they sent (for a
 * phone's resend request). Split from the inbound pipeline's statements (modules/inbound/queries.ts).
 */

/*
 * Session leases. An instance runs the connections of every company: these statements look across
 * companies on purpose (the lease table is the deployment's, keyed by connection).
 */

/** Renews this instance's leases among `whatsappIds`; the ids it still holds. */
export async function renewLeases(
  db: Db,
  ownerId: string,
  whatsappIds: number[],
  until: Date,
): Promise<{ id: number }[]> {
  return db
    .update(whatsappLeases)
    .set({ expiresAt: until })
    .where(and(inArray(whatsappLeases.whatsappId, whatsappIds), eq(whatsappLeases.ownerId, ownerId)))
    .returning({ id: whatsappLeases.whatsappId });
}

/**
 * Whether `ownerId` still holds the connection's lease row, expired or not: until another instance
 * takes it over, a lease that ran out is still ours to renew.
 */
export async function holdsLease(db: Db, ownerId: string, whatsappId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: whatsappLeases.whatsappId })
    .from(whatsappLeases)
    .where(and(eq(whatsappLeases.whatsappId, whatsappId), eq(whatsappLeases.ownerId, ownerId)));
  return row !== undefined;
}

/** Connections in one of `statuses` whose lease is free or ran out before `at`. */
export async function claimableConnections(
  db: Db,
  statuses: readonly string[],
  at: Date,
): Promise<{ id: number; company_id: number }[]> {
  return queryRows<{ id: number; company_id: number }>(
    db,
    sql`select w.id, w.company_id from whatsapps w
        left join whatsapp_leases l on l.whatsapp_id = w.id
        where w.status in (${sql.join(
          statuses.map((s) => sql`${s}`),
          sql`, `,
        )}) and (l.whatsapp_id is null or l.expires_at < ${at.toISOString()})`,
  );
}

/** Takes the connection's lease unless another instance holds one still valid at `at`. */
export async function claimLease(
  db: Db,
  companyId: number,
  whatsappId: number,
  lease: { ownerId: string; until: Date; at: Date },
): Promise<boolean> {
  const claimed = await queryRows<{ whatsapp_id: number }>(
    db,
    sql`insert into whatsapp_leases (whatsapp_id, company_id, owner_id, expires_at)
        values (${whatsappId}, ${companyId}, ${lease.ownerId}, ${lease.until.toISOString()})
        on conflict (whatsapp_id) do update set owner_id = excluded.owner_id, expires_at = excluded.expires_at
        where whatsapp_leases.expires_at < ${lease.at.toISOString()}
        returning whatsapp_id`,
  );
  return claimed.length > 0;
}

/** Among `whatsappIds`, the connections a person or a logout left DISCONNECTED (TIMEOUT still retries). */
export async function idleConnectionIds(db: Db, whatsappIds: number[]): Promise<{ id: number }[]> {
  return db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(inArray(whatsapps.id, whatsappIds), eq(whatsapps.status, "DISCONNECTED")));
}

/** Forgets leases that ran out long ago. */
export async function purgeLeases(db: Db, before: Date): Promise<void> {
  await db.delete(whatsappLeases).where(lt(whatsappLeases.expiresAt, before));
}

/** Frees this instance's leases among `whatsappIds`. */
export async function releaseLeases(db: Db, ownerId: string, whatsappIds: number[]): Promise<void> {
  await db
    .delete(whatsappLeases)
    .where(and(inArray(whatsappLeases.whatsappId, whatsappIds), eq(whatsappLeases.ownerId, ownerId)));
}

/** Frees the connection's lease whoever holds it (restart, disconnect: the holder stops at its next renewal). */
export async function dropLease(db: Db, whatsappId: number): Promise<void> {
  // By connection alone: the caller names a connection it has already found in its company.
  await db.delete(whatsappLeases).where(eq(whatsappLeases.whatsappId, whatsappId));
}

/** The connection row a session starts from, by id: the lease claim just read its company. */
export async function findConnectionById(
  db: Db,
  whatsappId: number,
): Promise<typeof whatsapps.$inferSelect | null> {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, whatsappId));
  return row ?? null;
}

/*
 * The connection cache's read: by id alone, prepared, since the cache is keyed by connection and
 * checks the company itself on every get.
 */
const connectionStatement = new PreparedSql<{ id: number }>(
  "connection_cache_row",
  sql`select ${columnList(whatsapps)} from whatsapps where id = ${sql.placeholder("id")}::int`,
);

export async function loadConnectionRow(db: Db, id: number): Promise<typeof whatsapps.$inferSelect | null> {
  const [raw] = await connectionStatement.rows(db, { id });
  return raw ? tableRow(whatsapps, raw) : null;
}

/* A provider's session state as rows of `baileys_keys`: one row per key, never one blob rewritten. */

/** The connection's keys of a category among `ids`. */
export async function readAuthKeys(
  db: Db,
  companyId: number,
  whatsappId: number,
  category: string,
  ids: string[],
): Promise<{ keyId: string; value: unknown }[]> {
  return db
    .select({ keyId: baileysKeys.keyId, value: baileysKeys.value })
    .from(baileysKeys)
    .where(
      and(
        eq(baileysKeys.companyId, companyId),
        eq(baileysKeys.whatsappId, whatsappId),
        eq(baileysKeys.category, category),
        inArray(baileysKeys.keyId, ids),
      ),
    );
}

/** Writes the keys in one transaction; a null value deletes its key. */
export async function writeAuthKeys(
  db: Db,
  companyId: number,
  whatsappId: number,
  entries: { category: string; id: string; value: unknown }[],
): Promise<void> {
  const scope = and(eq(baileysKeys.companyId, companyId), eq(baileysKeys.whatsappId, whatsappId));
  await db.transaction(async (tx) => {
    for (const e of entries) {
      const key = and(scope, eq(baileysKeys.category, e.category), eq(baileysKeys.keyId, e.id));
      if (e.value === null || e.value === undefined) {
        await tx.delete(baileysKeys).where(key);
      } else {
        await tx
          .insert(baileysKeys)
          .values({ companyId, whatsappId, category: e.category, keyId: e.id, value: e.value })
          .onConflictDoUpdate({
            target: [baileysKeys.whatsappId, baileysKeys.category, baileysKeys.keyId],
            set: { value: e.value },
          });
      }
    }
  });
}

/** Forgets every key of the connection, and what it sent (a logout). */
export async function clearAuthKeys(db: Db, companyId: number, whatsappId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(baileysKeys)
      .where(and(eq(baileysKeys.companyId, companyId), eq(baileysKeys.whatsappId, whatsappId)));
    await tx
      .delete(whatsappSentMessages)
      .where(
        and(eq(whatsappSentMessages.companyId, companyId), eq(whatsappSentMessages.whatsappId, whatsappId)),
      );
  });
}

/* What a connection sent, by message id (whatsapp_sent_messages): a phone's resend request reads it. */

export async function readSentMessages(
  db: Db,
  companyId: number,
  whatsappId: number,
  ids: string[],
): Promise<{ keyId: string; value: unknown }[]> {
  return db
    .select({ keyId: whatsappSentMessages.messageId, value: whatsappSentMessages.value })
    .from(whatsappSentMessages)
    .where(
      and(
        eq(whatsappSentMessages.companyId, companyId),
        eq(whatsappSentMessages.whatsappId, whatsappId),
        inArray(whatsappSentMessages.messageId, ids),
      ),
    );
}

/** Keeps (or, with a null value, forgets) sent messages; a resend of one id replaces it. */
export async function writeSentMessages(
  db: Db,
  companyId: number,
  whatsappId: number,
  entries: { id: string; value: unknown }[],
): Promise<void> {
  const kept = entries.filter((e) => e.value !== null && e.value !== undefined);
  const gone = entries.filter((e) => e.value === null || e.value === undefined).map((e) => e.id);
  if (kept.length)
    await db
      .insert(whatsappSentMessages)
      .values(kept.map((e) => ({ companyId, whatsappId, messageId: e.id, value: e.value })))
      .onConflictDoUpdate({
        target: [whatsappSentMessages.whatsappId, whatsappSentMessages.messageId],
        set: { value: sql`excluded.value`, createdAt: sql`now()` },
      });
  if (gone.length)
    await db
      .delete(whatsappSentMessages)
      .where(
        and(
          eq(whatsappSentMessages.companyId, companyId),
          eq(whatsappSentMessages.whatsappId, whatsappId),
          inArray(whatsappSentMessages.messageId, gone),
        ),
      );
}

/** Forgets sent messages kept since before `before`, across connections (the deployment's housekeeping). */
export async function purgeSentMessages(db: Db, before: Date): Promise<void> {
  await db.delete(whatsappSentMessages).where(lt(whatsappSentMessages.createdAt, before));
}
