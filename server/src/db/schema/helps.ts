import { pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The help videos of the /helps page and the super user's Ajuda tab. They belong to the platform,
 * not to a company (no company_id): the super user writes them once, and every company reads the
 * same list.
 */
export const helps = pgTable("helps", {
  id: serial("id").primaryKey(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  /** The YouTube video id alone (contracts' youtubeVideoId); the web builds the URLs from it. */
  video: text("video").notNull(),
  link: text("link"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
