import type { FastifyBaseLogger } from "fastify";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { AppError } from "../../http/errors.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { billingSettings, gatewayNamed } from "./gateways/registry.js";
import * as q from "./queries.js";
import { settleCharge } from "./settle.js";

export type WebhookDeps = Pick<Deps, "db" | "bus" | "now" | "config"> & {
  log: FastifyBaseLogger;
  secrets: SecretBox;
};

/**
 * Asaas' webhook (POST /webhooks/asaas). The `asaas-access-token` header must carry the token the
 * super user set (`asaasWebhookToken`), compared in constant time; else 401 and nothing is read.
 * Every event is stored once under its id; a paid one (PAYMENT_RECEIVED or PAYMENT_CONFIRMED)
 * settles its charge's invoice once, however often it comes and whatever else settled it.
 */
export function createWebhookService({ db, bus, now, config, log, secrets }: WebhookDeps) {
  return {
    async asaas(headers: Record<string, string | string[] | undefined>, body: unknown) {
      const settings = await billingSettings(db);
      const gateway = gatewayNamed("asaas", settings, { asaasUrl: config.ASAAS_API_URL, now, secrets });
      if (!gateway.verifyWebhook(headers)) throw new AppError("ERR_PAYMENT_WEBHOOK_UNAUTHORIZED");
      const notice = gateway.readWebhook(body);
      if (!notice || !notice.externalId) return { received: true };
      const at = now();
      const outcome = notice.paid
        ? await inTransaction(db, bus, (tx, raise) =>
            settleCharge(tx, raise, {
              gateway: "asaas",
              externalId: notice.externalId!,
              eventKey: notice.eventKey,
              eventType: notice.eventType,
              payload: body,
              at,
            }),
          )
        : (await q.storeEvent(db, {
              gateway: "asaas",
              eventKey: notice.eventKey,
              eventType: notice.eventType,
              externalId: notice.externalId,
              payload: body,
              receivedAt: at,
            }))
          ? "stored"
          : "replayed";
      if (outcome === "missing")
        log.warn(
          { paymentId: notice.externalId, event: notice.eventType },
          "billing: webhook for an unknown charge",
        );
      return { received: true };
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
