import type {
  AnnouncementEventPayload,
  CampaignEventPayload,
  CompanyEventPayloads,
  ContactDTO,
  ContactListEventPayload,
  ContactListImportEventPayload,
  ContactListItemEventPayload,
  ContactListItemsReloadPayload,
  FileListEventPayload,
  MessageDTO,
  PaymentEventPayload,
  QueueDetailDTO,
  SimulatorPhoneMessage,
  SlaTarget,
  TicketDTO,
  UserDTO,
  WEBHOOK_TEST_EVENT,
  WebhookEventName,
  WhatsappDTO,
  WhatsappHistoryProgress,
  WhatsappSessionDTO,
} from "@atende/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Db, Executor, Tx } from "../db/client.js";

/** Domain events: raised inside a transaction, delivered to listeners only after it commits. */
/**
 * A message a ticket command sends the customer on its own (isBot): the agent's greeting on accept,
 * the rating question or completion message on resolve, the notice of a transfer to another queue.
 * tickets/ decides it; the messages module's follower queues it, the chatbot's awaits the rating.
 */
export interface AutomaticMessage {
  body: string;
  /** Sent in this agent's name (the accept greeting). */
  userId?: number;
  /** The rating question: the customer's answer is awaited (tickets/rating.ts). */
  asksRating?: boolean;
}

export type DomainEvent =
  | { type: "user.saved"; action: "create" | "update"; companyId: number; user: UserDTO }
  | { type: "user.deleted"; companyId: number; userId: number }
  /** A user went online or offline (a socket connected, or none was seen for a while). */
  | { type: "user.presence"; companyId: number; user: UserDTO }
  | { type: "session.started"; companyId: number; userId: number; sessionId: string }
  /** One session revoked alone (a refresh token used twice): its access tokens stop working. */
  | { type: "session.revoked"; companyId: number; userId: number; sessionId: string }
  /**
   * Every session of a user revoked (logout, a password change) but `keepSessionId` (the one that
   * changed its own password): their sockets are cut at once, on every instance.
   */
  | { type: "user.sessionsRevoked"; companyId: number; userId: number; keepSessionId?: string }
  /**
   * A user was created without a password (a new company's first admin): they are e-mailed a code to
   * set one. Raised inside the creating transaction, so the mail is sent only if the user exists.
   */
  | { type: "user.invited"; companyId: number; userId: number }
  /** A company's status or due date changed: its standing is read again, its users locked or let in. */
  | { type: "company.saved"; companyId: number }
  | { type: "whatsapp.saved"; companyId: number; whatsapp: WhatsappDTO }
  | { type: "whatsapp.deleted"; companyId: number; whatsappId: number }
  | { type: "whatsapp.session"; companyId: number; session: WhatsappSessionDTO }
  /**
   * A connection's history import moved on (inbound/history.ts): its progress, and the tickets it
   * wrote to, shown in the lists as they are now; never as new messages, so no follower acts on it.
   */
  | {
      type: "whatsapp.history";
      companyId: number;
      progress: WhatsappHistoryProgress;
      tickets: TicketDTO[];
    }
  /**
   * A connection needs a person: `reason` an ERR_* code (a token Meta refused, an account disabled or
   * restricted), `detail` what Meta said. Its admins are mailed (whatsapps/alerts.ts, follower).
   */
  | { type: "whatsapp.alert"; companyId: number; whatsappId: number; reason: string; detail?: string }
  /**
   * `previous`: where the ticket was seen before this change (queue, agent), so those viewers hear it
   * left; with its status wherever the status may have changed, so lists per status hear it moved.
   */
  | {
      type: "ticket.saved";
      companyId: number;
      ticket: TicketDTO;
      previous?: { queueId: number | null; userId: number | null; status?: TicketDTO["status"] };
      /** What the command that made this change sends the customer (messages' follower sends it). */
      automaticMessage?: AutomaticMessage;
    }
  /**
   * The ticket's agent read it: unread went to zero (the lists drop the badge); `wids`: the
   * customer's messages now read, for WhatsApp's read receipts (messages' follower queues them).
   */
  | { type: "ticket.read"; companyId: number; ticket: TicketDTO; wids: string[] }
  /**
   * A ticket missed a service-level target (serviceLevels/jobs.ts), found once per ticket, target
   * and clock: its queue's agents and the admins hear `company-{id}-ticketSla` and get a push.
   */
  | { type: "ticket.slaBreached"; companyId: number; ticket: TicketDTO; target: SlaTarget; dueAt: string }
  | {
      type: "ticket.deleted";
      companyId: number;
      ticketId: number;
      queueId: number | null;
      userId: number | null;
    }
  | {
      type: "message.saved";
      companyId: number;
      action: "create" | "update";
      message: MessageDTO;
      ticket: TicketDTO;
      contact: ContactDTO;
      /** Stored by inbound's quiet statement, which queued the bot's turn on it (if it takes one). */
      turnQueued?: boolean;
    }
  | { type: "contact.saved"; companyId: number; action: "create" | "update"; contact: ContactDTO }
  | {
      type: "presence";
      companyId: number;
      ticket: TicketDTO;
      presence: "composing" | "recording" | "available";
    }
  | { type: "contact.deleted"; companyId: number; contactId: number }
  | { type: "tag.changed"; companyId: number; payload: CompanyEventPayloads["tag"] }
  | { type: "queue.saved"; action: "create" | "update"; companyId: number; queue: QueueDetailDTO }
  | { type: "queue.deleted"; companyId: number; queueId: number }
  /** A ticket's note added or removed; `ticket` says who may see it. */
  | {
      type: "ticketNote.changed";
      companyId: number;
      ticket: { id: number; queueId: number | null; userId: number | null };
      payload: CompanyEventPayloads["ticketNote"];
    }
  /** `audience`: the company for a global one; its author and the admins for a personal one. */
  | {
      type: "quickMessage.changed";
      companyId: number;
      audience: { geral: boolean; userId: number | null };
      /** Who heard of it before this change, so they hear it left when it became personal. */
      previousAudience?: { geral: boolean; userId: number | null };
      payload: CompanyEventPayloads["quickmessage"];
    }
  | { type: "schedule.changed"; companyId: number; payload: CompanyEventPayloads["schedule"] }
  /** A campaign made, changed, deleted, or a recipient's progress (campaigns module). */
  | { type: "campaign.changed"; companyId: number; payload: CampaignEventPayload }
  /** A bot integration or an AI prompt changed: the company's admins hear it. */
  | { type: "queueIntegration.changed"; companyId: number; payload: CompanyEventPayloads["queueIntegration"] }
  | { type: "prompt.changed"; companyId: number; payload: CompanyEventPayloads["prompt"] }
  /**
   * An internal chat changed: `memberIds` hear `payload`; `leftIds` (members removed by this change)
   * hear that the chat is gone for them. `read`: the change is only a member's read mark (heard on
   * the chat's own channel, not as a change of the members' chat lists).
   */
  | {
      type: "chat.changed";
      companyId: number;
      memberIds: number[];
      leftIds?: number[];
      read?: boolean;
      payload: CompanyEventPayloads["chat"];
    }
  /**
   * A platform announcement written by the super user (`companyId`: theirs, for the logs). Heard by
   * its addressees (`audience`), and by those it was addressed to before (`previousAudience`), who
   * hear it left.
   */
  | {
      type: "announcement.changed";
      companyId: number;
      audience: { allCompanies: boolean; companyIds: number[] };
      previousAudience?: { allCompanies: boolean; companyIds: number[] };
      payload: AnnouncementEventPayload;
    }
  /** Contact lists, their items, their imports' progress and file lists: heard by the whole company. */
  | { type: "contactList.changed"; companyId: number; payload: ContactListEventPayload }
  | { type: "contactListItem.changed"; companyId: number; payload: ContactListItemEventPayload }
  /** An import's batch added items to a list: heard on that list's own channel. */
  | {
      type: "contactListItems.imported";
      companyId: number;
      contactListId: number;
      /**
       * The batch's added items, read when someone can hear them: an import of 100,000 rows that
       * nobody watches made and presented every item (18 % of bench/import's rate), for no one.
       */
      records: () => Promise<ContactListItemsReloadPayload["records"]>;
    }
  | { type: "contactListImport.progress"; companyId: number; payload: ContactListImportEventPayload }
  | { type: "fileList.changed"; companyId: number; payload: FileListEventPayload }
  /** A payment settled an invoice (billing/settle.ts): the company hears `company-{id}-payment`. */
  | { type: "payment.confirmed"; companyId: number; payload: PaymentEventPayload }
  /**
   * An event only outbound webhooks hear (campaign.status, invoice.paid, the test event): `data` is
   * the entity as the API presents it; `entity` keeps one entity's deliveries in order.
   */
  | {
      type: "webhook.event";
      companyId: number;
      event: WebhookEventName | typeof WEBHOOK_TEST_EVENT;
      entity: string;
      data: unknown;
      /** Only this subscription hears it (the test event). */
      subscriptionId?: number;
    }
  | {
      type: "simulator.phone";
      companyId: number;
      whatsappId: number;
      number: string;
      message: SimulatorPhoneMessage;
    };

/** Heard after the commit: what only the living instance needs (sockets, caches, a poke). */
export type Listener = (event: DomainEvent) => void | Promise<void>;

/**
 * Runs inside the transaction that raised `events`, before it commits: work that must survive a
 * crash (a durable job) is written there, so it exists exactly when its cause does. Answers what
 * to do once committed (poke the job runner), if anything.
 */
/**
 * Runs in the transaction that raised `events`, before it commits; answers what to run once it
 * commits. A follower may `raise` events of its own (a ticket command's automatic message): they are
 * followed in turn, by every follower, and published after the events that caused them.
 */
export type Follower = (
  tx: Executor,
  events: readonly DomainEvent[],
  raise: Raise,
) => Promise<(() => void) | void>;

/**
 * What a follower says of a plain inbound batch: customers' messages (not calls) on tickets that are
 * already open, from contacts that exist and keep their names, that no campaign may take as an answer
 * (modules/inbound's quiet statement leaves every other message to the transaction with the
 * followers, and queues the bot's turns itself). Its events are message.saved (create) and the
 * tickets' ticket.saved (lastMessage, unread), with no `previous` and no automatic message. A
 * follower that would write nothing for them in `companyId` answers true; one that declares nothing
 * keeps every batch on the transactional path.
 */
export type QuietOnInbound = (db: Executor, companyId: number) => boolean | Promise<boolean>;

/** Rounds of followers raising events for one another before the bus gives up (a loop is a bug). */
const FOLLOW_ROUNDS = 4;

/**
 * The one way events go out. Listeners and followers are all registered in listeners.ts,
 * so what follows an event reads in one place.
 */
export class EventBus {
  private readonly listeners: Listener[] = [];
  private readonly followers: Follower[] = [];
  /** Each follower's QuietOnInbound, or null when it declared none. */
  private readonly quiet = new Map<Follower, QuietOnInbound | null>();
  private log: Pick<FastifyBaseLogger, "error"> = console;

  /** Where a failing listener is reported (the app's logger, once there is one). */
  logTo(log: Pick<FastifyBaseLogger, "error">): void {
    this.log = log;
  }

  on(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => this.listeners.splice(this.listeners.indexOf(listener), 1);
  }

  within(follower: Follower, quietOnInbound?: QuietOnInbound): () => void {
    this.followers.push(follower);
    this.quiet.set(follower, quietOnInbound ?? null);
    return () => {
      this.followers.splice(this.followers.indexOf(follower), 1);
      this.quiet.delete(follower);
    };
  }

  /**
   * True when every follower said it writes nothing for a plain inbound batch of `companyId` (see
   * QuietOnInbound): such a batch may commit as one statement, without the followers.
   */
  async quietOnInbound(db: Executor, companyId: number): Promise<boolean> {
    for (const follower of this.followers) {
      const quiet = this.quiet.get(follower);
      if (!quiet) return false;
      const answer = quiet(db, companyId);
      if (!(answer === true || (answer !== false && (await answer)))) return false;
    }
    return true;
  }

  /**
   * Runs the followers in the caller's transaction; answers what to run once it commits. A
   * follower's failure fails the transaction: its work is part of the commit. Events the followers
   * raise are appended to `events` (the caller publishes them with the others) and followed too.
   */
  async follow(tx: Executor, events: DomainEvent[]): Promise<() => void> {
    if (events.length === 0 || this.followers.length === 0) return () => undefined;
    const after: (() => void)[] = [];
    const raise: Raise = (event) => void events.push(event);
    for (let from = 0, round = 0; from < events.length; round++) {
      if (round === FOLLOW_ROUNDS) throw new Error("followers kept raising events for one another");
      const fresh = events.slice(from);
      from = events.length;
      for (const follower of this.followers) {
        const then = await follower(tx, fresh, raise);
        if (then) after.push(then);
      }
    }
    return () => after.forEach((then) => then());
  }

  /**
   * Delivers committed events in order. A failing listener is logged with the event's type and the
   * others still hear the event: the commit already happened, nothing can undo it.
   */
  async publish(events: DomainEvent[]): Promise<void> {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          // Most listeners pass most events by synchronously: only a promise is waited for (an
          // await of nothing still costs a turn of the microtask queue, ~20 per customer message).
          const pending = listener(event);
          if (pending) await pending;
        } catch (err) {
          this.log.error({ err, eventType: event.type, companyId: event.companyId }, "event listener failed");
        }
      }
    }
  }
}

export type Raise = (event: DomainEvent) => void;

/**
 * Runs `work` in one transaction; the followers write what the events it raised require before it
 * commits, and the events are published after the commit (dropped if it rolls back).
 */
export async function inTransaction<T>(
  db: Db,
  bus: EventBus,
  work: (tx: Tx, raise: Raise) => Promise<T>,
): Promise<T> {
  const events: DomainEvent[] = [];
  let committed = () => undefined as void;
  const result = await db.transaction(async (tx) => {
    const value = await work(tx, (e) => events.push(e));
    committed = await bus.follow(tx, events);
    return value;
  });
  committed();
  await bus.publish(events);
  return result;
}
