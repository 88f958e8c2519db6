import {
  CHAT_LIMITS,
  type ChatCreateInput,
  type ChatDTO,
  type ChatMessageDTO,
  type ChatMessageInput,
  type ChatMessagesPage,
  type ChatRef,
  type ChatUpdateInput,
  type ChatsPage,
  type ChatsQuery,
  mediaNameOf,
  mentionedUsers,
} from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { type Raise, inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import type { UploadedFile } from "../../http/upload.js";
import { findCompany } from "../companies/queries.js";
import { findTicketByUuid } from "../tickets/queries.js";
import { canSeeTicket } from "../tickets/policy.js";
import { findUserRow, listUsers } from "../users/queries.js";
import { chatPolicy, requireChatPlan } from "./policy.js";
import { previewOf } from "./present.js";
import * as q from "./queries.js";

export type ChatsDeps = Pick<Deps, "db" | "bus" | "now" | "media">;

export function createChatsService({ db, bus, now, media }: ChatsDeps) {
  /** A chat the caller belongs to, by id or uuid; 404 for anyone else, another company included. */
  async function memberChat(actor: AuthContext, ref: ChatRef) {
    await requireChatPlan(db, actor.companyId);
    const chat = await q.findChatRow(db, actor.companyId, ref);
    const members = chat ? await q.memberIds(db, actor.companyId, chat.id) : [];
    return { chat: chatPolicy.member(chat, members, actor), members };
  }

  /** The users of the caller's company among `ids`, the caller left out; any other: not found. */
  async function colleagues(actor: AuthContext, ids: number[]): Promise<number[]> {
    const others = ids.filter((id) => id !== actor.userId);
    const found = await q.companyUserIds(db, actor.companyId, others);
    if (found.length !== others.length) throw new AppError("ERR_NO_USER_FOUND");
    return others;
  }

  /** Raises the chat as it is now in the transaction, to its members (and, removed, to `leftIds`). */
  async function raiseChat(
    tx: Executor,
    raise: Raise,
    companyId: number,
    chatId: number,
    action: "create" | "update",
    leftIds: number[] = [],
    read = false,
  ): Promise<ChatDTO> {
    const chat = (await q.loadChat(tx, companyId, chatId))!;
    raise({
      type: "chat.changed",
      companyId,
      memberIds: chat.users.map((u) => u.userId),
      leftIds,
      ...(read ? { read } : {}),
      payload: { action, chat },
    });
    return chat;
  }

  /**
   * Writes messages (one per attachment, the text on the first, or the text alone) from `senderId`,
   * counts them unread for the others and raises them: the chat's members hear each.
   */
  async function post(
    tx: Executor,
    raise: Raise,
    companyId: number,
    chatId: number,
    sender: { id: number; name: string },
    text: string,
    ticketId: number | null,
    files: { path: string; mimetype: string; name: string }[],
  ): Promise<ChatMessageDTO[]> {
    const at = now();
    const parts = files.length
      ? files.map((f, i) => ({ message: i === 0 ? text : "", file: f }))
      : [{ message: text, file: null }];
    const ids: number[] = [];
    for (const part of parts) {
      ids.push(
        await q.insertMessage(tx, companyId, {
          chatId,
          senderId: sender.id,
          message: part.message,
          mediaPath: part.file?.path ?? null,
          mediaName: part.file ? mediaNameOf(part.file.name) : null,
          mediaType: part.file?.mimetype ?? null,
          ticketId,
          createdAt: at,
          updatedAt: at,
        }),
      );
      await q.countNewMessage(tx, companyId, chatId, sender.id, at);
    }
    const last = parts[parts.length - 1]!;
    await q.updateChat(tx, companyId, chatId, {
      lastMessage: previewOf(
        sender.name,
        last.message || text,
        last.file ? mediaNameOf(last.file.name) : null,
      ),
      updatedAt: at,
    });
    const messages = await q.loadMessages(tx, companyId, ids);
    const chat = (await q.loadChat(tx, companyId, chatId))!;
    // Each message carries its chat (the family's popover reads newMessage.chat.users).
    for (const newMessage of messages)
      raise({
        type: "chat.changed",
        companyId,
        memberIds: chat.users.map((u) => u.userId),
        payload: { action: "new-message", newMessage: { ...newMessage, chat }, chat },
      });
    return messages;
  }

  return {
    /** GET /chats/: the caller's chats, the most recently active first. */
    async page(actor: AuthContext, query: ChatsQuery): Promise<ChatsPage> {
      await requireChatPlan(db, actor.companyId);
      const page = await q.pageChatIds(db, actor.companyId, actor.userId, {
        ...query,
        pageSize: CHAT_LIMITS.pageSize,
      });
      return {
        records: await q.loadChats(db, actor.companyId, page.ids),
        count: page.count,
        hasMore: page.hasMore,
      };
    },

    /** GET /chats/{id or uuid}. */
    async get(actor: AuthContext, ref: ChatRef): Promise<ChatDTO> {
      const { chat } = await memberChat(actor, ref);
      return (await q.loadChat(db, actor.companyId, chat.id))!;
    },

    /** POST /chats: the caller owns it and belongs to it, with the colleagues chosen. */
    async create(actor: AuthContext, input: ChatCreateInput): Promise<ChatDTO> {
      await requireChatPlan(db, actor.companyId);
      const others = await colleagues(actor, input.users);
      if (others.length === 0) throw new AppError("ERR_CHAT_NO_USERS");
      return inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        const chat = await q.insertChat(tx, actor.companyId, {
          title: input.title,
          ownerId: actor.userId,
          createdAt: at,
          updatedAt: at,
        });
        await q.setMembers(tx, actor.companyId, chat.id, [actor.userId, ...others], at);
        return raiseChat(tx, raise, actor.companyId, chat.id, "create");
      });
    },

    /** PUT /chats/{id}: the owner renames it or changes who belongs to it (the owner always stays). */
    async update(actor: AuthContext, ref: ChatRef, input: ChatUpdateInput): Promise<ChatDTO> {
      const { chat, members } = await memberChat(actor, ref);
      chatPolicy.manage(chat, actor);
      const others = input.users ? await colleagues(actor, input.users) : null;
      if (others && others.length === 0) throw new AppError("ERR_CHAT_NO_USERS");
      return inTransaction(db, bus, async (tx, raise) => {
        const at = now();
        await q.updateChat(tx, actor.companyId, chat.id, { title: input.title, updatedAt: at });
        let left: number[] = [];
        if (others) {
          const next = [actor.userId, ...others];
          left = members.filter((id) => !next.includes(id));
          await q.setMembers(tx, actor.companyId, chat.id, next, at);
        }
        const joined = others ? others.filter((id) => !members.includes(id)) : [];
        const saved = await raiseChat(tx, raise, actor.companyId, chat.id, "update", left);
        // Who just joined hears it as a new chat of theirs.
        if (joined.length)
          raise({
            type: "chat.changed",
            companyId: actor.companyId,
            memberIds: joined,
            payload: { action: "create", chat: saved },
          });
        return saved;
      });
    },

    /** DELETE /chats/{id}: the owner only; its messages go with it. */
    async remove(actor: AuthContext, ref: ChatRef): Promise<{ message: string }> {
      const { chat, members } = await memberChat(actor, ref);
      chatPolicy.manage(chat, actor);
      await inTransaction(db, bus, async (tx, raise) => {
        await q.deleteChat(tx, actor.companyId, chat.id);
        raise({
          type: "chat.changed",
          companyId: actor.companyId,
          memberIds: members,
          payload: { action: "delete", id: chat.id, uuid: chat.uuid },
        });
      });
      return { message: "Chat deleted" };
    },

    /** GET /chats/{id}/messages: newest page first, each page oldest first. */
    async messages(actor: AuthContext, ref: ChatRef, pageNumber: number): Promise<ChatMessagesPage> {
      const { chat } = await memberChat(actor, ref);
      return q.pageMessages(db, actor.companyId, chat.id, {
        pageNumber,
        pageSize: CHAT_LIMITS.messagesPageSize,
      });
    },

    /**
     * POST /chats/{id}/messages: text, attachments (the chat window's media rules: the type read
     * from the bytes, the size limit), a ticket linked by its uuid. Empty: refused.
     */
    async send(
      actor: AuthContext,
      ref: ChatRef,
      input: ChatMessageInput,
      files: UploadedFile[] = [],
    ): Promise<ChatMessageDTO[]> {
      const { chat } = await memberChat(actor, ref);
      const text = input.message.trim() ? input.message : "";
      if (!text && files.length === 0) throw new AppError("ERR_EMPTY_MESSAGE");
      let ticketId: number | null = null;
      if (input.ticketUuid) {
        const ticket = await findTicketByUuid(db, actor.companyId, input.ticketUuid);
        if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND");
        ticketId = ticket.id;
      }
      const sender = await findUserRow(db, actor.companyId, actor.userId);
      if (!sender) throw new AppError("ERR_NO_USER_FOUND");
      const stored: { path: string; mimetype: string; name: string }[] = [];
      for (const f of files)
        stored.push({ ...(await media.save(actor.companyId, f.data, f.mimetype)), name: f.filename });
      return inTransaction(db, bus, (tx, raise) =>
        post(tx, raise, actor.companyId, chat.id, sender, text, ticketId, stored),
      );
    },

    /** POST /chats/{id}/read: the caller has read the chat; its members hear the new counts. */
    async read(actor: AuthContext, ref: ChatRef): Promise<ChatDTO> {
      const { chat } = await memberChat(actor, ref);
      return inTransaction(db, bus, async (tx, raise) => {
        const changed = await q.markRead(tx, actor.companyId, chat.id, actor.userId, now());
        if (changed) return raiseChat(tx, raise, actor.companyId, chat.id, "update", [], true);
        return (await q.loadChat(tx, actor.companyId, chat.id))!;
      });
    },

    /**
     * A ticket note mentions colleagues (`@name`): each one who may see the ticket gets the note in
     * the direct chat with its author (made if missing), linking the ticket. Nobody else is told.
     */
    async notifyMentions(
      companyId: number,
      note: { userId: number | null; note: string },
      ticket: { id: number; queueId: number | null; userId: number | null },
    ): Promise<void> {
      if (note.userId === null || !note.note.includes("@")) return;
      const company = await findCompany(db, companyId);
      if (!company?.plan?.useInternalChat) return;
      const people = await listUsers(db, companyId);
      const author = people.find((u) => u.id === note.userId);
      if (!author) return;
      const mentioned = mentionedUsers(
        note.note,
        people.filter((u) => u.id !== author.id),
      ).filter((u) =>
        canSeeTicket(
          { userId: u.id, profile: u.profile },
          { queueIds: u.queues.map((x) => x.id), allTicket: u.allTicket === "enabled" },
          ticket,
        ),
      );
      for (const colleague of mentioned) {
        await inTransaction(db, bus, async (tx, raise) => {
          const at = now();
          const pair = [author.id, colleague.id].sort((a, b) => a - b);
          const { chat, created } = await q.findOrInsertDirectChat(tx, companyId, {
            title: `${author.name} & ${colleague.name}`.slice(0, CHAT_LIMITS.titleMax),
            ownerId: author.id,
            directKey: pair.join(":"),
            createdAt: at,
            updatedAt: at,
          });
          // A direct chat keeps its two members, whatever was done to it since.
          await q.setMembers(
            tx,
            companyId,
            chat.id,
            [...new Set([...(await q.memberIds(tx, companyId, chat.id)), ...pair])],
            at,
          );
          if (created) await raiseChat(tx, raise, companyId, chat.id, "create");
          await post(
            tx,
            raise,
            companyId,
            chat.id,
            author,
            note.note.slice(0, CHAT_LIMITS.messageMax),
            ticket.id,
            [],
          );
        });
      }
    },
  };
}

export type ChatsService = ReturnType<typeof createChatsService>;
