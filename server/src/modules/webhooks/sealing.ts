import { type SecretBox, isSealed } from "../../lib/secretBox.js";
import type { Executor } from "../../db/client.js";
import { type WebhookRow, replaceClearSecret, subscriptionsWithClearSecret } from "./queries.js";

/** The AAD of the sealed signing secret (webhook_subscriptions.secret_enc). */
export const WEBHOOK_SECRET_PURPOSE = "webhook.secret";

export function sealWebhookSecret(box: SecretBox, secret: string): string {
  return box.seal(WEBHOOK_SECRET_PURPOSE, secret);
}

/**
 * The subscription's signing secret in clear; null when it no longer opens (sealed with another
 * SECRETS_KEY: the admin rotates it). A value stored before sealing, which the start-up step has
 * not reached yet (secretsAtRest.ts), is read as it is.
 */
export function openWebhookSecret(box: SecretBox, row: Pick<WebhookRow, "secretEnc">): string | null {
  if (!isSealed(row.secretEnc)) return row.secretEnc;
  return box.open(WEBHOOK_SECRET_PURPOSE, row.secretEnc);
}

/** The start-up step's part: seals every signing secret still in clear. Answers how many. */
export async function sealClearWebhookSecrets(db: Executor, box: SecretBox): Promise<number> {
  const rows = await subscriptionsWithClearSecret(db);
  for (const row of rows)
    await replaceClearSecret(db, row.companyId, row.id, row.secretEnc, sealWebhookSecret(box, row.secretEnc));
  return rows.length;
}
