import { and, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client.js";
import { queues, tickets, users } from "../db/schema/index.js";

/** The live channel's statements. */

/** Who a ticket of the company is for (its queue and agent), or null when the company has no such ticket. */
export async function ticketAudience(
  db: Db,
  companyId: number,
  ticketId: number,
): Promise<{ queueId: number | null; userId: number | null } | null> {
  const [ticket] = await db
    .select({ queueId: tickets.queueId, userId: tickets.userId })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
  return ticket ?? null;
}

export async function companyQueueIds(db: Db, companyId: number): Promise<number[]> {
  const rows = await db.select({ id: queues.id }).from(queues).where(eq(queues.companyId, companyId));
  return rows.map((r) => r.id);
}

/**
 * Users of every company still marked online but not seen since `olderThan`: the offline sweep is
 * the instance's, not a company's (it runs on a timer for all of them).
 */
export async function staleOnlineUsers(
  db: Db,
  olderThan: Date,
): Promise<{ id: number; companyId: number }[]> {
  const rows = await queryRows<{ id: number; company_id: number }>(
    db,
    sql`select id, company_id from users where online and (last_seen_at is null or last_seen_at < ${olderThan.toISOString()})`,
  );
  return rows.map((r) => ({ id: r.id, companyId: r.company_id }));
}

/** Answers whether the user was online (and now is not). */
export async function markOffline(db: Db, companyId: number, userId: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ online: false })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), eq(users.online, true)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * One company's presence batch in one statement: `online` users go online (those holding a live
 * session: a logout in between wins) and are stamped seen, `stamped` users are stamped seen.
 * Answers the `online` users that were offline before it.
 */
export async function stampPresence(
  db: Db,
  companyId: number,
  online: number[],
  stamped: number[],
  at: Date,
): Promise<number[]> {
  const all = [...online, ...stamped];
  if (all.length === 0) return [];
  const list = (ids: number[]) =>
    sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
  // Only a user with a live session comes online: a logout revokes every session of the user and
  // writes them offline, and an online mark batched just before it must not undo that.
  const goesOnline = online.length
    ? sql`(old.id in (${list(online)}) and exists (
        select 1 from refresh_tokens r
        where r.user_id = old.id and r.company_id = ${companyId}
          and r.revoked_at is null and r.expires_at > ${at.toISOString()}))`
    : sql`false`;
  const rows = await queryRows<{ id: number; was_online: boolean; online: boolean }>(
    db,
    sql`
    update users u set online = (u.online or ${goesOnline}), last_seen_at = ${at.toISOString()}
    from (select id, online as was_online from users where company_id = ${companyId} and id in (${list(all)})) old
    where u.id = old.id and u.company_id = ${companyId}
    returning u.id, old.was_online, u.online`,
  );
  return rows.filter((r) => r.online && !r.was_online).map((r) => r.id);
}
