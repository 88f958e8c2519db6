import { and, asc, count, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import type { QueueDTO, UserDTO } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { PreparedSql } from "../../db/prepared.js";
import { queues, userQueues, users } from "../../db/schema/index.js";
import { queueOrder } from "../queues/queries.js";
import { type UserRow, presentUser } from "./present.js";

/** Every helper takes the caller's companyId first: a row of another company is simply not found. */

async function queuesByUser(
  db: Executor,
  companyId: number,
  userIds: number[],
): Promise<Map<number, QueueDTO[]>> {
  const map = new Map<number, QueueDTO[]>();
  if (userIds.length === 0) return map;
  const rows = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(and(eq(userQueues.companyId, companyId), inArray(userQueues.userId, userIds)))
    .orderBy(...queueOrder());
  for (const { userId, ...q } of rows) {
    const list = map.get(userId) ?? [];
    list.push(q);
    map.set(userId, list);
  }
  return map;
}

async function withQueues(db: Executor, companyId: number, rows: UserRow[]): Promise<UserDTO[]> {
  const byUser = await queuesByUser(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentUser(r, byUser.get(r.id) ?? []));
}

export async function findUserRow(db: Executor, companyId: number, userId: number): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return row ?? null;
}

const viewerScopeStatement = new PreparedSql<
  { companyId: number; userId: number },
  { all_ticket: string; queue_ids: number[] }
>(
  "viewer_scope",
  sql`select u.all_ticket,
        array(select uq.queue_id from user_queues uq where uq.user_id = u.id order by uq.queue_id) as queue_ids
      from users u
      where u.company_id = ${sql.placeholder("companyId")}::int and u.id = ${sql.placeholder("userId")}::int`,
);

/**
 * What decides which tickets a user sees (their queues and the "all tickets" switch), in one
 * statement: read on every ticket list and conversation page. Null for a user of another company
 * or gone.
 */
export async function viewerScopeOf(
  db: Executor,
  companyId: number,
  userId: number,
): Promise<{ queueIds: number[]; allTicket: boolean } | null> {
  const [row] = await viewerScopeStatement.rows(db, { companyId, userId });
  return row ? { queueIds: row.queue_ids, allTicket: row.all_ticket === "enabled" } : null;
}

export async function findUser(db: Executor, companyId: number, userId: number): Promise<UserDTO | null> {
  const row = await findUserRow(db, companyId, userId);
  return row ? ((await withQueues(db, companyId, [row]))[0] ?? null) : null;
}

/** Several users of the company (those of another company or gone are left out), with their queues. */
export async function findUsers(db: Executor, companyId: number, userIds: number[]): Promise<UserDTO[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, userIds)));
  return withQueues(db, companyId, rows);
}

/** Login looks a user up by email across companies: the only query not scoped by companyId. */
export async function findUserForLogin(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

/** Across companies too: an email is unique in the deployment, since login finds a user by it alone. */
export async function emailTaken(db: Executor, email: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? and(eq(users.email, email), ne(users.id, exceptUserId)) : eq(users.email, email));
  return Boolean(row);
}

export async function pageUsers(
  db: Executor,
  companyId: number,
  opts: { searchParam: string; pageNumber: number; pageSize: number },
) {
  const term = `%${opts.searchParam.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = opts.searchParam
    ? and(eq(users.companyId, companyId), or(ilike(users.name, term), ilike(users.email, term)))
    : eq(users.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(opts.pageSize)
    .offset((opts.pageNumber - 1) * opts.pageSize);
  const n = total?.n ?? 0;
  return {
    users: await withQueues(db, companyId, rows),
    count: n,
    hasMore: opts.pageNumber * opts.pageSize < n,
  };
}

export async function listUsers(db: Executor, companyId: number): Promise<UserDTO[]> {
  const rows = await db.select().from(users).where(eq(users.companyId, companyId)).orderBy(asc(users.name));
  return withQueues(db, companyId, rows);
}

export async function countUsers(db: Executor, companyId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.companyId, companyId));
  return row?.n ?? 0;
}

export async function countAdmins(db: Executor, companyId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, "admin")));
  return row?.n ?? 0;
}

/** Keeps only the queue ids that belong to the company. */
export async function setUserQueues(db: Executor, companyId: number, userId: number, queueIds: number[]) {
  await db.delete(userQueues).where(and(eq(userQueues.companyId, companyId), eq(userQueues.userId, userId)));
  if (queueIds.length > 0) {
    await db.insert(userQueues).values(queueIds.map((queueId) => ({ userId, queueId, companyId })));
  }
}

/** Marks a user seen now; answers true when this turned them online. */
export async function markSeen(db: Executor, companyId: number, userId: number, now: Date): Promise<boolean> {
  const rows = await queryRows<{ was_online: boolean }>(
    db,
    sql`
    update users u set online = true, last_seen_at = ${now.toISOString()}
    from (select id, online as was_online from users where id = ${userId} and company_id = ${companyId}) old
    where u.id = old.id
    returning old.was_online`,
  );
  const row = rows[0];
  return row ? !row.was_online : false;
}

export async function insertUser(
  tx: Executor,
  companyId: number,
  values: Omit<typeof users.$inferInsert, "companyId">,
): Promise<UserRow | undefined> {
  const [row] = await tx
    .insert(users)
    .values({ ...values, companyId })
    .returning();
  return row;
}

export async function updateUser(
  tx: Executor,
  companyId: number,
  userId: number,
  patch: Partial<typeof users.$inferInsert>,
): Promise<void> {
  await tx
    .update(users)
    .set(patch)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
}

export async function deleteUser(tx: Executor, companyId: number, userId: number): Promise<void> {
  await tx.delete(users).where(and(eq(users.companyId, companyId), eq(users.id, userId)));
}
