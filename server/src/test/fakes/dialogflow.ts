import crypto from "node:crypto";
import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from "jose";
import { type HttpFake, startHttpFake } from "./httpFake.js";

/**
 * A scriptable Dialogflow agent for conversations (google.ts is the fixed one the Test button's tests
 * use): a local stand-in for Google's OAuth token endpoint (`POST /token`, grant type jwt-bearer, the
 * assertion an RS256 JWT signed with the service account's key: verified here against its public
 * key, audience and issuer) and Dialogflow ES's `POST /v2/projects/{p}/agent/sessions/{s}:detectIntent`
 * (Bearer token from that endpoint; `queryInput.text` or `.event` → `queryResult`).
 */
export interface DialogflowFake extends HttpFake {
  /** The service account JSON an integration's jsonContent holds. */
  serviceAccount: string;
  detects(): {
    project: string;
    session: string;
    queryInput: Record<string, { text?: string; name?: string; languageCode: string }>;
  }[];
}

export async function startDialogflowFake(opts: {
  projectId: string;
  intent: (said: { text?: string; event?: string; languageCode: string }) => {
    texts: string[];
    end?: boolean;
  };
}): Promise<DialogflowFake> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const pem = await exportPKCS8(privateKey);
  const verifyKey = await importSPKI(await exportSPKI(publicKey), "RS256");
  const clientEmail = `bot@${opts.projectId}.iam.gserviceaccount.com`;
  const issued = new Set<string>();
  let tokenUrl = "";
  const fake = await startHttpFake(async (req) => {
    if (req.method === "POST" && req.path === "/token") {
      const form = new URLSearchParams(req.raw.toString("utf8"));
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
        return { status: 400, json: { error: "unsupported_grant_type" } };
      try {
        await jwtVerify(form.get("assertion") ?? "", verifyKey, { audience: tokenUrl, issuer: clientEmail });
      } catch {
        return { status: 400, json: { error: "invalid_grant", error_description: "Invalid JWT Signature." } };
      }
      const token = `ya29.${crypto.randomBytes(12).toString("hex")}`;
      issued.add(token);
      return { json: { access_token: token, expires_in: 3599, token_type: "Bearer" } };
    }
    const m = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(req.path);
    if (req.method === "POST" && m) {
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      if (!issued.has(token))
        return {
          status: 401,
          json: {
            error: {
              code: 401,
              message: "Request had invalid authentication credentials.",
              status: "UNAUTHENTICATED",
            },
          },
        };
      if (m[1] !== opts.projectId)
        return { status: 404, json: { error: { code: 404, message: "Not found", status: "NOT_FOUND" } } };
      const q = (
        req.json as {
          queryInput: {
            text?: { text: string; languageCode: string };
            event?: { name: string; languageCode: string };
          };
        }
      ).queryInput;
      const a = opts.intent({
        text: q.text?.text,
        event: q.event?.name,
        languageCode: q.text?.languageCode ?? q.event?.languageCode ?? "",
      });
      return {
        json: {
          responseId: crypto.randomUUID(),
          queryResult: {
            queryText: q.text?.text ?? "",
            languageCode: q.text?.languageCode ?? q.event?.languageCode,
            fulfillmentText: a.texts[0] ?? "",
            fulfillmentMessages: [{ text: { text: a.texts } }],
            intent: { displayName: "fake", endInteraction: a.end ?? false },
          },
        },
      };
    }
    return { status: 404, json: { error: { code: 404, message: "Not found", status: "NOT_FOUND" } } };
  });
  tokenUrl = `${fake.url}/token`;
  const serviceAccount = JSON.stringify({
    type: "service_account",
    project_id: opts.projectId,
    private_key_id: "fake",
    private_key: pem,
    client_email: clientEmail,
    token_uri: tokenUrl,
  });
  return Object.assign(fake, {
    serviceAccount,
    detects: () =>
      fake.requests
        .filter((r) => r.path.includes(":detectIntent") && r.json)
        .map((r) => {
          const mm = /projects\/([^/]+)\/agent\/sessions\/([^/:]+)/.exec(r.path)!;
          return {
            project: mm[1]!,
            session: mm[2]!,
            queryInput: (r.json as { queryInput: never }).queryInput,
          };
        }),
  });
}
