import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { DEFAULT_SCHEDULES, type ScheduleEntry } from "@atende/contracts";
import { prompts, queueIntegrations } from "./bots.js";
import { companies } from "./companies.js";

export const queues = pgTable(
  "queues",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    /** Where the queue stands in the chatbot's menu; null after the numbered ones. */
    orderQueue: integer("order_queue"),
    greetingMessage: text("greeting_message").notNull().default(""),
    outOfHoursMessage: text("out_of_hours_message").notNull().default(""),
    integrationId: integer("integration_id").references((): AnyPgColumn => queueIntegrations.id, {
      onDelete: "set null",
    }),
    promptId: integer("prompt_id").references((): AnyPgColumn => prompts.id, { onDelete: "set null" }),
    /** Service hours, read when the company's scheduleType is "queue". */
    schedules: jsonb("schedules")
      .$type<ScheduleEntry[]>()
      .notNull()
      .default([...DEFAULT_SCHEDULES]),
    /** The attachment sent with the greeting (a MediaStore path) and its original file name. */
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    /**
     * Service-level targets (issue 39), in working minutes (the queue's or the company's opening
     * hours; out-of-hours time does not count); null is no target. A ticket's chip turns "warning"
     * once `slaWarningPercent` of a target's time has passed.
     */
    slaFirstResponseMinutes: integer("sla_first_response_minutes"),
    slaResolutionMinutes: integer("sla_resolution_minutes"),
    slaWarningPercent: integer("sla_warning_percent").notNull().default(80),
    /** The resolution clock stops while the conversation waits on the customer (the agent spoke last). */
    slaPauseOnCustomer: boolean("sla_pause_on_customer").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("queues_company_idx").on(t.companyId),
    uniqueIndex("queues_company_name_uq").on(t.companyId, t.name),
    uniqueIndex("queues_company_color_uq").on(t.companyId, t.color),
  ],
);

/** The queue's chatbot menu: a tree of options; deleting one deletes its sub-menu. */
export const queueOptions = pgTable(
  "queue_options",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => queueOptions.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    message: text("message").notNull().default(""),
    /** The number the customer types to choose it. */
    option: integer("option").notNull().default(1),
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("queue_options_company_idx").on(t.companyId),
    index("queue_options_queue_idx").on(t.queueId, t.parentId),
    index("queue_options_parent_idx").on(t.parentId),
  ],
);
