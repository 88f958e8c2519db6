import { type QueueIntegrationDTO, secretHint } from "@atende/contracts";
import type { QueueIntegrationRow } from "./queries.js";

/** The plain secrets of an integration, opened from their sealed columns (see sealing.ts). */
export interface IntegrationSecrets {
  jsonContent: string | null;
  authToken: string | null;
  signingSecret: string | null;
}

/** What a stored service account is shown as: its e-mail, never its private key. */
function serviceAccountHint(json: string | null): string | null {
  if (!json) return null;
  try {
    const email = (JSON.parse(json) as { client_email?: unknown }).client_email;
    return typeof email === "string" && email ? email : "****";
  } catch {
    return "****";
  }
}

/** The one shape of an integration, for HTTP answers and the `company-{id}-queueIntegration` event. */
export function presentIntegration(
  row: QueueIntegrationRow,
  secrets: IntegrationSecrets,
): QueueIntegrationDTO {
  return {
    id: row.id,
    companyId: row.companyId,
    type: row.type,
    name: row.name,
    projectName: row.projectName,
    jsonContent: "",
    jsonContentHint: serviceAccountHint(secrets.jsonContent),
    language: row.language,
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotUnknownMessage: row.typebotUnknownMessage,
    typebotRestartMessage: row.typebotRestartMessage,
    authTokenHint: secretHint(secrets.authToken),
    signingSecretHint: secretHint(secrets.signingSecret),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
