import { boolean, integer, numeric, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

export const plans = pgTable("plans", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  users: integer("users").notNull().default(0),
  connections: integer("connections").notNull().default(0),
  queues: integer("queues").notNull().default(0),
  campaigns: integer("campaigns").notNull().default(0),
  schedules: integer("schedules").notNull().default(0),
  value: numeric("value", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
  useCampaigns: boolean("use_campaigns").notNull().default(false),
  useSchedules: boolean("use_schedules").notNull().default(false),
  useInternalChat: boolean("use_internal_chat").notNull().default(false),
  useExternalApi: boolean("use_external_api").notNull().default(false),
  useKanban: boolean("use_kanban").notNull().default(false),
  useOpenAi: boolean("use_open_ai").notNull().default(false),
  useIntegrations: boolean("use_integrations").notNull().default(false),
  useInternal: boolean("use_internal").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
