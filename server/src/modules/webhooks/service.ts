import crypto from "node:crypto";
import {
  WEBHOOK_TEST_EVENT,
  type WebhookDTO,
  type WebhookDeliveryDTO,
  type WebhookSaveInput,
  type WebhookWithSecretDTO,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { Outbound } from "../../lib/outbound.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { WEBHOOK_DELIVERY_JOB, type SubscriptionCache } from "./dispatch.js";
import { enqueueJob } from "../../jobs/runner.js";
import type { JobRunner } from "../../jobs/runner.js";
import { presentDelivery, presentWebhook } from "./present.js";
import * as q from "./queries.js";
import { sealWebhookSecret } from "./sealing.js";
import { assertPublicUrl } from "./ssrf.js";

export type WebhooksDeps = Pick<Deps, "db" | "bus" | "now"> & {
  jobs: Pick<JobRunner, "poke">;
  webhookCache: SubscriptionCache;
  secrets: SecretBox;
  /** The app's one guarded client (the receiver's save-time check). */
  outbound: Outbound;
};

const newSecret = () => `whsec_${crypto.randomBytes(24).toString("base64url")}`;

/** A company's outbound webhooks (admins): subscriptions, their delivery log, test and resend. */
export function createWebhooksService({ db, bus, now, jobs, webhookCache, secrets, outbound }: WebhooksDeps) {
  async function own(actor: AuthContext, id: number) {
    const row = await q.findSubscription(db, actor.companyId, id);
    if (!row) throw new AppError("ERR_WEBHOOK_NOT_FOUND");
    // Another company's id answered 404 above; the route's permission is checked after (http/route.ts).
    authorize(actor, "settings:edit");
    return row;
  }

  return {
    async list(actor: AuthContext): Promise<WebhookDTO[]> {
      return (await q.listSubscriptions(db, actor.companyId)).map(presentWebhook);
    },

    /** The answer carries the signing secret: the only time it is shown (besides a rotation). */
    async create(actor: AuthContext, input: WebhookSaveInput): Promise<WebhookWithSecretDTO> {
      const url = await assertPublicUrl(outbound, input.url);
      const secret = newSecret();
      const row = await q.insertSubscription(db, actor.companyId, {
        url: url.toString(),
        events: [...new Set(input.events)],
        active: input.active,
        secretEnc: sealWebhookSecret(secrets, secret),
        createdAt: now(),
        updatedAt: now(),
      });
      webhookCache.forget(actor.companyId);
      return { ...presentWebhook(row), secret };
    },

    /** Switching it on again starts its failure clock afresh. */
    async update(actor: AuthContext, id: number, input: WebhookSaveInput): Promise<WebhookDTO> {
      const current = await own(actor, id);
      const url = await assertPublicUrl(outbound, input.url);
      const reactivated = input.active && !current.active;
      const row = await q.updateSubscription(db, actor.companyId, id, {
        url: url.toString(),
        events: [...new Set(input.events)],
        active: input.active,
        ...(reactivated ? { failingSince: null, disabledReason: null } : {}),
        updatedAt: now(),
      });
      webhookCache.forget(actor.companyId);
      return presentWebhook(row!);
    },

    async rotateSecret(actor: AuthContext, id: number): Promise<WebhookWithSecretDTO> {
      await own(actor, id);
      const secret = newSecret();
      const row = await q.updateSubscription(db, actor.companyId, id, {
        secretEnc: sealWebhookSecret(secrets, secret),
        updatedAt: now(),
      });
      return { ...presentWebhook(row!), secret };
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      await own(actor, id);
      if (!(await q.deleteSubscription(db, actor.companyId, id))) throw new AppError("ERR_WEBHOOK_NOT_FOUND");
      webhookCache.forget(actor.companyId);
    },

    async deliveries(actor: AuthContext, id: number): Promise<WebhookDeliveryDTO[]> {
      await own(actor, id);
      return (await q.recentDeliveries(db, actor.companyId, id)).map(presentDelivery);
    },

    /** A `webhook.test` delivery to this subscription alone, through the same queue as real events. */
    async sendTest(actor: AuthContext, id: number): Promise<void> {
      const sub = await own(actor, id);
      await inTransaction(db, bus, async (_tx, raise) => {
        raise({
          type: "webhook.event",
          companyId: actor.companyId,
          event: WEBHOOK_TEST_EVENT,
          entity: `test:${sub.id}`,
          subscriptionId: sub.id,
          data: { message: "Atende webhook test", webhookId: sub.id, url: sub.url },
        });
      });
      jobs.poke();
    },

    /** Delivers a logged delivery again, with its own deliveryId (the receiver deduplicates on it). */
    async resend(actor: AuthContext, id: number, deliveryRowId: number): Promise<WebhookDeliveryDTO> {
      await own(actor, id);
      const d = await q.findDelivery(db, actor.companyId, deliveryRowId);
      if (!d || d.subscriptionId !== id) throw new AppError("ERR_NOT_FOUND");
      await inTransaction(db, bus, async (tx) => {
        await q.updateDelivery(tx, actor.companyId, d.id, { status: "pending" });
        await enqueueJob(tx, {
          type: WEBHOOK_DELIVERY_JOB,
          companyId: actor.companyId,
          payload: { deliveryRowId: d.id },
          maxAttempts: 1,
        });
      });
      jobs.poke();
      return presentDelivery({ ...d, status: "pending" });
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
