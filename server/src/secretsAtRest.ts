import type { Executor } from "./db/client.js";
import type { SecretBox } from "./lib/secretBox.js";
import { sealClearSecretSettings } from "./modules/settings/sealing.js";
import { sealClearWebhookSecrets } from "./modules/webhooks/sealing.js";
import { hashLegacyTokens } from "./modules/whatsapps/tokens.js";

/**
 * The start-up step after the migrations (main.ts): a migration cannot seal, since the key is not
 * in the database, so this moves what rows still hold in clear into its at-rest form: webhook
 * signing secrets and secret settings (the Asaas key and webhook token...) sealed, connection
 * tokens hashed. Idempotent, and safe on several instances starting at once: a row is rewritten
 * only while it still holds the clear value it was read with. Answers how many of each it moved.
 */
export async function sealSecretsAtRest(
  db: Executor,
  box: SecretBox,
): Promise<{ connectionTokens: number; webhookSecrets: number; settings: number }> {
  return {
    connectionTokens: await hashLegacyTokens(db, box),
    webhookSecrets: await sealClearWebhookSecrets(db, box),
    settings: await sealClearSecretSettings(db, box),
  };
}
