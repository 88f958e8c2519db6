import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { queues } from "./queues.js";
import { whatsapps } from "./whatsapps.js";

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Stored lower-case; unique across the platform because login is by email alone. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    profile: text("profile", { enum: ["admin", "supervisor", "user"] })
      .notNull()
      .default("user"),
    super: boolean("super").notNull().default(false),
    allTicket: text("all_ticket", { enum: ["enabled", "desabled"] })
      .notNull()
      .default("desabled"),
    /** Default connection for this agent's new tickets. */
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    online: boolean("online").notNull().default(false),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_uq").on(t.email),
    index("users_company_idx").on(t.companyId),
    index("users_online_idx")
      .on(t.lastSeenAt)
      .where(sql`${t.online}`),
  ],
);

export const userQueues = pgTable(
  "user_queues",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index("user_queues_company_idx").on(t.companyId),
    index("user_queues_queue_idx").on(t.queueId),
  ],
);

/**
 * Refresh tokens: only a hash is stored. Rotation marks the used row and inserts its successor in
 * the same session; a reused (already rotated) token revokes the whole session.
 */
export const refreshTokens = pgTable(
  "refresh_tokens",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("refresh_tokens_hash_uq").on(t.tokenHash),
    index("refresh_tokens_user_idx").on(t.userId),
    index("refresh_tokens_company_idx").on(t.companyId),
  ],
);
