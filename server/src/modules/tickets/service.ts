import {
  type TicketCreateInput,
  type TicketDTO,
  type TicketListQuery,
  type TicketUpdateInput,
  type TicketsPage,
  can,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { type AutomaticMessage, inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError, retryableOr } from "../../http/errors.js";
import { dbErrorCode } from "../../db/errors.js";
import { requirePlanForLinks } from "../../http/plan.js";
import { companyQueueIds } from "../queues/queries.js";
import { findUser } from "../users/queries.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { companySetting, companySettings, companyTimeZone } from "../settings/queries.js";
import { acceptGreeting, transferNotice } from "./automaticMessages.js";
import { type ViewerScope, canSeeTicket, ticketPolicy } from "./policy.js";
import { openOrFindLiveTicket } from "./openLive.js";
import * as q from "./queries.js";
import { ratingQuestion } from "./rating.js";

type TicketsDeps = Pick<Deps, "db" | "bus" | "now">;

export type TicketRow = q.TicketRecord;

/** The ticket's status or agent changed between reading it and writing it. */
class ChangedMeanwhile extends Error {}

/** The commands of PUT /tickets/{id}; which one a body asks for is decided by `commandOf`. */
export type TicketCommand = "accept" | "resolve" | "return" | "reopen" | "transfer";

/**
 * The spec's status table read from a body (see ticketUpdateSchema): status "open" accepts a
 * waiting or in-service ticket and reopens a closed one; "closed" resolves, "pending" returns; no
 * status transfers (queue, agent, connection) or only sets the integration fields.
 */
export function commandOf(ticket: { status: string }, input: TicketUpdateInput): TicketCommand {
  switch (input.status) {
    case "open":
      return ticket.status === "closed" ? "reopen" : "accept";
    case "closed":
      return "resolve";
    case "pending":
      return "return";
    default:
      return "transfer";
  }
}

/** What a command writes, and what follows from it in the same transaction. */
interface TicketChange {
  patch: q.TicketPatch;
  /** pending → open: the timeline's acceptedAt. */
  accepting: boolean;
  /** The automatic message the change sends the customer, read before the transaction. */
  message: AutomaticMessage | null;
}

export function createTicketsService({ db, bus, now }: TicketsDeps) {
  async function scopeOf(actor: AuthContext): Promise<ViewerScope> {
    const user = await findUser(db, actor.companyId, actor.userId);
    return { queueIds: user?.queues.map((x) => x.id) ?? [], allTicket: user?.allTicket === "enabled" };
  }

  /** A ticket of the caller's company that the caller may see: 404 for another company's, 403 for one outside their queues. */
  async function visibleTicket(actor: AuthContext, ticket: TicketRow | null): Promise<TicketRow> {
    if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND");
    if (!canSeeTicket(actor, await scopeOf(actor), ticket)) throw new AppError("ERR_TICKET_ACCESS_DENIED");
    return ticket;
  }

  async function otherOpenTicket(
    companyId: number,
    contactId: number,
    whatsappId: number | null,
  ): Promise<never> {
    const holder = await q.liveTicketOf(db, companyId, contactId, whatsappId);
    throw new AppError("ERR_OTHER_OPEN_TICKET", {
      ticketId: holder?.id ?? null,
      userName: holder?.user_name ?? null,
      queueName: holder?.queue_name ?? null,
    });
  }

  async function checkUser(companyId: number, userId: number) {
    if (!(await findUser(db, companyId, userId))) throw new AppError("ERR_NO_USER_FOUND");
  }

  async function checkQueue(companyId: number, queueId: number) {
    if ((await companyQueueIds(db, companyId, [queueId])).length !== 1)
      throw new AppError("ERR_NO_QUEUE_FOUND");
  }

  /** Reading a ticket as its agent: unread goes to zero and the customer gets read receipts. */
  async function markRead(companyId: number, ticket: TicketRow) {
    if (ticket.unreadMessages === 0) return;
    await inTransaction(db, bus, async (tx, raise) => {
      const wids = await q.markTicketRead(tx, companyId, ticket.id);
      const read = (await q.loadTicket(tx, companyId, ticket.id))!;
      raise({ type: "ticket.saved", companyId, ticket: read });
      // The read receipts are queued by the messages module's follower of ticket.read.
      raise({ type: "ticket.read", companyId, ticket: read, wids });
    });
  }

  /** A ticket opened by someone who may see it: its own agent opening it has read it. */
  async function opened(actor: AuthContext, ticket: TicketRow): Promise<TicketDTO> {
    if (ticket.userId === actor.userId) await markRead(actor.companyId, ticket);
    return (await q.loadTicket(db, actor.companyId, ticket.id))!;
  }

  /** The fields any command may carry besides status and agent: queue, connection, integration. */
  async function fieldsOf(actor: AuthContext, input: TicketUpdateInput): Promise<q.TicketPatch> {
    const patch: q.TicketPatch = {};
    if (input.queueId !== undefined) {
      if (input.queueId !== null) await checkQueue(actor.companyId, input.queueId);
      patch.queueId = input.queueId;
    }
    if (input.whatsappId !== undefined && input.whatsappId !== null) {
      if (!(await findWhatsappRow(db, actor.companyId, input.whatsappId)))
        throw new AppError("ERR_NO_WAPP_FOUND");
      patch.whatsappId = input.whatsappId;
    }
    return patch;
  }

  function integrationOf(input: TicketUpdateInput): q.TicketPatch {
    const patch: q.TicketPatch = {};
    if (input.useIntegration !== undefined) patch.useIntegration = input.useIntegration;
    if (input.promptId !== undefined) patch.promptId = input.promptId;
    if (input.integrationId !== undefined) patch.integrationId = input.integrationId;
    return patch;
  }

  /**
   * The automatic message a command sends (none to groups), read before its transaction opens: on
   * PGlite a query outside `tx` would wait for it forever.
   * - accept: the agent's greeting (setting sendGreetingAccepted);
   * - resolve: the connection's rating question (setting userRating) or else its completion message;
   * - transfer to another queue: the notice naming the queue (setting sendMsgTransfTicket).
   */
  async function automaticMessage(
    actor: AuthContext,
    ticket: TicketRow,
    event:
      | { kind: "accept" }
      | { kind: "resolve"; whatsappId: number | null }
      | { kind: "transfer"; queueId: number; whatsappId: number | null },
  ): Promise<AutomaticMessage | null> {
    if (ticket.isGroup) return null;
    if (event.kind === "accept") {
      if ((await companySetting(db, actor.companyId, "sendGreetingAccepted")) !== "enabled") return null;
      const me = await findUser(db, actor.companyId, actor.userId);
      const contact = await q.findContactRow(db, actor.companyId, ticket.contactId);
      return { body: acceptGreeting(contact?.name ?? "", me?.name ?? ""), userId: actor.userId };
    }
    const settings = await companySettings(db, actor.companyId);
    const connection =
      event.whatsappId === null ? null : await findWhatsappRow(db, actor.companyId, event.whatsappId);
    if (event.kind === "resolve") {
      // The ticket closes at once; the bot state (ratingAsks) keeps the rating awaited, and the
      // customer's answer still reaches this closed ticket for a while (RATING_WAIT_MS).
      if (settings.userRating === "enabled" && connection?.ratingMessage.trim())
        return { body: ratingQuestion(connection), asksRating: true };
      return connection?.complationMessage.trim() ? { body: connection.complationMessage } : null;
    }
    if (settings.sendMsgTransfTicket !== "enabled") return null;
    const queueName = await q.queueNameOf(db, actor.companyId, event.queueId);
    return queueName ? { body: transferNotice(queueName) } : null;
  }

  /** pending → open (or an in-service ticket taken again): the ticket becomes the caller's. */
  async function acceptTicket(actor: AuthContext, ticket: TicketRow, input: TicketUpdateInput) {
    if (!ticketPolicy.mayTake(actor, ticket)) throw new AppError("ERR_NO_PERMISSION");
    const accepting = ticket.status === "pending";
    const patch = await takenBy(actor, input);
    return commit(actor, ticket, {
      patch,
      accepting,
      message: accepting ? await automaticMessage(actor, ticket, { kind: "accept" }) : null,
    });
  }

  /** closed → open: the caller's again, the timeline's finish undone, no rating awaited any more. */
  async function reopenTicket(actor: AuthContext, ticket: TicketRow, input: TicketUpdateInput) {
    return commit(actor, ticket, { patch: await takenBy(actor, input), accepting: false, message: null });
  }

  async function takenBy(actor: AuthContext, input: TicketUpdateInput): Promise<q.TicketPatch> {
    const userId = ticketPolicy.assignee(actor, input.userId);
    const patch = { status: "open" as const, userId, ...(await fieldsOf(actor, input)) };
    if (userId !== actor.userId) await checkUser(actor.companyId, userId);
    return { ...patch, ...integrationOf(input) };
  }

  /** → closed: the rating question or the completion message goes to the customer. */
  async function resolveTicket(actor: AuthContext, ticket: TicketRow, input: TicketUpdateInput) {
    const patch = { status: "closed" as const, ...(await fieldsOf(actor, input)), ...integrationOf(input) };
    const message =
      ticket.status !== "closed"
        ? await automaticMessage(actor, ticket, {
            kind: "resolve",
            whatsappId: patch.whatsappId ?? ticket.whatsappId,
          })
        : null;
    return commit(actor, ticket, { patch, accepting: false, message });
  }

  /** → pending, no agent: back to waiting. */
  async function returnTicket(actor: AuthContext, ticket: TicketRow, input: TicketUpdateInput) {
    const patch = {
      status: "pending" as const,
      userId: null,
      ...(await fieldsOf(actor, input)),
      ...integrationOf(input),
    };
    return commit(actor, ticket, { patch, accepting: false, message: null });
  }

  /**
   * To a queue, an agent or a connection. An agent chosen: theirs, open (a closed ticket stays
   * closed). A queue chosen with no agent: back to waiting in that queue. With none of the three,
   * only the integration fields change.
   */
  async function transferTicket(actor: AuthContext, ticket: TicketRow, input: TicketUpdateInput) {
    const patch = await fieldsOf(actor, input);
    if (input.userId) {
      await checkUser(actor.companyId, input.userId);
      patch.userId = input.userId;
      patch.status = ticket.status === "closed" ? "closed" : "open";
    } else if (input.queueId !== undefined) {
      patch.userId = null;
      patch.status = "pending";
    }
    Object.assign(patch, integrationOf(input));
    const queueMoved =
      patch.queueId !== undefined && patch.queueId !== null && patch.queueId !== ticket.queueId;
    const message = queueMoved
      ? await automaticMessage(actor, ticket, {
          kind: "transfer",
          queueId: patch.queueId!,
          whatsappId: patch.whatsappId ?? ticket.whatsappId,
        })
      : null;
    return commit(actor, ticket, { patch, accepting: false, message });
  }

  /**
   * Writes a command's change if nobody changed the ticket's status or agent since it was read
   * (else ChangedMeanwhile, and `update` decides again), with its timeline step. Its `ticket.saved`
   * carries the automatic message; what follows a change is the followers' (listeners.ts): the
   * message queued (messages), the rating awaited or no longer awaited (chatbot), the bot stopped.
   */
  async function commit(actor: AuthContext, ticket: TicketRow, change: TicketChange): Promise<TicketDTO> {
    const { patch, accepting, message } = change;
    const id = ticket.id;
    const reopening = patch.status === "open" && ticket.status === "closed";
    let updated: TicketDTO;
    try {
      updated = await inTransaction(db, bus, async (tx, raise) => {
        if (
          !(await q.updateTicketIfUnchanged(tx, actor.companyId, id, ticket, { ...patch, updatedAt: now() }))
        )
          throw new ChangedMeanwhile();
        const at = now();
        const after = {
          id,
          companyId: actor.companyId,
          whatsappId: patch.whatsappId ?? ticket.whatsappId,
          queueId: patch.queueId !== undefined ? patch.queueId : ticket.queueId,
          userId: patch.userId !== undefined ? patch.userId : ticket.userId,
        };
        await q.track(
          tx,
          after,
          {
            ...(accepting ? { acceptedAt: at } : {}),
            ...(patch.queueId !== undefined && patch.queueId !== null
              ? { queuedAt: at }
              : ticket.queueId !== null
                ? { queuedAt: ticket.createdAt } // created in the connection's only queue
                : {}),
            ...(patch.status === "closed" ? { finishedAt: at } : {}),
            ...(reopening ? { finishedAt: null } : {}),
            ...(message?.asksRating ? { ratingAt: at } : {}),
          },
          at,
        );
        const saved = (await q.loadTicket(tx, actor.companyId, id))!;
        raise({
          type: "ticket.saved",
          companyId: actor.companyId,
          ticket: saved,
          previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
          ...(message ? { automaticMessage: message } : {}),
        });
        return saved;
      });
    } catch (err) {
      if (dbErrorCode(err) === "23505")
        return otherOpenTicket(actor.companyId, ticket.contactId, patch.whatsappId ?? ticket.whatsappId);
      throw err;
    }
    // The answer shows the automatic message as the ticket's last one, as its agent's list does.
    return message ? (await q.loadTicket(db, actor.companyId, id))! : updated;
  }

  const commands = {
    accept: acceptTicket,
    resolve: resolveTicket,
    return: returnTicket,
    reopen: reopenTicket,
    transfer: transferTicket,
  } satisfies Record<TicketCommand, unknown>;

  return {
    visibleTicket,
    markRead,
    scopeOf,

    /**
     * Of a ticket's conversation (the contact's tickets on its connection), the tickets whose
     * messages the caller may read; null: every one (an admin).
     */
    async readableHistory(actor: AuthContext, ticket: TicketRow): Promise<number[] | null> {
      if (ticketPolicy.readsWholeConversation(actor)) return null;
      if (ticket.whatsappId === null) return [ticket.id];
      const scope = await scopeOf(actor);
      const all = await q.conversationTickets(db, actor.companyId, ticket.contactId, ticket.whatsappId);
      return all.filter((t) => t.id === ticket.id || canSeeTicket(actor, scope, t)).map((t) => t.id);
    },

    async list(actor: AuthContext, query: TicketListQuery): Promise<TicketsPage> {
      const scope = await scopeOf(actor);
      const showAll = query.showAll && can(actor, "tickets-manager:showall");
      // Like showAll, a filter the caller may not use is left out rather than refused: the web
      // hides it from them (SearchFilters' withUserFilter).
      const users = ticketPolicy.filtersByUser(actor) ? query.users : [];
      const page = await q.pageTickets(
        db,
        actor.companyId,
        {
          ...scope,
          userId: actor.userId,
          isAdmin: ticketPolicy.seesEveryQueue(actor),
          showAll,
          timeZone: await companyTimeZone(db, actor.companyId),
        },
        { ...query, users },
      );
      return {
        tickets: await q.loadTickets(db, actor.companyId, page.ids),
        count: page.count,
        hasMore: page.hasMore,
      };
    },

    async get(actor: AuthContext, id: number): Promise<TicketDTO> {
      return opened(actor, await visibleTicket(actor, await q.findTicketRow(db, actor.companyId, id)));
    },

    async getByUuid(actor: AuthContext, uuid: string): Promise<TicketDTO> {
      return opened(actor, await visibleTicket(actor, await q.findTicketByUuid(db, actor.companyId, uuid)));
    },

    /** A ticket opened by an agent: status open, theirs, on the chosen (or default) connection. */
    async create(actor: AuthContext, input: TicketCreateInput): Promise<TicketDTO> {
      const contact = await q.findContactRow(db, actor.companyId, input.contactId);
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      if (!input.queueId && ticketPolicy.queueRequired(actor)) {
        throw new AppError("ERR_VALIDATION", { fields: { queueId: "Selecione uma fila" } });
      }
      if (input.queueId) await checkQueue(actor.companyId, input.queueId);
      const me = await findUser(db, actor.companyId, actor.userId);
      if (
        input.queueId &&
        !ticketPolicy.mayStartIn(actor, me?.queues.map((x) => x.id) ?? [], input.queueId)
      ) {
        throw new AppError("ERR_NO_PERMISSION");
      }
      let whatsappId = input.whatsappId ?? me?.whatsappId ?? null;
      if (whatsappId === null) {
        whatsappId = await q.defaultWhatsappId(db, actor.companyId);
        if (whatsappId === null) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
      } else if (!(await findWhatsappRow(db, actor.companyId, whatsappId))) {
        throw new AppError("ERR_NO_WAPP_FOUND");
      }
      const userId = ticketPolicy.assignee(actor, input.userId);
      if (userId !== actor.userId) await checkUser(actor.companyId, userId);
      // A database failure the agent can retry answers ERR_CREATING_TICKET, not a 500.
      const opened = await retryableOr("ERR_CREATING_TICKET", () =>
        inTransaction(db, bus, async (tx, raise) => {
          const found = await openOrFindLiveTicket(
            tx,
            raise,
            actor.companyId,
            { contactId: contact.id, whatsappId },
            {
              userId,
              queueId: input.queueId ?? null,
              status: input.status === "pending" ? "pending" : "open",
            },
            now(),
          );
          if (!found) throw new AppError("ERR_NO_CONTACT_FOUND");
          return found.saved;
        }),
      );
      // The contact has a live ticket on the connection already: who holds it is said.
      return opened ?? otherOpenTicket(actor.companyId, contact.id, whatsappId);
    },

    /**
     * PUT /tickets/{id}: the command the body asks for (commandOf), never on a stale reading.
     * Decided on the ticket as read; when another change landed first, decided again on the new state.
     */
    async update(actor: AuthContext, id: number, input: TicketUpdateInput): Promise<TicketDTO> {
      for (let attempt = 1; ; attempt++) {
        try {
          const ticket = await visibleTicket(actor, await q.findTicketRow(db, actor.companyId, id));
          // Pointing the ticket at a prompt or an integration needs the plan's flag.
          await requirePlanForLinks(db, actor.companyId, input, ticket);
          return await commands[commandOf(ticket, input)](actor, ticket, input);
        } catch (err) {
          if (!(err instanceof ChangedMeanwhile) || attempt >= 3) throw err;
        }
      }
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      const ticket = await q.findTicketRow(db, actor.companyId, id);
      if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND");
      authorize(actor, "ticket-options:deleteTicket");
      await inTransaction(db, bus, async (tx, raise) => {
        await q.deleteTicket(tx, actor.companyId, id);
        raise({
          type: "ticket.deleted",
          companyId: actor.companyId,
          ticketId: id,
          queueId: ticket.queueId,
          userId: ticket.userId,
        });
      });
    },

    /** Admin: closes every ticket of a status in the chosen queues (none chosen: all queues). */
    async closeAll(actor: AuthContext, status: "pending" | "open", queueIds: number[]): Promise<number> {
      authorize(actor, "tickets-manager:closeAll");
      return inTransaction(db, bus, async (tx, raise) => {
        const closed = await q.closeTicketsWhere(tx, actor.companyId, status, queueIds, now());
        // Returned values are the new ones: every closed ticket was in `status`.
        for (const dto of await q.loadTickets(
          tx,
          actor.companyId,
          closed.map((c) => c.id),
        )) {
          const before = closed.find((c) => c.id === dto.id)!;
          raise({
            type: "ticket.saved",
            companyId: actor.companyId,
            ticket: dto,
            previous: { queueId: before.queueId, userId: before.userId, status },
          });
        }
        return closed.length;
      });
    },
  };
}

export type TicketsService = ReturnType<typeof createTicketsService>;
