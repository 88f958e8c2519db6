import type { ContactDTO } from "./contacts.js";
import type { MessageDTO } from "./messages.js";
import type { SimulatorPhoneMessage } from "./simulator.js";
import type { TicketDTO } from "./tickets.js";
import type { UserDTO } from "./users.js";
import type { WhatsappDTO, WhatsappSessionDTO } from "./whatsapps.js";
import type { TagDTO } from "./tags.js";
import type { QueueDetailDTO } from "./queues.js";
import type { TicketNoteDTO } from "./ticketNotes.js";
import type { QuickMessageDTO } from "./quickMessages.js";
import type { ScheduleDTO } from "./schedules.js";
import type { ChatDTO, ChatMessageEventDTO, ChatServerEvents } from "./chats.js";
import type { AnnouncementServerEvents } from "./announcements.js";
import type { CampaignServerEvents } from "./campaigns.js";
import type { ContactListServerEvents } from "./contactLists.js";
import type { FileListServerEvents } from "./files.js";
import type { PaymentEventPayload } from "./billing.js";
import type { QueueIntegrationEvent } from "./queueIntegrations.js";
import type { PromptEvent } from "./prompts.js";
import type { SlaBreachEvent } from "./serviceLevels.js";

/**
 * The live channel: the spec's event names (`company-{id}-user`, ...) and their payloads. Server
 * events are named per company; `companyEvent` builds the name so a typo cannot slip in.
 */
export interface CompanyEventPayloads {
  user: { action: "create" | "update"; user: UserDTO } | { action: "delete"; userId: number };
  /** The company was made inactive or went past its due date: its sockets close right after. */
  locked: { error: "ERR_SUBSCRIPTION_EXPIRED" | "ERR_COMPANY_INACTIVE" };
  /** A login of `user` elsewhere: older sessions of that user log out. */
  auth: { action: "update"; user: { id: number } };
  whatsapp: { action: "update"; whatsapp: WhatsappDTO } | { action: "delete"; whatsappId: number };
  whatsappSession: { action: "update"; session: WhatsappSessionDTO };
  /**
   * A WhatsApp Web connection importing its history after being linked: the messages imported so far
   * in this run; `running` false once the phone said it sent everything (or nothing more came).
   */
  whatsappHistory: WhatsappHistoryProgress;
  appMessage: { action: "create" | "update"; message: MessageDTO; ticket: TicketDTO; contact: ContactDTO };
  ticket:
    | {
        action: "update";
        ticket: TicketDTO;
        /** Where the ticket was seen before this change (queue, agent), when it moved. */
        previous?: { queueId: number | null; userId: number | null };
      }
    /**
     * Gone from the listener's view. With `fromStatus`, it only left that status (or agent): clients
     * keeping one list per status drop it there, and the `update` right after places it again.
     */
    | { action: "delete"; ticketId: number; fromStatus?: TicketDTO["status"] }
    | { action: "updateUnread"; ticketId: number };
  contact: { action: "create" | "update"; contact: ContactDTO } | { action: "delete"; contactId: number };
  presence: { ticketId: number; presence: "composing" | "recording" | "available" };
  tag: { action: "create" | "update"; tag: TagDTO } | { action: "delete"; tagId: number };
  queue: { action: "create" | "update"; queue: QueueDetailDTO } | { action: "delete"; queueId: number };
  /** A simulated phone received a message, or an ack on it changed (admins only). */
  simulator: { whatsappId: number; number: string; message: SimulatorPhoneMessage };
  /** A note added to or removed from a ticket: heard by who may see that ticket. */
  ticketNote:
    { action: "create"; note: TicketNoteDTO } | { action: "delete"; noteId: number; ticketId: number };
  /** Global ones reach the company; personal ones their author and the admins. */
  quickmessage: { action: "create" | "update"; record: QuickMessageDTO } | { action: "delete"; id: number };
  schedule: { action: "create" | "update"; schedule: ScheduleDTO } | { action: "delete"; scheduleId: number };
  /**
   * The internal chat, heard only by the chat's members (their user rooms): a chat made, changed or
   * read (`chat`, with every member's unreads), a new message (`newMessage` with its chat, and the
   * chat after it), and `delete` when the chat is gone or the listener no longer belongs to it. The
   * same changes go on the members' `-chat-user-{userId}` and the chat's `-chat-{chatId}` channels
   * (ChatServerEvents), as the Whaticket SaaS front end listens.
   */
  chat:
    | { action: "create" | "update"; chat: ChatDTO }
    | { action: "new-message"; newMessage: ChatMessageEventDTO; chat: ChatDTO }
    | { action: "delete"; id: number; uuid: string };
  /** A payment settled one of the company's invoices (billing): the due date moved. */
  payment: PaymentEventPayload;
  /** A bot integration made, changed or deleted (admins of the company). */
  queueIntegration: QueueIntegrationEvent;
  /** An AI prompt made, changed or deleted (admins of the company). */
  prompt: PromptEvent;
  /** A ticket missed a service-level target (once per ticket and target): its queue's agents and the admins. */
  ticketSla: SlaBreachEvent;
}
export type CompanyEventName = keyof CompanyEventPayloads;

/** The history import of one connection (`company-{id}-whatsappHistory`). */
export interface WhatsappHistoryProgress {
  whatsappId: number;
  /** Messages stored so far by this import (already stored ones and those too old are not counted). */
  imported: number;
  running: boolean;
  /** ISO time of this report: a screen stops showing a run it has not heard of for a while. */
  at: string;
}

export function companyEvent<N extends CompanyEventName>(
  companyId: number,
  name: N,
): `company-${number}-${N}` {
  return `company-${companyId}-${name}` as `company-${number}-${N}`;
}

/**
 * Events the server sends: every company event by its per-company name, and `ready` once the
 * socket has joined its rooms. The server's Socket.IO instance is typed by it, so an event name or a
 * payload that is not here fails to compile.
 */
export type ServerToClientEvents = {
  [N in CompanyEventName as `company-${number}-${N}`]: (payload: CompanyEventPayloads[N]) => void;
} & { ready: () => void } & AnnouncementServerEvents &
  ContactListServerEvents &
  ChatServerEvents &
  FileListServerEvents &
  CampaignServerEvents;

/** Events the server's instances send each other (through the Redis adapter). */
export interface InterServerEvents {
  /** A company's status or due date changed: each instance forgets its copy of the company's standing. */
  companyChanged: (companyId: number) => void;
}

/** Events the client sends. Joins answer through the ack with `{ ok }` or `{ ok: false, error }`. */
export interface ClientToServerEvents {
  joinNotification: (ack?: (res: JoinAck) => void) => void;
  joinTickets: (status: string, ack?: (res: JoinAck) => void) => void;
  leaveTickets: (status: string) => void;
  joinChatBox: (ticketId: string | number, ack?: (res: JoinAck) => void) => void;
  leaveChatBox: (ticketId: string | number) => void;
  userStatus: () => void;
}

export type JoinAck = { ok: true } | { ok: false; error: string };

export const TICKET_STATUSES = ["pending", "open", "closed"] as const;
