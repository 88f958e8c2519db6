import type { WebhookDTO, WebhookDeliveryDTO, WebhookEventName } from "@atende/contracts";
import type { DeliveryRow, WebhookRow } from "./queries.js";

/** A subscription without its secret (the secret is answered once, by create and rotate). */
export function presentWebhook(w: WebhookRow): WebhookDTO {
  return {
    id: w.id,
    url: w.url,
    events: w.events as WebhookEventName[],
    active: w.active,
    disabledReason: w.disabledReason,
    failingSince: w.failingSince?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function presentDelivery(d: DeliveryRow): WebhookDeliveryDTO {
  return {
    id: d.id,
    deliveryId: d.deliveryId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}
