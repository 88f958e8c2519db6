import { and, eq, ne, notInArray, sql } from "drizzle-orm";
import type { Profile } from "@atende/contracts";
import { type Executor, queryRows } from "../../db/client.js";
import { pushSubscriptions } from "../../db/schema/index.js";

/** A device as the notifier reads it: its subscription and the user's visibility (profile, queues). */
export interface PushDevice {
  id: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
  profile: Profile;
  allTicket: boolean;
  queueIds: number[];
}

/**
 * This device (its endpoint) is the caller's, for their session: a new row, or the one the endpoint
 * already had (another session's, another user's on a shared computer) taken over with new keys.
 */
export async function saveSubscription(
  db: Executor,
  companyId: number,
  row: {
    userId: number;
    sessionId: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    language: string;
    at: Date;
  },
): Promise<void> {
  const values = {
    companyId,
    userId: row.userId,
    sessionId: row.sessionId,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    language: row.language,
    updatedAt: row.at,
  };
  await db
    .insert(pushSubscriptions)
    .values({ ...values, createdAt: row.at })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
}

/** Keeps the user's `keep` most recently registered devices; answers how many went. */
export async function trimDevices(db: Executor, companyId: number, userId: number, keep: number) {
  const newest = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.companyId, companyId), eq(pushSubscriptions.userId, userId)))
    .orderBy(sql`${pushSubscriptions.updatedAt} desc, ${pushSubscriptions.id} desc`)
    .limit(keep);
  const gone = await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.companyId, companyId),
        eq(pushSubscriptions.userId, userId),
        notInArray(pushSubscriptions.id, newest),
      ),
    )
    .returning({ id: pushSubscriptions.id });
  return gone.length;
}

/** Removes the caller's device with this endpoint (someone else's endpoint is not found). */
export async function deleteEndpoint(db: Executor, companyId: number, userId: number, endpoint: string) {
  await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.companyId, companyId),
        eq(pushSubscriptions.userId, userId),
        eq(pushSubscriptions.endpoint, endpoint),
      ),
    );
}

/** The user's devices whose session ended: all of them, or all but the one of `keepSessionId`. */
export async function deleteEndedSessions(
  db: Executor,
  companyId: number,
  userId: number,
  keepSessionId?: string,
) {
  await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.companyId, companyId),
        eq(pushSubscriptions.userId, userId),
        keepSessionId ? ne(pushSubscriptions.sessionId, keepSessionId) : undefined,
      ),
    );
}

/** The devices of one ended session. */
export async function deleteSession(db: Executor, companyId: number, sessionId: string) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.companyId, companyId), eq(pushSubscriptions.sessionId, sessionId)));
}

/** A device its push service says is gone (404, 410), or whose endpoint may not be called. */
export async function deleteDevice(db: Executor, companyId: number, id: number) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.companyId, companyId), eq(pushSubscriptions.id, id)));
}

/**
 * The company's devices whose session is still alive at `at` (a session that simply ran out, with no
 * logout to say so, hears nothing), each with what decides its user's visibility; `userIds` narrows
 * to those users.
 */
export async function companyDevices(
  db: Executor,
  companyId: number,
  at: Date,
  userIds?: number[],
): Promise<PushDevice[]> {
  if (userIds && userIds.length === 0) return [];
  const only = userIds
    ? sql` and s.user_id in (${sql.join(
        userIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const rows = await queryRows<
    Omit<PushDevice, "allTicket" | "queueIds"> & { all_ticket: string; queue_ids: number[] }
  >(
    db,
    sql`select s.id, s.user_id as "userId", s.endpoint, s.p256dh, s.auth, s.language, u.profile,
          u.all_ticket, array(select uq.queue_id from user_queues uq where uq.user_id = u.id) as queue_ids
        from push_subscriptions s
        join users u on u.id = s.user_id and u.company_id = s.company_id
        where s.company_id = ${companyId}${only}
          and exists (select 1 from refresh_tokens r
                      where r.user_id = s.user_id and r.session_id = s.session_id
                        and r.revoked_at is null and r.expires_at > ${at.toISOString()}::timestamptz)
        order by s.id`,
  );
  return rows.map(({ all_ticket, queue_ids, ...r }) => ({
    ...r,
    allTicket: all_ticket === "enabled",
    queueIds: (queue_ids ?? []).map(Number),
  }));
}
