import { z } from "zod";
import type { Lang } from "./errors.js";

/**
 * Web Push: an agent's device (a browser profile on a computer or phone) subscribes with the push
 * service its browser uses, and the server sends it what the in-app alerts would say
 * (notifications.ts), encrypted for that device alone (RFC 8291) and signed with the server's
 * VAPID key (RFC 8292).
 */

/** An unpadded base64url string of `bytes` bytes, as PushSubscription.toJSON() writes its keys. */
const base64url = (bytes: number) =>
  z
    .string("validation.invalid")
    .regex(/^[A-Za-z0-9_-]+$/, "validation.invalid")
    .refine((v) => Math.floor((v.length * 3) / 4) === bytes, "validation.invalid");

export const PUSH_LIMITS = {
  /** Push services' URLs are long (FCM's about 200 characters); anything past this is no endpoint. */
  endpointMax: 2048,
  /** Devices kept per user: subscribing one more lets the oldest go. */
  devicesPerUser: 5,
  /** The text of a notification, cut to fit a phone's lock screen (and the 4 KB a push carries). */
  titleMax: 80,
  bodyMax: 180,
} as const;

/** PUT /push/subscription: the browser's PushSubscription (toJSON) and the app's language on it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string("validation.invalid").trim().min(1, "validation.required").max(PUSH_LIMITS.endpointMax),
  keys: z.object({
    /** The device's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65),
    /** The device's authentication secret (16 bytes). */
    auth: base64url(16),
  }),
  /** The language the notifications are written in: the one chosen in the app on that device. */
  language: z.enum(["pt", "en", "es"], "validation.invalid").optional().default("pt"),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /push/subscription: this device's endpoint. */
export const pushEndpointSchema = z.object({
  endpoint: z.string("validation.invalid").trim().min(1, "validation.required").max(PUSH_LIMITS.endpointMax),
});

/** GET /push/key: the server's VAPID public key (base64url), the applicationServerKey to subscribe with. */
export const pushKeySchema = z.object({ publicKey: z.string() }).meta({
  id: "PushKey",
  description: "The server's VAPID public key (base64url), the applicationServerKey a device subscribes with",
});
export type PushKeyDTO = z.infer<typeof pushKeySchema>;

/** What one push carries to the service worker (web/public/sw.js), which shows it. */
export interface PushPayload {
  title: string;
  body: string;
  /** The app's path a tap opens: /tickets/{uuid}, /chats/{uuid}. */
  url: string;
  /** One notice per tag: a newer one replaces it (a ticket's, a chat's). */
  tag: string;
  /** What the notice is about (message-12, ticket-34): the in-app alert of the same thing is not shown twice. */
  key: string;
  lang: Lang;
}
