import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { users } from "./users.js";

/**
 * The platform's announcements (the super user's /announcements page, everyone's top-bar popover).
 * They belong to the platform, not to a company: `allCompanies` sends one to every company, else
 * only the companies of `announcement_companies` receive it.
 */
export const announcements = pgTable(
  "announcements",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    text: text("text").notNull(),
    /** 1 high, 2 medium, 3 low. */
    priority: smallint("priority").notNull().default(3),
    /** Active (shown in the popovers) or not. */
    status: boolean("status").notNull().default(true),
    /** The stored attachment ("0/{uuid}.png": the platform's folder of the media store), or none. */
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    allCompanies: boolean("all_companies").notNull().default(true),
    /** When it was created or last made active again: newer than a user's last look, it is new to them. */
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("announcements_published_idx").on(t.status, t.publishedAt)],
);

/** The companies an announcement goes to when it is not for every company. */
export const announcementCompanies = pgTable(
  "announcement_companies",
  {
    announcementId: integer("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.announcementId, t.companyId] }),
    index("announcement_companies_company_idx").on(t.companyId),
  ],
);

/** When each user last opened the announcements popover: the dot shows what was published since. */
export const announcementViews = pgTable("announcement_views", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  companyId: integer("company_id")
    .notNull()
    .references(() => companies.id, { onDelete: "cascade" }),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
});
