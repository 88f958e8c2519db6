import crypto from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import type { whatsapps } from "../../db/schema/index.js";
import { z } from "zod";
import { sendError } from "../../http/errors.js";
import type { RouteDeclaration } from "../../http/route.js";
import { type JobHandler, type JobRunner, enqueueJob } from "../../jobs/runner.js";
import { type EventBus, inTransaction } from "../../events/bus.js";
import { presentContact } from "../contacts/present.js";
import type { Inbound } from "../../channels/sink.js";
import type { SessionManager } from "../../channels/sessions.js";
import { ChannelError, connectionInfoOf } from "../../channels/provider.js";
import type { GraphClient } from "../../channels/cloud/graph.js";
import { type CloudIdentityChange, mapCloudWebhook } from "../../channels/cloud/mapping.js";
import { cloudCredentialsOf } from "../../channels/cloud/provider.js";
import { mapCloudAccountEvents } from "../../channels/cloud/accountEvents.js";
import { applyAccountEvents } from "./cloudAccount.js";
import {
  cloudConnectionsOfApp,
  contactHolding,
  findCloudConnectionRow,
  findCloudContact,
  settleUnknownSend,
  updateCloudContact,
} from "../../channels/cloud/queries.js";

/**
 * Meta's webhook for a Cloud API connection. Verification (GET) answers the challenge when the
 * verify token matches. Notifications (POST) are checked against X-Hub-Signature-256 on the raw
 * body, stored as a durable job and acknowledged at once; the job hands the mapped events to the
 * inbound pipeline, in order, one webhook of a connection at a time.
 */

export const CLOUD_WEBHOOK_JOB = "cloud-webhook";

type WhatsappRow = typeof whatsapps.$inferSelect;

export interface CloudWebhookDeps {
  db: Db;
  inbound: Inbound;
  jobs: Pick<JobRunner, "poke">;
  now: () => Date;
}

interface WebhookParams {
  whatsappId: string;
}

/** Meta calls these without a session: the verify token and the body's signature are the checks. */
const webhookRoute = {
  access: "public",
  errors: ["ERR_NO_WAPP_FOUND", "ERR_NO_PERMISSION"],
  params: z.object({ whatsappId: z.string() }),
  query: z
    .object({ "hub.mode": z.string(), "hub.verify_token": z.string(), "hub.challenge": z.string() })
    .partial(),
  produces: "text/plain",
  operationId: "webhooks.cloudVerify",
  summary: "Meta's check of a WhatsApp Cloud API connection's webhook (answers hub.challenge)",
} satisfies RouteDeclaration;
const notificationRoute = {
  access: "public",
  errors: ["ERR_NO_WAPP_FOUND", "ERR_WEBHOOK_SIGNATURE"],
  params: webhookRoute.params,
  bodyDoc: z.object({ object: z.string(), entry: z.array(z.unknown()) }),
  // 200 with an empty body, as Meta asks: it retries anything else.
  produces: "text/plain",
  operationId: "webhooks.cloudReceive",
  summary:
    "Meta's signed notifications for a WhatsApp Cloud API connection (messages, statuses, account and template changes)",
  description: "Answers 200 with an empty body once the notification is stored for processing.",
} satisfies RouteDeclaration;

export async function cloudWebhookRoutes(app: FastifyInstance, deps: CloudWebhookDeps): Promise<void> {
  app.get<{ Params: WebhookParams; Querystring: Record<string, string | string[] | undefined> }>(
    "/webhooks/cloud/:whatsappId",
    { config: { route: webhookRoute } },
    async (req, reply) => {
      const connection = await findCloudConnection(deps.db, req.params.whatsappId);
      if (!connection) return sendError(reply, req, "ERR_NO_WAPP_FOUND");
      const mode = firstValue(req.query["hub.mode"]);
      const token = firstValue(req.query["hub.verify_token"]);
      const expected = connection.providerConfig.verifyToken;
      if (mode !== "subscribe" || !expected || token === undefined || !constantTimeEqual(token, expected)) {
        return sendError(reply, req, "ERR_NO_PERMISSION");
      }
      return reply.type("text/plain").send(firstValue(req.query["hub.challenge"]) ?? "");
    },
  );

  // The signature covers the exact bytes Meta sent: this scope keeps JSON bodies raw; the rest of
  // the app keeps its own parser.
  await app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: WebhookParams; Body: unknown }>(
      "/webhooks/cloud/:whatsappId",
      { config: { route: notificationRoute } },
      async (req, reply) => {
        const connection = await findCloudConnection(deps.db, req.params.whatsappId);
        if (!connection) return sendError(reply, req, "ERR_NO_WAPP_FOUND");
        const rawBody = req.body;
        const signature = firstValue(req.headers["x-hub-signature-256"]);
        const appSecret = connection.providerConfig.appSecret;
        if (
          !Buffer.isBuffer(rawBody) ||
          !signature ||
          !appSecret ||
          !isSignedBy(appSecret, rawBody, signature)
        ) {
          return sendError(reply, req, "ERR_WEBHOOK_SIGNATURE");
        }
        let body: unknown;
        try {
          body = JSON.parse(rawBody.toString("utf8"));
        } catch {
          return sendError(reply, req, "ERR_VALIDATION");
        }
        await enqueueJob(deps.db, {
          type: CLOUD_WEBHOOK_JOB,
          companyId: connection.companyId,
          payload: { whatsappId: connection.id, body },
          orderKey: `cloud:${connection.id}`,
          runAt: deps.now(),
        });
        deps.jobs.poke();
        return reply.status(200).send();
      },
    );
  });
}

/**
 * The job that delivers one stored webhook. Meta posts every number of a Meta app to one callback
 * URL: each change goes to the connection holding its `metadata.phone_number_id` among the app's
 * connections (cloudConnectionsOfApp), the receiving one first; an id no connection has is logged,
 * never dropped silently. The account's own changes (account_update, template statuses) are handed
 * to cloudAccount.ts.
 */
export function cloudWebhookJob(deps: {
  db: Db;
  bus: EventBus;
  inbound: Inbound;
  graph: GraphClient;
  now: () => Date;
  log: Pick<FastifyBaseLogger, "warn">;
  /** Starts a reinstated account's connection again (its token checked before CONNECTED). */
  sessions: Pick<SessionManager, "restart">;
}): JobHandler<typeof CLOUD_WEBHOOK_JOB> {
  return {
    async run(job) {
      const whatsappId = job.payload.whatsappId;
      const row = await findCloudConnection(deps.db, whatsappId, job.companyId);
      if (!row) return; // The connection was deleted since: nobody to deliver to.
      const connection = connectionInfoOf(row);
      const creds = cloudCredentialsOf(connection);
      const fetchMedia = async (mediaId: string) => {
        if (!creds)
          throw new ChannelError(
            "Cloud API connection without credentials",
            false,
            "ERR_WAPP_NOT_INITIALIZED",
          );
        return deps.graph.fetchMedia(creds.accessToken, mediaId);
      };
      const app = row.providerConfig.appSecret
        ? await cloudConnectionsOfApp(deps.db, row.providerConfig.appSecret)
        : [row];
      const byNumberId = numberRouter(row, app);
      const mapped = mapCloudWebhook(job.payload.body, fetchMedia);
      for (const { phoneNumberId, event, callbackData, identityChange } of mapped) {
        const target = byNumberId(phoneNumberId);
        if (!target) {
          deps.log.warn(
            { whatsappId: row.id, phoneNumberId, event: event.type },
            "Cloud API webhook for a phone number id no connection has: set it on its connection",
          );
          continue;
        }
        const to = connectionInfoOf(target);
        // A send whose answer was lost: its first status names it by our id and gives Meta's.
        if (event.type === "ack" && callbackData)
          await settleUnknownSend(deps.db, to.companyId, to.id, callbackData, event.id);
        await deps.inbound.handle(to, event);
        if (identityChange) await changeIdentity(deps.db, deps.bus, to.companyId, identityChange);
      }
      await applyAccountEvents(deps, app, mapCloudAccountEvents(job.payload.body));
    },
  };
}

/** The connection of a phone number id: the receiving one, else one of its company, else any of the app's. */
function numberRouter(receiver: WhatsappRow, app: WhatsappRow[]) {
  return (phoneNumberId: string): WhatsappRow | null => {
    if (receiver.providerConfig.phoneNumberId === phoneNumberId) return receiver;
    const holders = app.filter((c) => c.providerConfig.phoneNumberId === phoneNumberId);
    return holders.find((c) => c.companyId === receiver.companyId) ?? holders[0] ?? null;
  };
}

/**
 * The customer changed number (or business-scoped user id): the contact known by the old ids takes
 * the new ones, so the next message finds the same contact and its history. A new number another
 * contact already has is left as it is (two contacts to merge by hand, never one silently lost).
 */
async function changeIdentity(db: Db, bus: EventBus, companyId: number, change: CloudIdentityChange) {
  await inTransaction(db, bus, async (tx, raise) => {
    const contact = await findCloudContact(tx, companyId, change.from);
    if (!contact) return;
    const patch: { number?: string; lid?: string } = {};
    if (change.number && change.number !== contact.number) {
      if (!(await contactHolding(tx, companyId, contact.id, "number", change.number)))
        patch.number = change.number;
    }
    if (change.userId && change.userId !== contact.lid) {
      if (!(await contactHolding(tx, companyId, contact.id, "lid", change.userId))) patch.lid = change.userId;
    }
    if (!patch.number && !patch.lid) return;
    const updated = await updateCloudContact(tx, companyId, contact.id, patch);
    if (updated)
      raise({ type: "contact.saved", companyId, action: "update", contact: presentContact(updated) });
  });
}

/** A Cloud API connection by id (from the webhook URL), within a company when one is known. */
async function findCloudConnection(
  db: Db,
  whatsappId: string | number,
  companyId?: number | null,
): Promise<WhatsappRow | null> {
  // The URL's id in plain digits only: " 1" or "1e0" is not connection 1.
  const id =
    typeof whatsappId === "number"
      ? whatsappId
      : /^[1-9][0-9]{0,9}$/.test(whatsappId)
        ? Number(whatsappId)
        : 0;
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  return findCloudConnectionRow(db, companyId, id);
}

/** X-Hub-Signature-256: "sha256=" + hex HMAC-SHA256 of the raw body with the app secret. */
export function webhookSignature(appSecret: string, rawBody: Buffer): string {
  return `sha256=${crypto.createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

function isSignedBy(appSecret: string, rawBody: Buffer, signature: string): boolean {
  const expected = Buffer.from(webhookSignature(appSecret, rawBody));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Compares secrets in time independent of where they differ (hashing first evens out lengths). */
function constantTimeEqual(a: string, b: string): boolean {
  const digest = (s: string) => crypto.createHash("sha256").update(s).digest();
  return crypto.timingSafeEqual(digest(a), digest(b));
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
