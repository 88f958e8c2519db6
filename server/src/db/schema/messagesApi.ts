import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { whatsapps } from "./whatsapps.js";

/**
 * An Idempotency-Key sent with POST /api/messages/send, per connection (the token's owner): the
 * first call inserts the row in its sending transaction; a retry, even concurrent, finds the row
 * (waiting on the unique index until the first commits) and answers the stored answer.
 */
export const apiIdempotencyKeys = pgTable(
  "api_idempotency_keys",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    answer: jsonb("answer").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("api_idempotency_keys_uq").on(t.whatsappId, t.key),
    index("api_idempotency_keys_company_idx").on(t.companyId),
    index("api_idempotency_keys_created_idx").on(t.createdAt),
  ],
);
