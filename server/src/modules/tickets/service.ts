import {
  type TicketCreateInput,
  type TicketDTO,
  type TicketListQuery,
  type TicketUpdateInput,
  type TicketsPage,
  can,
} from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError, retryableOr } from "../../http/errors.js";
import { requirePlanForLinks } from "../../http/plan.js";
import { findUser, viewerScopeOf } from "../users/queries.js";
import { findWhatsappRow } from "../whatsapps/queries.js";
import { companyTimeZone } from "../settings/queries.js";
import { type ViewerScope, canSeeTicket, ticketPolicy } from "./policy.js";
import { openOrFindLiveTicket } from "./openLive.js";
import * as q from "./queries.js";
import { pageTickets } from "./searchQueries.js";
import {
  ChangedMeanwhile,
  TICKET_COMMANDS,
  type TicketContext,
  checkQueue,
  checkUser,
  commandOf,
  otherOpenTicket,
} from "./commands.js";

type TicketsDeps = Pick<Deps, "db" | "bus" | "now">;

export type TicketRow = q.TicketRecord;

export function createTicketsService({ db, bus, now }: TicketsDeps) {
  const ctx: TicketContext = { db, bus, now };
  /**
   * The caller's scope, read once per request (the caller's context is the request's): a
   * conversation page asks for it twice, to check the ticket and to filter its history.
   */
  const scopes = new WeakMap<AuthContext, Promise<ViewerScope>>();
  function scopeOf(actor: AuthContext): Promise<ViewerScope> {
    let scope = scopes.get(actor);
    if (!scope) {
      scope = viewerScopeOf(db, actor.companyId, actor.userId).then(
        (found) => found ?? { queueIds: [], allTicket: false },
      );
      scopes.set(actor, scope);
      // A failed read is not kept for the request's next question.
      scope.catch(() => scopes.delete(actor));
    }
    return scope;
  }

  /** A ticket of the caller's company that the caller may see: 404 for another company's, 403 for one outside their queues. */
  async function visibleTicket(actor: AuthContext, ticket: TicketRow | null): Promise<TicketRow> {
    if (!ticket) throw new AppError("ERR_NO_TICKET_FOUND");
    if (!canSeeTicket(actor, await scopeOf(actor), ticket)) throw new AppError("ERR_TICKET_ACCESS_DENIED");
    return ticket;
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
      const page = await pageTickets(
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
      if (input.queueId) await checkQueue(ctx, actor.companyId, input.queueId);
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
      if (userId !== actor.userId) await checkUser(ctx, actor.companyId, userId);
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
      return opened ?? otherOpenTicket(ctx, actor.companyId, contact.id, whatsappId);
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
          return await TICKET_COMMANDS[commandOf(ticket, input)](ctx, actor, ticket, input);
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
