import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { users } from "./users.js";

/**
 * A device that hears the user's notifications by Web Push: the browser's subscription (its push
 * service's endpoint and the keys its payloads are encrypted for), bound to the session that
 * registered it. One row per endpoint: a device another user logs in on becomes theirs. Gone when
 * that session ends (logout, another login, a password change) or the push service says so.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").notNull(),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** pt, en or es: the language the app was in on the device. */
    language: text("language").notNull().default("pt"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_uq").on(t.endpoint),
    index("push_subscriptions_company_idx").on(t.companyId),
    index("push_subscriptions_user_idx").on(t.userId),
  ],
);
