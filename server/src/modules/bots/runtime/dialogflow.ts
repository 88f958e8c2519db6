import crypto from "node:crypto";
import { SignJWT, importPKCS8 } from "jose";
import { type BotAdapter, BotError, type BotOutcome, type BotReply } from "./contract.js";
import { CALL_MAX_MS, type Outbound } from "../../../lib/outbound.js";
import { postJson } from "./http.js";
import type { IntegrationConfig } from "./bindings.js";

export interface GoogleEndpoints {
  /** Google's OAuth token endpoint (a service account's `token_uri` is not trusted: it is data). */
  tokenUrl: string;
  /** Dialogflow's REST host: https://dialogflow.googleapis.com (the ES API's /v2 is added here). */
  apiUrl: string;
}

interface ServiceAccount {
  client_email: string;
  private_key: string;
  project_id?: string;
}

function serviceAccountOf(config: IntegrationConfig): ServiceAccount {
  let parsed: Partial<ServiceAccount>;
  try {
    parsed = JSON.parse(config.jsonContent) as Partial<ServiceAccount>;
  } catch {
    throw new BotError("the Dialogflow service account is not JSON");
  }
  if (!parsed.client_email || !parsed.private_key)
    throw new BotError("the Dialogflow service account has no client_email or private_key");
  return parsed as ServiceAccount;
}

/** Access tokens per service account and token endpoint, kept until a minute before they expire. */
const tokens = new Map<string, { token: string; until: number }>();

async function accessToken(
  outbound: Outbound,
  endpoints: GoogleEndpoints,
  account: ServiceAccount,
  signal: AbortSignal,
) {
  const key = `${endpoints.tokenUrl}|${account.client_email}|${crypto.createHash("sha256").update(account.private_key).digest("hex")}`;
  const cached = tokens.get(key);
  if (cached && cached.until > Date.now()) return cached.token;
  let privateKey: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    privateKey = await importPKCS8(account.private_key, "RS256");
  } catch {
    throw new BotError("the Dialogflow service account's private_key is not a PKCS#8 RSA key");
  }
  const assertion = await new SignJWT({ scope: "https://www.googleapis.com/auth/cloud-platform" })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(account.client_email)
    .setSubject(account.client_email)
    .setAudience(endpoints.tokenUrl)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(privateKey);
  const res = await outbound.fetch(endpoints.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
    signal,
    timeoutMs: CALL_MAX_MS, // the turn's signal is the deadline
    trustedBase: endpoints.tokenUrl,
  });
  const answer = (await res.json().catch(() => ({}))) as {
    access_token?: string;
    expires_in?: number;
    error_description?: string;
    error?: string;
  };
  if (!res.ok || !answer.access_token)
    throw new BotError(`Google refused the token: ${answer.error_description ?? answer.error ?? res.status}`);
  tokens.set(key, {
    token: answer.access_token,
    until: Date.now() + ((answer.expires_in ?? 3600) - 60) * 1000,
  });
  return answer.access_token;
}

interface DetectIntentAnswer {
  queryResult?: {
    fulfillmentText?: string;
    fulfillmentMessages?: { text?: { text?: string[] } }[];
    intent?: { displayName?: string; endInteraction?: boolean };
    diagnosticInfo?: { end_conversation?: boolean };
  };
}

/** One detectIntent call: the session's words in the integration's language. */
export async function detectIntent(
  outbound: Outbound,
  endpoints: GoogleEndpoints,
  config: IntegrationConfig,
  session: string,
  query: { text: string } | { event: string },
  signal: AbortSignal,
): Promise<DetectIntentAnswer> {
  const account = serviceAccountOf(config);
  const project = account.project_id || config.projectName;
  if (!project) throw new BotError("the Dialogflow integration has no project");
  const token = await accessToken(outbound, endpoints, account, signal);
  const languageCode = config.language || "pt-BR";
  const queryInput =
    "text" in query
      ? { text: { text: query.text.slice(0, 256), languageCode } }
      : { event: { name: query.event, languageCode } };
  return postJson<DetectIntentAnswer>(
    outbound,
    `${endpoints.apiUrl.replace(/\/+$/, "")}/v2/projects/${encodeURIComponent(project)}/agent/sessions/${encodeURIComponent(session)}:detectIntent`,
    { queryInput },
    { signal, headers: { authorization: `Bearer ${token}` }, trustedBase: endpoints.apiUrl },
  );
}

/**
 * Dialogflow ES over REST: an OAuth token signed (RS256 JWT) from the service account in
 * `jsonContent`, then detectIntent per turn (the WELCOME event when the session starts without
 * words). Fulfillment texts are the replies; an intent that ends the interaction ends the bot.
 */
export function dialogflowAdapter(endpointsOf: () => GoogleEndpoints): BotAdapter<IntegrationConfig> {
  return {
    takesMedia: false,
    async turn(config, input, ctx): Promise<BotOutcome> {
      const endpoints = endpointsOf();
      const session = ctx.externalId ?? `atende-${ctx.ticket.id}-${crypto.randomBytes(6).toString("hex")}`;
      const answer = await detectIntent(
        ctx.outbound,
        endpoints,
        config,
        session,
        input.text.trim() ? { text: input.text } : { event: "WELCOME" },
        ctx.signal,
      );
      const result = answer.queryResult ?? {};
      const texts = (result.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []);
      const replies: BotReply[] = (texts.length ? texts : [result.fulfillmentText ?? ""])
        .filter((t) => t.trim())
        .map((text) => ({ type: "text", text }));
      const ended = result.intent?.endInteraction || result.diagnosticInfo?.end_conversation;
      return { replies, externalId: session, action: ended ? { type: "end" } : undefined };
    },
  };
}
