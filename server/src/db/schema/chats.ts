import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { companies } from "./companies.js";
import { tickets } from "./tickets.js";
import { users } from "./users.js";

/** An internal chat between colleagues of one company (the /chats page). */
export const chats = pgTable(
  "chats",
  {
    id: serial("id").primaryKey(),
    uuid: uuid("uuid").notNull().defaultRandom(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** Who created it: the only one who edits or deletes it. A deleted owner leaves it ownerless. */
    ownerId: integer("owner_id").references(() => users.id, { onDelete: "set null" }),
    /** "{lowId}:{highId}" for the direct chat a mention opens between two colleagues; one per pair. */
    directKey: text("direct_key"),
    /** "Sender: text" of the newest message, as the list shows it. */
    lastMessage: text("last_message").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chats_uuid_uq").on(t.uuid),
    index("chats_company_idx").on(t.companyId, t.updatedAt),
    uniqueIndex("chats_direct_uq").on(t.companyId, t.directKey),
  ],
);

/** A member of a chat, with the messages they have not read yet. */
export const chatUsers = pgTable(
  "chat_users",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    unreads: integer("unreads").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chat_users_chat_user_uq").on(t.chatId, t.userId),
    index("chat_users_user_idx").on(t.userId),
  ],
);

/** A message of an internal chat: text, an attachment, a link to a ticket. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    chatId: integer("chat_id")
      .notNull()
      .references(() => chats.id, { onDelete: "cascade" }),
    /** A deleted sender's messages stay, without a name. */
    senderId: integer("sender_id").references(() => users.id, { onDelete: "set null" }),
    message: text("message").notNull().default(""),
    /** "{companyId}/{uuid}.{ext}" in the media store, as the chat window's attachments. */
    mediaPath: text("media_path"),
    mediaName: text("media_name"),
    mediaType: text("media_type"),
    /** The ticket the message links to; the link goes when the ticket does. */
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("chat_messages_chat_idx").on(t.chatId, t.id),
    index("chat_messages_media_idx").on(t.companyId, t.mediaPath),
  ],
);
