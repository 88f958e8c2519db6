import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";

/** A company's outbound webhook: where its chosen events are POSTed, signed with its own secret. */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Event names (contracts' WEBHOOK_EVENTS). */
    events: jsonb("events").$type<string[]>().notNull().default([]),
    /**
     * The HMAC key, sealed (SecretBox, purpose WEBHOOK_SECRET_PURPOSE); shown once, when created or
     * rotated. A row from before migration 0031 holds it in clear until the start-up step seals it.
     */
    secretEnc: text("secret_enc").notNull(),
    active: boolean("active").notNull().default(true),
    /** Since when every delivery has failed (null once one succeeds); a day of it switches it off. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** Why it was switched off by the server (null when the admin did, or it is on). */
    disabledReason: text("disabled_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_subscriptions_company_idx").on(t.companyId)],
);

/** One event for one subscription: retried with the same deliveryId until delivered or given up. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    deliveryId: uuid("delivery_id").notNull().defaultRandom(),
    event: text("event").notNull(),
    /** The entity as the API presents it (the body's `data`). */
    data: jsonb("data").$type<unknown>().notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseCode: integer("response_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_delivery_uq").on(t.deliveryId),
    index("webhook_deliveries_subscription_idx").on(t.subscriptionId, t.id),
    index("webhook_deliveries_pending_idx")
      .on(t.subscriptionId)
      .where(sql`${t.status} = 'pending'`),
  ],
);
