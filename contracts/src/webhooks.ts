import { z } from "zod";
import { rowId, timestamp } from "./answers.js";

/** The events a company's webhook may subscribe to (webhookPayloads.ts says what each carries). */
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

/** A subscription as every answer but create and rotate carries it: never its secret. */
export const webhookSchema = z
  .object({
    id: rowId,
    /** Where deliveries are POSTed. */
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    active: z.boolean(),
    /** "failing": the server switched it off after a day of failed deliveries. */
    disabledReason: z.string().nullable(),
    /** Since when its deliveries fail (null while they succeed). */
    failingSince: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Webhook", description: "A webhook subscription of the company (never its signing secret)" });
export type WebhookDTO = z.infer<typeof webhookSchema>;

/** A created subscription, or one whose secret was rotated: the only answers carrying the secret. */
export const webhookWithSecretSchema = webhookSchema
  .extend({
    /** The HMAC-SHA256 key of the deliveries' signature (WEBHOOK_SIGNATURE_HEADER): shown this once. */
    secret: z.string(),
  })
  .meta({
    id: "WebhookWithSecret",
    description:
      "A subscription just created or whose secret was rotated, with its signing secret, shown this once",
  });
export type WebhookWithSecretDTO = z.infer<typeof webhookWithSecretSchema>;

/** One event sent (or being sent) to a subscription, and how its attempts went. */
export const webhookDeliverySchema = z
  .object({
    id: rowId,
    /** The delivery's id, the body's `deliveryId` (the same on every retry). */
    deliveryId: z.uuid(),
    event: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int().nonnegative(),
    /** The endpoint's HTTP status at the last attempt; null: none answered. */
    responseCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: timestamp,
    lastAttemptAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
  })
  .meta({ id: "WebhookDelivery", description: "One event delivered (or being delivered) to a subscription" });
export type WebhookDeliveryDTO = z.infer<typeof webhookDeliverySchema>;

/** The JSON body of every delivery, whatever its event (`data` as the event has it). */
export const webhookBodySchema = z.object({
  event: z.enum([...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT]),
  companyId: rowId,
  /** The same on every retry of one delivery: a receiver drops the ones it already handled. */
  deliveryId: z.uuid(),
  /** When the event happened (not when this attempt was sent). */
  createdAt: timestamp,
  data: z.unknown(),
});
export type WebhookBody<D = unknown> = Omit<z.infer<typeof webhookBodySchema>, "data"> & { data: D };

/** The body of one event's deliveries: `event` that name, `data` of that schema. */
export function webhookBodyOf<E extends WebhookEventName | typeof WEBHOOK_TEST_EVENT, D extends z.ZodType>(
  event: E,
  data: D,
) {
  return webhookBodySchema.extend({ event: z.literal(event), data });
}
