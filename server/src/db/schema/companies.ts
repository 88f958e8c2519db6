import {
  boolean,
  date,
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
import { plans } from "./plans.js";

export const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  email: text("email"),
  phone: text("phone"),
  planId: integer("plan_id").references(() => plans.id),
  status: boolean("status").notNull().default(true),
  dueDate: date("due_date", { mode: "string" }),
  recurrence: text("recurrence").notNull().default("MENSAL"),
  /** The last day of a sign-up's free trial (YYYY-MM-DD); null for a company the super user created. */
  trialExpiration: date("trial_expiration", { mode: "string" }),
  /** Opening hours, read when the company's scheduleType is "company". */
  schedules: jsonb("schedules")
    .$type<ScheduleEntry[]>()
    .notNull()
    .default([...DEFAULT_SCHEDULES]),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A company's settings as key/value rows (the spec's Setting keys, campaignsEnabled, ...). */
export const settings = pgTable(
  "settings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("settings_company_key_uq").on(t.companyId, t.key),
    index("settings_company_idx").on(t.companyId),
  ],
);
