import { z } from "zod";

/**
 * The events a company's webhook may subscribe to. campaign.status and invoice.paid are raised by the
 * campaigns and billing modules (a `webhook.event` domain event) once they exist.
 */
export const WEBHOOK_EVENTS = [
  "ticket.created",
  "ticket.updated",
  "ticket.closed",
  "message.created",
  "message.updated",
  "contact.created",
  "contact.updated",
  "connection.status",
  "campaign.status",
  "invoice.paid",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
/** The event "send test event" delivers (to any subscription, whatever it chose). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** Headers of every delivery. The signature is `sha256=` + hex HMAC-SHA256(secret, `${timestamp}.${body}`). */
export const WEBHOOK_SIGNATURE_HEADER = "x-atende-signature";
export const WEBHOOK_TIMESTAMP_HEADER = "x-atende-timestamp";

export const webhookSaveSchema = z.object({
  url: z.string("validation.required").trim().min(1, "validation.required").max(2000, "validation.invalid"),
  events: z.array(z.enum(WEBHOOK_EVENTS, "validation.invalid")).min(1, "validation.required").max(20),
  active: z.boolean().optional().default(true),
});
export type WebhookSaveInput = z.infer<typeof webhookSaveSchema>;

export interface WebhookDTO {
  id: number;
  url: string;
  events: WebhookEventName[];
  active: boolean;
  /** "failing": the server switched it off after a day of failed deliveries. */
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A created subscription, or one whose secret was rotated: the only answers carrying the secret. */
export interface WebhookWithSecretDTO extends WebhookDTO {
  secret: string;
}

export interface WebhookDeliveryDTO {
  id: number;
  deliveryId: string;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
}

/** The JSON body of every delivery. */
export interface WebhookBody<D = unknown> {
  event: WebhookEventName | typeof WEBHOOK_TEST_EVENT;
  companyId: number;
  deliveryId: string;
  createdAt: string;
  data: D;
}
