import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { importSPKI, jwtVerify } from "jose";

/**
 * A local stand-in for Google's OAuth token endpoint (the JWT-bearer grant of a service account,
 * RFC 7523) and Dialogflow ES's `detectIntent` REST call, on 127.0.0.1 with a random port. The
 * token endpoint checks the assertion's RS256 signature against the service account it knows, its
 * audience and lifetime; detectIntent checks the bearer token and the project, and answers
 * Dialogflow's documented shapes (errors included: `{error: {code, message, status}}`).
 */

export interface FakeServiceAccount {
  /** The JSON a Dialogflow integration stores. */
  json: string;
  clientEmail: string;
  projectId: string;
}

export interface RecordedGoogleRequest {
  path: string;
  authorization?: string;
  form?: Record<string, string>;
  json?: unknown;
}

/** A service account with a fresh RSA key, as Google's console downloads it. */
export function makeServiceAccount(projectId = "atende-test"): FakeServiceAccount & { publicKey: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = `bot@${projectId}.iam.gserviceaccount.com`;
  const json = JSON.stringify({
    type: "service_account",
    project_id: projectId,
    private_key_id: crypto.randomBytes(8).toString("hex"),
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: clientEmail,
    token_uri: "https://oauth2.googleapis.com/token",
  });
  return {
    json,
    clientEmail,
    projectId,
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

export interface FakeGoogle {
  url: string;
  requests: RecordedGoogleRequest[];
  /** Registers a service account the token endpoint accepts. */
  allow(account: ReturnType<typeof makeServiceAccount>): void;
  /** What the agent answers (default "Olá! Como posso ajudar?"). */
  reply: { text: string; intent: string };
  close(): Promise<void>;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const requests: RecordedGoogleRequest[] = [];
  const accounts = new Map<string, { publicKey: string; projectId: string }>();
  /** access token → project it may call. */
  const tokens = new Map<string, string>();
  const reply = { text: "Olá! Como posso ajudar?", intent: "Default Welcome Intent" };
  let url = "";

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const googleError = (res: http.ServerResponse, code: number, status: string, message: string) =>
    send(res, code, { error: { code, message, status } });

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += String(c)));
    req.on("end", () => {
      void (async () => {
        const path = (req.url ?? "").split("?")[0]!;
        const rec: RecordedGoogleRequest = { path, authorization: req.headers.authorization };
        requests.push(rec);
        if (req.method === "POST" && path === "/token") {
          const form = Object.fromEntries(new URLSearchParams(raw));
          rec.form = form;
          if (form.grant_type !== "urn:ietf:params:oauth:grant-type:jwt-bearer" || !form.assertion)
            return send(res, 400, {
              error: "unsupported_grant_type",
              error_description: "Invalid grant_type",
            });
          const iss = JSON.parse(
            Buffer.from(form.assertion.split(".")[1] ?? "", "base64url").toString() || "{}",
          ).iss as string | undefined;
          const account = iss ? accounts.get(iss) : undefined;
          if (!account)
            return send(res, 400, {
              error: "invalid_grant",
              error_description: "Invalid grant: account not found",
            });
          try {
            await jwtVerify(form.assertion, await importSPKI(account.publicKey, "RS256"), {
              issuer: iss,
              audience: `${url}/token`,
            });
          } catch {
            return send(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
          }
          const token = `ya29.${crypto.randomBytes(16).toString("hex")}`;
          tokens.set(token, account.projectId);
          return send(res, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
        }
        const m = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec(path);
        if (req.method === "POST" && m) {
          const project = decodeURIComponent(m[1]!);
          const json = JSON.parse(raw || "{}") as {
            queryInput?: { text?: { text?: string; languageCode?: string } };
          };
          rec.json = json;
          const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
          if (!tokens.has(token))
            return googleError(
              res,
              401,
              "UNAUTHENTICATED",
              "Request had invalid authentication credentials.",
            );
          if (tokens.get(token) !== project)
            return googleError(
              res,
              403,
              "PERMISSION_DENIED",
              `IAM permission 'dialogflow.sessions.detectIntent' on 'projects/${project}/agent' denied.`,
            );
          const text = json.queryInput?.text;
          if (!text?.text || !text.languageCode)
            return googleError(res, 400, "INVALID_ARGUMENT", "Resource name or query input is missing.");
          return send(res, 200, {
            responseId: crypto.randomUUID(),
            queryResult: {
              queryText: text.text,
              languageCode: text.languageCode,
              fulfillmentText: reply.text,
              fulfillmentMessages: [{ text: { text: [reply.text] } }],
              intent: { name: `projects/${project}/agent/intents/1`, displayName: reply.intent },
              intentDetectionConfidence: 1,
            },
          });
        }
        googleError(res, 404, "NOT_FOUND", "Not found");
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    reply,
    allow(account) {
      accounts.set(account.clientEmail, { publicKey: account.publicKey, projectId: account.projectId });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
