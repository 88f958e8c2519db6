import crypto from "node:crypto";
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_TEST_EVENT } from "@atende/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { type JobHandler, type JobRunner, JobFailed, RetryLater } from "../../jobs/runner.js";
import type { SecretBox } from "../../lib/secretBox.js";
import type { Mailer } from "../mail/mailer.js";
import { WEBHOOK_DELIVERY_JOB, type SubscriptionCache } from "./dispatch.js";
import * as q from "./queries.js";
import { openWebhookSecret } from "./sealing.js";
import { type Outbound, OutboundRefused } from "../../lib/outbound.js";

/** A subscription failing for this long is switched off. */
export const FAILING_DAY_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 10_000;
const MAX_BACKOFF_SECONDS = 3 * 60 * 60;

/** `sha256=` + hex HMAC-SHA256 of `${timestamp}.${body}` with the subscription's secret. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The wait before attempt n+1: base, 2×base, 4×base… capped at 3 hours (17 attempts ≈ a day). */
export function retryDelaySeconds(base: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, base * 2 ** Math.max(0, attempt - 1));
}

/**
 * POSTs the body through the guarded client (lib/outbound.ts: public addresses only, judged when
 * the socket connects; no redirect followed); answers the status code, or throws.
 */
async function post(
  outbound: Outbound,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const res = await outbound.fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body,
    redirects: 0,
    timeoutMs: TIMEOUT_MS,
    maxBytes: Number.POSITIVE_INFINITY, // the answer's body is never read
  });
  await res.body?.cancel();
  return res.status;
}

/**
 * What the delivery log says of a request that got no answer: a few words, never the socket's own
 * error, whose address, port and reason would make the log a scanner of whatever the server reaches.
 */
function failureOf(err: unknown): string {
  if (err instanceof OutboundRefused) return "forbidden address";
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return "timed out";
  return "connection failed";
}

export interface DeliveryDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  mailer: Pick<Mailer, "send">;
  cache: SubscriptionCache;
  /** The app's one guarded client. */
  outbound: Outbound;
  retryBaseSeconds: number;
  /** Opens the subscriptions' sealed signing secrets. */
  secrets: SecretBox;
  /** Counts deliveries by outcome (the /metrics counter). */
  metrics?: { webhookDeliveries: { inc(labels: { outcome: string }): void } };
}

/** The job that delivers one webhook event, signed, retried with the same deliveryId. */
export function webhookDeliveryJob(deps: DeliveryDeps): JobHandler<typeof WEBHOOK_DELIVERY_JOB> {
  const { db, now, outbound } = deps;
  const count = (outcome: string) => deps.metrics?.webhookDeliveries.inc({ outcome });

  async function switchOff(companyId: number, sub: q.WebhookRow) {
    await q.updateSubscription(db, companyId, sub.id, {
      active: false,
      disabledReason: "failing",
      updatedAt: now(),
    });
    deps.cache.forget(companyId);
    deps.log.warn({ companyId, webhookId: sub.id }, "webhook switched off after a day of failures");
    for (const to of await q.adminEmails(db, companyId)) {
      const text = `O webhook ${sub.url} falhou por um dia e foi desativado. Corrija o receptor e ative-o de novo em Configurações → Webhooks.`;
      await deps.mailer
        .send({ to, subject: "Webhook desativado", text, html: `<p>${text}</p>` })
        .catch(() => undefined);
    }
  }

  return {
    async run(job, ctx) {
      const companyId = job.companyId!;
      const found = await q.findDeliveryToSend(db, companyId, job.payload.deliveryRowId);
      if (!found || found.delivery.status === "delivered") return;
      const { delivery: d, subscription: sub } = found;
      if (!sub) return; // deleted: its deliveries went with it
      if (!sub.active && d.event !== WEBHOOK_TEST_EVENT) throw new JobFailed("the webhook is switched off");
      const body = JSON.stringify({
        event: d.event,
        companyId,
        deliveryId: d.deliveryId,
        createdAt: d.createdAt.toISOString(),
        data: d.data,
      });
      const secret = openWebhookSecret(deps.secrets, sub);
      if (secret === null)
        throw new JobFailed("the signing secret does not open with this SECRETS_KEY: rotate it");
      const timestamp = String(Math.floor(now().getTime() / 1000));
      const headers = {
        [WEBHOOK_SIGNATURE_HEADER]: signature(secret, timestamp, body),
        [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
        "x-atende-event": d.event,
        "x-atende-delivery": d.deliveryId,
        "user-agent": "Atende-Webhooks/1",
      };
      let code: number | null = null;
      let error: string | null = null;
      try {
        code = await post(outbound, sub.url, body, headers);
        if (code < 200 || code >= 300) error = `HTTP ${code}`;
      } catch (err) {
        error = failureOf(err);
        if (err instanceof OutboundRefused)
          deps.log.warn(
            { companyId, webhookId: sub.id, reason: (err as OutboundRefused).reason },
            "webhook not delivered: the receiver is a forbidden address",
          );
      }
      const at = now();
      await q.recordAttempt(db, companyId, d.id, { at, responseCode: code, lastError: error });
      if (!error) {
        count("delivered");
        if (sub.failingSince) await q.updateSubscription(db, companyId, sub.id, { failingSince: null });
        return;
      }
      count("failed_attempt");
      // A receiver that became internal fails like any other: retried, and after a day of failures
      // switched off with the admins told (its name may point back to a public address meanwhile).
      const failing = await q.markFailing(db, companyId, sub.id, at);
      if (
        failing?.active &&
        failing.failingSince &&
        at.getTime() - failing.failingSince.getTime() >= FAILING_DAY_MS
      ) {
        await switchOff(companyId, failing);
        throw new JobFailed(error);
      }
      throw new RetryLater(error, retryDelaySeconds(deps.retryBaseSeconds, ctx.attempt));
    },
    async onFailed(job, error) {
      count("gave_up");
      await q.updateDelivery(db, job.companyId!, job.payload.deliveryRowId, {
        status: "failed",
        lastError: error.message.slice(0, 300),
      });
    },
  };
}

/** The outbound webhooks' durable job: one delivery, retried with backoff, switched off after a day of failures. */
export function registerWebhookJobs(jobs: Pick<JobRunner, "register">, deps: DeliveryDeps) {
  jobs.register(WEBHOOK_DELIVERY_JOB, webhookDeliveryJob(deps));
}
