import crypto from "node:crypto";
import { SignJWT, importPKCS8 } from "jose";
import type { Config } from "../../../config.js";
import { AppError } from "../../../http/errors.js";
import type { Outbound, OutboundInit } from "../../../lib/outbound.js";

/**
 * Dialogflow ES over REST: an OAuth access token from Google's token endpoint (a JWT signed with the
 * service account's private key, RFC 7523), then `detectIntent` on a session. Both base URLs come
 * from config (GOOGLE_TOKEN_URL, DIALOGFLOW_API_URL), never from the stored JSON, so an
 * integration cannot make the server call an address of its choosing. Used by the dialog's Test
 * button and by the bot runtime.
 */

export interface ServiceAccount {
  client_email: string;
  private_key: string;
  project_id?: string;
}

export interface DetectIntentResult {
  fulfillmentText: string;
  /** Every text of the fulfillment messages (Dialogflow may answer several). */
  texts: string[];
  intent: string;
  /** The intent ends the conversation. */
  endInteraction: boolean;
  parameters: Record<string, unknown>;
}

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const TIMEOUT_MS = 10_000;

/** The service-account JSON, or ERR_DIALOGFLOW_JSON_INVALID. */
export function parseServiceAccount(json: string): ServiceAccount {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new AppError("ERR_DIALOGFLOW_JSON_INVALID");
  }
  const a = parsed as Partial<ServiceAccount> | null;
  if (!a || typeof a.client_email !== "string" || typeof a.private_key !== "string")
    throw new AppError("ERR_DIALOGFLOW_JSON_INVALID");
  if (!a.private_key.includes("PRIVATE KEY")) throw new AppError("ERR_DIALOGFLOW_JSON_INVALID");
  return { client_email: a.client_email, private_key: a.private_key, project_id: a.project_id };
}

/** Google's error text from an answer body (`{error: {message}}` or `{error_description}`). */
function googleError(status: number, body: unknown): string {
  const b = body as { error?: { message?: string } | string; error_description?: string } | null;
  if (b && typeof b.error === "object" && b.error?.message) return b.error.message;
  if (b?.error_description) return b.error_description;
  if (b && typeof b.error === "string") return b.error;
  return `HTTP ${status}`;
}

/** Both bases are the operator's (config), trusted by origin; answers are read within 1 MiB. */
async function postJson(
  outbound: Outbound,
  url: string,
  trustedBase: string,
  init: Pick<OutboundInit, "method" | "headers" | "body">,
): Promise<{ status: number; body: unknown }> {
  const res = await outbound.fetch(url, { ...init, timeoutMs: TIMEOUT_MS, trustedBase });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

/** A Dialogflow failure a user can act on: the reason from Google (or the network), as `detail`. */
export class DialogflowError extends Error {}

/** `outbound`: the app's one guarded client. */
export function dialogflowClient(
  config: Pick<Config, "GOOGLE_TOKEN_URL" | "DIALOGFLOW_API_URL">,
  outbound: Outbound,
) {
  async function accessToken(account: ServiceAccount): Promise<string> {
    let key: Awaited<ReturnType<typeof importPKCS8>>;
    try {
      key = await importPKCS8(account.private_key, "RS256");
    } catch {
      throw new AppError("ERR_DIALOGFLOW_JSON_INVALID");
    }
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(account.client_email)
      .setAudience(config.GOOGLE_TOKEN_URL)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    const { status, body } = await postJson(outbound, config.GOOGLE_TOKEN_URL, config.GOOGLE_TOKEN_URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
    });
    const token = (body as { access_token?: unknown } | null)?.access_token;
    if (status !== 200 || typeof token !== "string") throw new DialogflowError(googleError(status, body));
    return token;
  }

  return {
    /** One turn: `text` said in `sessionId` of project `projectId`, in `language`. */
    async detectIntent(
      account: ServiceAccount,
      projectId: string,
      sessionId: string,
      text: string,
      language: string,
    ): Promise<DetectIntentResult> {
      try {
        const token = await accessToken(account);
        const url =
          `${config.DIALOGFLOW_API_URL}/v2/projects/${encodeURIComponent(projectId)}` +
          `/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`;
        const { status, body } = await postJson(outbound, url, config.DIALOGFLOW_API_URL, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ queryInput: { text: { text, languageCode: language } } }),
        });
        if (status !== 200) throw new DialogflowError(googleError(status, body));
        const r = (body as { queryResult?: Record<string, unknown> } | null)?.queryResult ?? {};
        const messages = (r.fulfillmentMessages as { text?: { text?: string[] } }[] | undefined) ?? [];
        const texts = messages.flatMap((m) => m.text?.text ?? []).filter((t) => t.trim() !== "");
        const fulfillmentText = typeof r.fulfillmentText === "string" ? r.fulfillmentText : (texts[0] ?? "");
        const intent = r.intent as { displayName?: string; endInteraction?: boolean } | undefined;
        return {
          fulfillmentText,
          texts: texts.length ? texts : fulfillmentText ? [fulfillmentText] : [],
          intent: intent?.displayName ?? "",
          endInteraction: intent?.endInteraction === true,
          parameters: (r.parameters as Record<string, unknown> | undefined) ?? {},
        };
      } catch (err) {
        if (err instanceof AppError || err instanceof DialogflowError) throw err;
        throw new DialogflowError(
          (err as Error).name === "TimeoutError" ? "timeout" : (err as Error).message,
        );
      }
    },
  };
}
export type DialogflowClient = ReturnType<typeof dialogflowClient>;

/** A fresh session id for a test call. */
export const testSessionId = () => `atende-test-${crypto.randomUUID()}`;
