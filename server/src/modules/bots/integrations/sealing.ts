import type { SecretBox } from "../../../lib/secretBox.js";
import type { IntegrationSecrets } from "./present.js";
import type { QueueIntegrationRow } from "./queries.js";

/** The AAD of each sealed column: a value copied into another column does not open. */
export const INTEGRATION_SECRET_PURPOSE = {
  jsonContent: "queueIntegration.jsonContent",
  authToken: "queueIntegration.authToken",
  signingSecret: "queueIntegration.signingSecret",
} as const;

const openOrNull = (box: SecretBox, purpose: string, sealed: string | null) =>
  sealed === null ? null : box.open(purpose, sealed);

/** An integration's secrets in plain text (for the bot runtime and the hints); null when none or unreadable. */
export function openIntegrationSecrets(box: SecretBox, row: QueueIntegrationRow): IntegrationSecrets {
  return {
    jsonContent: openOrNull(box, INTEGRATION_SECRET_PURPOSE.jsonContent, row.jsonContentEnc),
    authToken: openOrNull(box, INTEGRATION_SECRET_PURPOSE.authToken, row.authTokenEnc),
    signingSecret: openOrNull(box, INTEGRATION_SECRET_PURPOSE.signingSecret, row.signingSecretEnc),
  };
}
