import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { whatsapps } from "./whatsapps.js";

/** The simulator's phones: every message a simulated customer sent or received, as that phone sees it. */
export const simulatorMessages = pgTable(
  "simulator_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    /** The customer's phone number (digits). */
    number: text("number").notNull(),
    /** "in": the customer sent it; "out": the business sent it to the customer. */
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    providerId: text("provider_id").notNull(),
    body: text("body").notNull().default(""),
    kind: text("kind").notNull().default("text"),
    media: jsonb("media").$type<{
      filename: string;
      mimetype: string;
      path: string;
      voiceNote?: boolean;
    } | null>(),
    quotedId: text("quoted_id"),
    ack: smallint("ack").notNull().default(1),
    isDeleted: boolean("is_deleted").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("simulator_messages_provider_uq").on(t.whatsappId, t.providerId),
    index("simulator_messages_phone_idx").on(t.whatsappId, t.number, t.id),
  ],
);
