import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { whatsapps } from "./whatsapps.js";

/**
 * A Cloud API connection's message templates as Graph last listed them (GET /{waba-id}/
 * message_templates), kept so every instance offers the same list and a `message_template_status_update`
 * webhook changes a template's status for all of them at once. `components` is Graph's own JSON.
 */
export const cloudTemplates = pgTable(
  "cloud_templates",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    wabaId: text("waba_id").notNull(),
    /** Meta's id of the template (the status webhook's message_template_id). */
    metaId: text("meta_id"),
    name: text("name").notNull(),
    language: text("language").notNull(),
    /** APPROVED, PAUSED, DISABLED, REJECTED… (only APPROVED ones are offered and sent). */
    status: text("status").notNull(),
    category: text("category").notNull().default(""),
    parameterFormat: text("parameter_format"),
    components: jsonb("components").$type<unknown[]>().notNull().default([]),
    /** When Graph listed it: the connection's list is read again from Graph past a few minutes. */
    fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cloud_templates_whatsapp_name_uq").on(t.whatsappId, t.name, t.language),
    index("cloud_templates_company_idx").on(t.companyId),
    index("cloud_templates_waba_idx").on(t.wabaId, t.name),
  ],
);
