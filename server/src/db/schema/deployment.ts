import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row naming this deployment: a random key written at its first start (not by the migration,
 * so databases cloned from one migrated template still differ). Redis keys and channels carry it.
 */
export const deployment = pgTable("deployment", {
  one: boolean("one").primaryKey().default(true),
  key: text("key").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
