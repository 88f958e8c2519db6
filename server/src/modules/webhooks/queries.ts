import { and, desc, eq, notLike, sql } from "drizzle-orm";
import { SEALED_PREFIX } from "../../lib/secretBox.js";
import type { Executor } from "../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../db/prepared.js";
import { users, webhookDeliveries, webhookSubscriptions } from "../../db/schema/index.js";

export type WebhookRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function listSubscriptions(db: Executor, companyId: number): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.companyId, companyId))
    .orderBy(webhookSubscriptions.id);
}

/** The company's switched-on subscriptions (the dispatcher's read on every event transaction). */
export async function activeSubscriptions(db: Executor, companyId: number) {
  return db
    .select({ id: webhookSubscriptions.id, events: webhookSubscriptions.events })
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.active, true)));
}

export async function findSubscription(
  db: Executor,
  companyId: number,
  id: number,
): Promise<WebhookRow | null> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)));
  return row ?? null;
}

export async function insertSubscription(
  db: Executor,
  companyId: number,
  values: Omit<typeof webhookSubscriptions.$inferInsert, "companyId">,
): Promise<WebhookRow> {
  const [row] = await db
    .insert(webhookSubscriptions)
    .values({ ...values, companyId })
    .returning();
  return row!;
}

export async function updateSubscription(
  db: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof webhookSubscriptions.$inferInsert>,
): Promise<WebhookRow | null> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set(patch)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteSubscription(db: Executor, companyId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
    .returning({ id: webhookSubscriptions.id });
  return rows.length === 1;
}

export async function insertDeliveries(
  db: Executor,
  rows: Omit<typeof webhookDeliveries.$inferInsert, "id">[],
): Promise<{ id: number; subscriptionId: number }[]> {
  if (rows.length === 0) return [];
  return db
    .insert(webhookDeliveries)
    .values(rows)
    .returning({ id: webhookDeliveries.id, subscriptionId: webhookDeliveries.subscriptionId });
}

export async function findDelivery(db: Executor, companyId: number, id: number): Promise<DeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
  return row ?? null;
}

/**
 * A delivery with its subscription, for the delivery job: one prepared statement instead of two
 * built ones, as it runs for every event of every subscribed company (each customer's message).
 */
const deliveryToSendStatement = new PreparedSql<
  { companyId: number; id: number },
  Record<string, unknown> & { subscription: Record<string, unknown> | null }
>(
  "webhook_delivery_to_send",
  sql`select ${columnList(webhookDeliveries, "d")}, row_to_json(s) as subscription
      from webhook_deliveries d
      left join webhook_subscriptions s on s.id = d.subscription_id and s.company_id = d.company_id
      where d.company_id = ${sql.placeholder("companyId")}::int and d.id = ${sql.placeholder("id")}::bigint`,
);

export async function findDeliveryToSend(
  db: Executor,
  companyId: number,
  id: number,
): Promise<{ delivery: DeliveryRow; subscription: WebhookRow | null } | null> {
  const [raw] = await deliveryToSendStatement.rows(db, { companyId, id });
  if (!raw) return null;
  const { subscription, ...delivery } = raw;
  return {
    delivery: tableRow(webhookDeliveries, delivery),
    subscription: subscription ? tableRow(webhookSubscriptions, subscription) : null,
  };
}

/** An attempt's outcome: counted, and, when it went through, the delivery delivered. Prepared, as above. */
const attemptStatement = new PreparedSql<{
  companyId: number;
  id: number;
  at: string;
  responseCode: number | null;
  lastError: string | null;
  delivered: boolean;
}>(
  "webhook_delivery_attempt",
  sql`update webhook_deliveries set attempts = attempts + 1,
        last_attempt_at = ${sql.placeholder("at")}::timestamptz,
        response_code = ${sql.placeholder("responseCode")}::int,
        last_error = ${sql.placeholder("lastError")}::text,
        status = case when ${sql.placeholder("delivered")}::boolean then 'delivered' else status end,
        delivered_at = case when ${sql.placeholder("delivered")}::boolean
                            then ${sql.placeholder("at")}::timestamptz else delivered_at end
      where company_id = ${sql.placeholder("companyId")}::int and id = ${sql.placeholder("id")}::bigint`,
);

export async function recordAttempt(
  db: Executor,
  companyId: number,
  id: number,
  attempt: { at: Date; responseCode: number | null; lastError: string | null },
): Promise<void> {
  await attemptStatement.rows(db, {
    companyId,
    id,
    at: attempt.at.toISOString(),
    responseCode: attempt.responseCode,
    lastError: attempt.lastError,
    delivered: attempt.lastError === null,
  });
}

export async function updateDelivery(
  db: Executor,
  companyId: number,
  id: number,
  patch: Partial<typeof webhookDeliveries.$inferInsert>,
) {
  await db
    .update(webhookDeliveries)
    .set(patch)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
}

/** The subscription's newest deliveries first. */
export async function recentDeliveries(db: Executor, companyId: number, subscriptionId: number, limit = 50) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.subscriptionId, subscriptionId)),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
}

/** A failed attempt: the subscription is failing since the first failure after its last success. */
export async function markFailing(
  db: Executor,
  companyId: number,
  id: number,
  at: Date,
): Promise<WebhookRow | null> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({
      failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(webhookSubscriptions.companyId, companyId), eq(webhookSubscriptions.id, id)))
    .returning();
  return row ?? null;
}

export async function adminEmails(db: Executor, companyId: number): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.profile, "admin")));
  return rows.map((r) => r.email);
}

/**
 * Subscriptions whose signing secret is still in clear (from before migration 0031), across
 * companies: the start-up step seals them (secretsAtRest.ts).
 */
export async function subscriptionsWithClearSecret(db: Executor) {
  return db
    .select({
      id: webhookSubscriptions.id,
      companyId: webhookSubscriptions.companyId,
      secretEnc: webhookSubscriptions.secretEnc,
    })
    .from(webhookSubscriptions)
    .where(notLike(webhookSubscriptions.secretEnc, `${SEALED_PREFIX}%`));
}

/** Stores the sealed secret, if the row still holds the clear one it was made from. */
export async function replaceClearSecret(
  db: Executor,
  companyId: number,
  id: number,
  clear: string,
  sealed: string,
) {
  await db
    .update(webhookSubscriptions)
    .set({ secretEnc: sealed })
    .where(
      and(
        eq(webhookSubscriptions.companyId, companyId),
        eq(webhookSubscriptions.id, id),
        eq(webhookSubscriptions.secretEnc, clear),
      ),
    );
}
