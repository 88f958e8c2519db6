import {
  type AnnouncementEventPayload,
  chatRoomEvent,
  chatUserEvent,
  companyEvent,
  contactListEvent,
  contactListImportEvent,
  contactListItemEvent,
  contactListItemsOfListEvent,
  fileListEvent,
} from "@atende/contracts";
import type { DomainEvent } from "../events/bus.js";
import { type AppServer, audienceOf, presenceRooms, quickMessageRooms, rooms, ticketRooms } from "./rooms.js";

/** What the fan-out asks of the socket server around it (realtime/index.ts). */
export interface FanoutHooks {
  /** A user's rooms follow their queues and profile. */
  refreshVisibility(companyId: number, userId: number): Promise<void>;
  /** Logout or a password change: the revoked sessions' sockets go. */
  cutSessions(userId: number, keepSessionId?: string): void;
  /** A company changed: its standing is read again here and on the other instances; it may lock or open. */
  companyChanged(companyId: number): Promise<void>;
}

/**
 * Sends each committed domain event to the sockets that may hear it, and to no one else: the
 * company's room, its admins, a ticket's viewers, a chat's members, a user's own sockets, whoever
 * is shown users' presence.
 */
export function createFanout(
  io: AppServer,
  hooks: FanoutHooks,
  /** No Redis adapter: every socket that could hear an event is this server's own (see audienceOf). */
  roomsAreLocal = false,
): (event: DomainEvent) => Promise<void> | void {
  const toRooms = audienceOf(io, roomsAreLocal);
  /**
   * `company-announcement` goes to the companies it is addressed to, room by room (to every socket
   * only when it is for every company); companies it no longer reaches hear it left.
   */
  function announceTo(
    audience: { allCompanies: boolean; companyIds: number[] },
    previous: { allCompanies: boolean; companyIds: number[] } | undefined,
    payload: AnnouncementEventPayload,
  ) {
    const roomsOf = (ids: number[]) => ids.map((id) => rooms.company(id));
    // io.to([]) would reach everyone: an empty list reaches no one.
    if (audience.allCompanies) io.emit("company-announcement", payload);
    else if (audience.companyIds.length)
      toRooms(roomsOf(audience.companyIds)).emit("company-announcement", payload);
    if (!previous || payload.action === "delete") return;
    const gone = { action: "delete" as const, id: payload.record.id };
    if (previous.allCompanies && !audience.allCompanies)
      io.except(roomsOf(audience.companyIds)).emit("company-announcement", gone);
    else if (!previous.allCompanies && !audience.allCompanies) {
      const left = previous.companyIds.filter((id) => !audience.companyIds.includes(id));
      if (left.length) toRooms(roomsOf(left)).emit("company-announcement", gone);
    }
  }

  /**
   * Only the chat's members, in their own rooms: nobody else hears a word of it. Besides
   * `company-{id}-chat`, what the Whaticket SaaS chat page listens to: each member's
   * `-chat-user-{userId}` for chats made or changed, the chat's `-chat-{chatId}` for its messages
   * and read marks.
   */
  function chatChanged(event: Extract<DomainEvent, { type: "chat.changed" }>) {
    const { companyId, memberIds, payload } = event;
    const name = companyEvent(companyId, "chat");
    const members = memberIds.map(rooms.user);
    if (members.length) toRooms(members).emit(name, payload);
    if (event.leftIds?.length && payload.action !== "delete")
      toRooms(event.leftIds.map(rooms.user)).emit(name, {
        action: "delete",
        id: payload.chat.id,
        uuid: payload.chat.uuid,
      });
    if (!members.length) return;
    if (payload.action === "new-message")
      toRooms(members).emit(chatRoomEvent(companyId, payload.chat.id), payload);
    else if (payload.action === "update" && event.read)
      toRooms(members).emit(chatRoomEvent(companyId, payload.chat.id), {
        action: "update",
        chat: payload.chat,
      });
    else if (payload.action !== "delete")
      for (const userId of memberIds)
        toRooms(rooms.user(userId)).emit(chatUserEvent(companyId, userId), {
          action: payload.action,
          record: payload.chat,
        });
  }

  /** The older sessions of a user who just logged in are told, then cut (see "session.started"). */
  async function cutOlderSessions(event: Extract<DomainEvent, { type: "session.started" }>) {
    // Only the user's sessions older than this login hear it; a few seconds later exactly those
    // sockets are cut (their refresh tokens are already revoked). A newer login is never touched.
    const older = io.in(rooms.user(event.userId)).except(rooms.session(event.sessionId));
    const ids = (await older.fetchSockets()).map((s) => s.id);
    if (ids.length === 0) return;
    toRooms(ids).emit(companyEvent(event.companyId, "auth"), {
      action: "update",
      user: { id: event.userId },
    });
    setTimeout(() => io.in(ids).disconnectSockets(true), 3_000).unref();
  }

  // Not async: a promise only for the few events that wait for something, none per message (the
  // bus awaits what a listener returns, a turn of the microtask queue each).
  return function heard(event: DomainEvent): Promise<void> | void {
    switch (event.type) {
      case "user.presence":
        // Only to those shown presence (users page, dashboard) and the user's own sockets; a user
        // created, edited or deleted (user.saved) still goes to the whole company.
        toRooms(presenceRooms(event.companyId, event.user.id)).emit(companyEvent(event.companyId, "user"), {
          action: "update",
          user: event.user,
        });
        break;
      case "user.saved":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "user"), {
          action: event.action,
          user: event.user,
        });
        return hooks.refreshVisibility(event.companyId, event.user.id);
      case "whatsapp.saved":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "whatsapp"), {
          action: "update",
          whatsapp: event.whatsapp,
        });
        break;
      case "whatsapp.deleted":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "whatsapp"), {
          action: "delete",
          whatsappId: event.whatsappId,
        });
        break;
      case "whatsapp.session":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "whatsappSession"), {
          action: "update",
          session: event.session,
        });
        break;
      case "whatsapp.history":
        toRooms(rooms.company(event.companyId)).emit(
          companyEvent(event.companyId, "whatsappHistory"),
          event.progress,
        );
        // No `previous`: a ticket the import wrote to is shown where it belongs, never rung as arriving.
        for (const ticket of event.tickets)
          toRooms(ticketRooms(event.companyId, ticket)).emit(companyEvent(event.companyId, "ticket"), {
            action: "update",
            ticket,
          });
        break;
      case "ticket.saved": {
        // Who sees the ticket now hears the update; who saw it before and no longer may hears it left.
        const name = companyEvent(event.companyId, "ticket");
        const seeing = ticketRooms(event.companyId, event.ticket);
        // Whoever has the chat open but may no longer see the ticket leaves its chat box.
        const chatBox = rooms.chatBox(event.companyId, event.ticket.id);
        if (event.previous) io.in(chatBox).except(seeing).socketsLeave(chatBox);
        const saw =
          event.previous && ticketRooms(event.companyId, { id: event.ticket.id, ...event.previous });
        // A new status or agent: clients keeping one list per status first drop it from the old
        // status' list, as the backends of this API family tell them; here, only whoever saw it there.
        const from = event.previous?.status;
        if (saw && from && (from !== event.ticket.status || event.previous!.userId !== event.ticket.userId))
          toRooms(saw).emit(name, { action: "delete", ticketId: event.ticket.id, fromStatus: from });
        // Where it was: the in-app alerts tell a waiting ticket that just came into one's queues.
        const before = event.previous && { queueId: event.previous.queueId, userId: event.previous.userId };
        toRooms(seeing).emit(name, {
          action: "update",
          ticket: event.ticket,
          ...(before ? { previous: before } : {}),
        });
        if (saw) {
          const left = saw.filter((room) => !seeing.includes(room));
          if (left.length)
            toRooms(left).except(seeing).emit(name, { action: "delete", ticketId: event.ticket.id });
        }
        break;
      }
      case "contact.deleted":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "contact"), {
          action: "delete",
          contactId: event.contactId,
        });
        break;
      case "tag.changed":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "tag"), event.payload);
        break;
      case "queue.saved":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "queue"), {
          action: event.action,
          queue: event.queue,
        });
        break;
      case "queue.deleted":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "queue"), {
          action: "delete",
          queueId: event.queueId,
        });
        break;
      case "ticket.slaBreached": {
        // The queue's viewers and the admins only; nobody of another queue (nor the ticket's chat box).
        const { ticket } = event;
        const to = [
          rooms.admins(event.companyId),
          ticket.queueId === null
            ? rooms.noQueue(event.companyId)
            : rooms.queue(event.companyId, ticket.queueId),
        ];
        toRooms(to).emit(companyEvent(event.companyId, "ticketSla"), {
          action: "breach",
          ticketId: ticket.id,
          ticketUuid: ticket.uuid,
          queueId: ticket.queueId,
          target: event.target,
          dueAt: event.dueAt,
          contactName: ticket.contact.name || ticket.contact.number,
        });
        break;
      }
      case "ticket.read":
        toRooms(ticketRooms(event.companyId, event.ticket)).emit(companyEvent(event.companyId, "ticket"), {
          action: "updateUnread",
          ticketId: event.ticket.id,
        });
        break;
      case "ticket.deleted":
        toRooms(
          ticketRooms(event.companyId, { id: event.ticketId, queueId: event.queueId, userId: event.userId }),
        ).emit(companyEvent(event.companyId, "ticket"), { action: "delete", ticketId: event.ticketId });
        break;
      case "message.saved":
        toRooms(ticketRooms(event.companyId, event.ticket)).emit(
          companyEvent(event.companyId, "appMessage"),
          {
            action: event.action,
            message: event.message,
            ticket: event.ticket,
            contact: event.contact,
          },
        );
        break;
      case "contact.saved":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "contact"), {
          action: event.action,
          contact: event.contact,
        });
        break;
      case "presence":
        // What the contact is doing matters only to whoever has their chat open.
        toRooms(rooms.chatBox(event.companyId, event.ticket.id)).emit(
          companyEvent(event.companyId, "presence"),
          {
            ticketId: event.ticket.id,
            presence: event.presence,
          },
        );
        break;
      case "ticketNote.changed":
        toRooms(ticketRooms(event.companyId, event.ticket)).emit(
          companyEvent(event.companyId, "ticketNote"),
          event.payload,
        );
        break;
      case "quickMessage.changed": {
        const name = companyEvent(event.companyId, "quickmessage");
        const hearing = quickMessageRooms(event.companyId, event.audience);
        toRooms(hearing).emit(name, event.payload);
        // Made personal: who heard of it before and no longer may hears it is gone.
        if (event.previousAudience && event.payload.action !== "delete") {
          const left = quickMessageRooms(event.companyId, event.previousAudience).filter(
            (room) => !hearing.includes(room),
          );
          if (left.length)
            toRooms(left).except(hearing).emit(name, { action: "delete", id: event.payload.record.id });
        }
        break;
      }
      case "chat.changed":
        chatChanged(event);
        break;
      case "campaign.changed":
        // Admins only: the campaign pages are theirs.
        toRooms(rooms.admins(event.companyId)).emit(`company-${event.companyId}-campaign`, event.payload);
        break;
      case "schedule.changed":
        toRooms(rooms.company(event.companyId)).emit(
          companyEvent(event.companyId, "schedule"),
          event.payload,
        );
        break;
      // Contact lists are the campaigns' audiences: admins only, as their pages are.
      case "contactList.changed":
        toRooms(rooms.admins(event.companyId)).emit(contactListEvent(event.companyId), event.payload);
        break;
      case "contactListItem.changed":
        toRooms(rooms.admins(event.companyId)).emit(contactListItemEvent(event.companyId), event.payload);
        break;
      case "contactListItems.imported": {
        const admins = toRooms(rooms.admins(event.companyId));
        if (admins.none) break;
        const { contactListId } = event;
        return event.records().then((records) => {
          admins.emit(contactListItemsOfListEvent(event.companyId, contactListId), {
            action: "reload",
            contactListId,
            records,
          });
        });
      }
      case "contactListImport.progress":
        toRooms(rooms.admins(event.companyId)).emit(contactListImportEvent(event.companyId), event.payload);
        break;
      case "fileList.changed":
        toRooms(rooms.company(event.companyId)).emit(fileListEvent(event.companyId), event.payload);
        break;
      // Only admins manage bots (bots:manage); the payloads hold no secret, but agents need none of it.
      case "queueIntegration.changed":
        toRooms(rooms.admins(event.companyId)).emit(
          companyEvent(event.companyId, "queueIntegration"),
          event.payload,
        );
        break;
      case "prompt.changed":
        toRooms(rooms.admins(event.companyId)).emit(companyEvent(event.companyId, "prompt"), event.payload);
        break;
      case "announcement.changed":
        announceTo(event.audience, event.previousAudience, event.payload);
        break;
      case "simulator.phone":
        toRooms(rooms.admins(event.companyId)).emit(companyEvent(event.companyId, "simulator"), {
          whatsappId: event.whatsappId,
          number: event.number,
          message: event.message,
        });
        break;
      case "user.deleted":
        toRooms(rooms.company(event.companyId)).emit(companyEvent(event.companyId, "user"), {
          action: "delete",
          userId: event.userId,
        });
        io.in(rooms.user(event.userId)).disconnectSockets(true);
        break;
      case "session.revoked":
        // A refresh token used twice killed the session: its sockets go with it.
        io.in(rooms.session(event.sessionId)).disconnectSockets(true);
        break;
      case "user.sessionsRevoked":
        // Logout or a password change: the revoked sessions' sockets go now (through the adapter).
        hooks.cutSessions(event.userId, event.keepSessionId);
        break;
      case "company.saved":
        return hooks.companyChanged(event.companyId);
      case "payment.confirmed":
        toRooms([rooms.company(event.companyId), rooms.pastDue(event.companyId)]).emit(
          companyEvent(event.companyId, "payment"),
          event.payload,
        );
        break;
      case "session.started":
        return cutOlderSessions(event);
    }
  };
}
