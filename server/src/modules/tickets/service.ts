import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  DEFAULT_TIMEZONE,
  type TicketCreateInput,
  type TicketDTO,
  type TicketListQuery,
  type TicketUpdateInput,
  type TicketsPage,
  can,
} from "@atende/contracts";
import { contacts, messages, queues, settings, tickets, whatsapps } from "../../db/schema/index.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize } from "../../http/auth.js";
import { AppError, dbErrorCode } from "../../http/errors.js";
import type { JobRunner } from "../../jobs/runner.js";
import { companyQueueIds, findUser } from "../users/queries.js";
import { findWhatsappRow } from "../whatsapps/present.js";
import { enqueueChannelAction } from "../messages/actions.js";
import { queueOutbound } from "../messages/outbound.js";
import {
  connectionOf,
  ratingQuestion,
  saveBotState,
  settingsOf,
  stopRatingWait,
  transferNotice,
} from "../chatbot/context.js";
import { track } from "../chatbot/tracking.js";
import { type ViewerScope, canSeeTicket } from "./policy.js";
import { loadTicket, loadTickets } from "./present.js";
import * as q from "./queries.js";

type TicketsDeps = Pick<Deps, "db" | "bus" | "now"> & { jobs: Pick<JobRunner, "poke"> };

export type TicketRow = NonNullable<Awaited<ReturnType<typeof q.findTicketRow>>>;

/** The ticket's status or agent changed between reading it and writing it. */
class ChangedMeanwhile extends Error {}

export function createTicketsService({ db, bus, now, jobs }: TicketsDeps) {
  async function scopeOf(actor: AuthContext): Promise<ViewerScope> {
    const user = await findUser(db, actor.companyId, actor.userId);
    return { queueIds: user?.queues.map((x) => x.id) ?? [], allTicket: user?.allTicket === "enabled" };
  }

  async function settingOf(companyId: number, key: string): Promise<string | undefined> {
    const [row] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
    return row?.value;
  }

  async function queueNameOf(companyId: number, queueId: number): Promise<string | null> {
    const [row] = await db
      .select({ name: queues.name })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
    return row?.name ?? null;
  }

  async function timeZoneOf(companyId: number): Promise<string> {
    return (await settingOf(companyId, "timezone")) || DEFAULT_TIMEZONE;
  }

  /** The automatic greeting sent on accept (setting sendGreetingAccepted). */
  async function acceptGreeting(actor: AuthContext, contactId: number): Promise<string> {
    const me = await findUser(db, actor.companyId, actor.userId);
    const [contact] = await db
      .select({ name: contacts.name })
      .from(contacts)
      .where(eq(contacts.id, contactId));
    return `*Mensagem automática:*\nOlá ${contact?.name ?? ""}, meu nome é ${me?.name ?? ""} e vou continuar o seu atendimento.`;
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
      const unread = await tx
        .update(messages)
        .set({ read: true })
        .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false), eq(messages.read, false)))
        .returning({ wid: messages.wid });
      await tx.update(tickets).set({ unreadMessages: 0 }).where(eq(tickets.id, ticket.id));
      const wids = unread.map((m) => m.wid).filter((w): w is string => Boolean(w));
      if (wids.length && ticket.whatsappId) {
        await enqueueChannelAction(tx, {
          companyId,
          ticketId: ticket.id,
          whatsappId: ticket.whatsappId,
          action: "markRead",
          wids,
        });
      }
      const read = (await loadTicket(tx, companyId, ticket.id))!;
      raise({ type: "ticket.saved", companyId, ticket: read });
      raise({ type: "ticket.read", companyId, ticket: read });
    });
    jobs.poke();
  }

  /** A ticket opened by someone who may see it: its own agent opening it has read it. */
  async function opened(actor: AuthContext, ticket: TicketRow): Promise<TicketDTO> {
    if (ticket.userId === actor.userId) await markRead(actor.companyId, ticket);
    return (await loadTicket(db, actor.companyId, ticket.id))!;
  }

  /** Accept, resolve, return, reopen and transfer: the spec's status table, decided here. */
  async function updateOnce(actor: AuthContext, id: number, input: TicketUpdateInput): Promise<TicketDTO> {
    const ticket = await visibleTicket(actor, await q.findTicketRow(db, actor.companyId, id));
    const patch: Partial<typeof tickets.$inferInsert> = {};
    const transfer =
      input.status === undefined &&
      (input.queueId !== undefined || input.userId !== undefined || input.whatsappId !== undefined);

    if (
      input.status === "open" &&
      ticket.status === "open" &&
      ticket.userId !== actor.userId &&
      actor.profile !== "admin"
    ) {
      // Another agent's ticket in service is not taken by "accepting" it again.
      throw new AppError("ERR_NO_PERMISSION");
    }
    const accepting = input.status === "open" && ticket.status === "pending";
    if (input.status === "open") {
      // Accept (pending → open) or reopen (closed → open): the ticket becomes the caller's.
      patch.status = "open";
      patch.userId = actor.profile === "admin" && input.userId ? input.userId : actor.userId;
    } else if (input.status === "closed") {
      patch.status = "closed";
    } else if (input.status === "pending") {
      patch.status = "pending";
      patch.userId = null;
    }
    if (input.queueId !== undefined) {
      if (input.queueId !== null) await checkQueue(actor.companyId, input.queueId);
      patch.queueId = input.queueId;
    }
    if (input.whatsappId !== undefined && input.whatsappId !== null) {
      if (!(await findWhatsappRow(db, actor.companyId, input.whatsappId)))
        throw new AppError("ERR_NO_WAPP_FOUND");
      patch.whatsappId = input.whatsappId;
    }
    if (transfer) {
      // A queue chosen with no agent: back to waiting in that queue. An agent chosen: theirs, open.
      if (input.userId) {
        await checkUser(actor.companyId, input.userId);
        patch.userId = input.userId;
        patch.status = ticket.status === "closed" ? "closed" : "open";
      } else if (input.queueId !== undefined) {
        patch.userId = null;
        patch.status = "pending";
      }
    }
    if (patch.userId && patch.userId !== actor.userId) await checkUser(actor.companyId, patch.userId);
    if (input.useIntegration !== undefined) patch.useIntegration = input.useIntegration;
    if (input.promptId !== undefined) patch.promptId = input.promptId;
    if (input.integrationId !== undefined) patch.integrationId = input.integrationId;

    // The connection's automatic messages on resolve (rating or completion) and transfer, read
    // before the transaction like the greeting below.
    const resolving = patch.status === "closed" && ticket.status !== "closed";
    const queueMoved =
      patch.queueId !== undefined && patch.queueId !== null && patch.queueId !== ticket.queueId;
    const automation =
      (resolving || (transfer && queueMoved)) && !ticket.isGroup
        ? {
            settings: await settingsOf(db, actor.companyId),
            connection: await connectionOf(db, actor.companyId, patch.whatsappId ?? ticket.whatsappId),
          }
        : null;
    const askRating =
      resolving &&
      automation?.settings.userRating === "enabled" &&
      Boolean(automation.connection?.ratingMessage.trim());
    // The ticket closes at once; the bot state (ratingAsks) keeps the rating awaited, and the
    // customer's answer still reaches this closed ticket for a while (RATING_WAIT_MS).
    const completion =
      resolving && !askRating && automation?.connection?.complationMessage.trim()
        ? automation.connection.complationMessage
        : null;
    const transferQueueName =
      transfer && queueMoved && automation?.settings.sendMsgTransfTicket === "enabled"
        ? await queueNameOf(actor.companyId, patch.queueId!)
        : null;

    // Read before the transaction opens: on PGlite a query outside `tx` would wait for it forever.
    const greeting =
      accepting && !ticket.isGroup && (await settingOf(actor.companyId, "sendGreetingAccepted")) === "enabled"
        ? await acceptGreeting(actor, ticket.contactId)
        : null;
    let updated: TicketDTO;
    try {
      updated = await inTransaction(db, bus, async (tx, raise) => {
        // Only if nobody changed its status or agent since it was read: two agents accepting the
        // same ticket at once must not both get it.
        const changed = await tx
          .update(tickets)
          .set({ ...patch, updatedAt: now() })
          .where(
            and(
              eq(tickets.companyId, actor.companyId),
              eq(tickets.id, id),
              eq(tickets.status, ticket.status),
              ticket.userId === null ? isNull(tickets.userId) : eq(tickets.userId, ticket.userId),
            ),
          )
          .returning({ id: tickets.id });
        if (changed.length === 0) throw new ChangedMeanwhile();
        const at = now();
        const after = {
          id,
          companyId: actor.companyId,
          whatsappId: patch.whatsappId ?? ticket.whatsappId,
          queueId: patch.queueId !== undefined ? patch.queueId : ticket.queueId,
          userId: patch.userId !== undefined ? patch.userId : ticket.userId,
        };
        await track(
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
            ...(patch.status === "open" && ticket.status === "closed" ? { finishedAt: null } : {}),
            ...(askRating ? { ratingAt: at } : {}),
          },
          at,
        );
        if (patch.status === "open" && ticket.status === "closed") await stopRatingWait(tx, id, at);
        if (askRating) {
          await queueOutbound(tx, raise, {
            companyId: actor.companyId,
            ticketId: id,
            body: ratingQuestion(automation!.connection!),
            isBot: true,
          });
          await saveBotState(tx, after, { ratingAsks: 1 }, at);
        }
        if (completion) {
          await queueOutbound(tx, raise, {
            companyId: actor.companyId,
            ticketId: id,
            body: completion,
            isBot: true,
          });
        }
        if (transferQueueName) {
          await queueOutbound(tx, raise, {
            companyId: actor.companyId,
            ticketId: id,
            body: transferNotice(transferQueueName),
            isBot: true,
          });
        }
        if (greeting) {
          await queueOutbound(tx, raise, {
            companyId: actor.companyId,
            ticketId: id,
            body: greeting,
            userId: actor.userId,
            isBot: true,
          });
        }
        const saved = (await loadTicket(tx, actor.companyId, id))!;
        raise({
          type: "ticket.saved",
          companyId: actor.companyId,
          ticket: saved,
          previous: { queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
        });
        return saved;
      });
    } catch (err) {
      if (dbErrorCode(err) === "23505")
        return otherOpenTicket(actor.companyId, ticket.contactId, patch.whatsappId ?? ticket.whatsappId);
      throw err;
    }
    if (greeting || askRating || completion || transferQueueName) jobs.poke();
    return updated;
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
      if (actor.profile === "admin") return null;
      if (ticket.whatsappId === null) return [ticket.id];
      const scope = await scopeOf(actor);
      const all = await q.conversationTickets(db, actor.companyId, ticket.contactId, ticket.whatsappId);
      return all.filter((t) => t.id === ticket.id || canSeeTicket(actor, scope, t)).map((t) => t.id);
    },

    async list(actor: AuthContext, query: TicketListQuery): Promise<TicketsPage> {
      const scope = await scopeOf(actor);
      const showAll = query.showAll && can(actor, "tickets-manager:showall");
      const page = await q.pageTickets(
        db,
        actor.companyId,
        {
          ...scope,
          userId: actor.userId,
          isAdmin: actor.profile === "admin",
          showAll,
          timeZone: await timeZoneOf(actor.companyId),
        },
        query,
      );
      return {
        tickets: await loadTickets(db, actor.companyId, page.ids),
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
      const [contact] = await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, actor.companyId), eq(contacts.id, input.contactId)));
      if (!contact) throw new AppError("ERR_NO_CONTACT_FOUND");
      if (!input.queueId && actor.profile !== "admin") {
        throw new AppError("ERR_VALIDATION", { fields: { queueId: "Selecione uma fila" } });
      }
      if (input.queueId) await checkQueue(actor.companyId, input.queueId);
      const me = await findUser(db, actor.companyId, actor.userId);
      if (input.queueId && actor.profile !== "admin" && !me?.queues.some((x) => x.id === input.queueId)) {
        throw new AppError("ERR_NO_PERMISSION");
      }
      let whatsappId = input.whatsappId ?? me?.whatsappId ?? null;
      if (whatsappId === null) {
        const [def] = await db
          .select({ id: whatsapps.id })
          .from(whatsapps)
          .where(and(eq(whatsapps.companyId, actor.companyId), eq(whatsapps.isDefault, true)));
        if (!def) throw new AppError("ERR_NO_DEF_WAPP_FOUND");
        whatsappId = def.id;
      } else if (!(await findWhatsappRow(db, actor.companyId, whatsappId))) {
        throw new AppError("ERR_NO_WAPP_FOUND");
      }
      const userId = input.userId && actor.profile === "admin" ? input.userId : actor.userId;
      if (userId !== actor.userId) await checkUser(actor.companyId, userId);
      if (await q.liveTicketOf(db, actor.companyId, contact.id, whatsappId))
        await otherOpenTicket(actor.companyId, contact.id, whatsappId);
      try {
        return await inTransaction(db, bus, async (tx, raise) => {
          const [row] = await tx
            .insert(tickets)
            .values({
              companyId: actor.companyId,
              contactId: contact.id,
              whatsappId,
              userId,
              queueId: input.queueId ?? null,
              status: input.status === "pending" ? "pending" : "open",
              isGroup: contact.isGroup,
              createdAt: now(),
              updatedAt: now(),
            })
            .returning({ id: tickets.id });
          await track(
            tx,
            { id: row!.id, companyId: actor.companyId, whatsappId, queueId: input.queueId ?? null, userId },
            {
              ...(input.queueId ? { queuedAt: now() } : {}),
              ...(input.status === "pending" ? {} : { acceptedAt: now() }),
            },
            now(),
          );
          const ticket = (await loadTicket(tx, actor.companyId, row!.id))!;
          raise({ type: "ticket.saved", companyId: actor.companyId, ticket });
          return ticket;
        });
      } catch (err) {
        if (dbErrorCode(err) === "23505") return otherOpenTicket(actor.companyId, contact.id, whatsappId);
        throw err;
      }
    },

    /** Accept, resolve, return, reopen and transfer (`updateOnce`), never on a stale reading. */
    async update(actor: AuthContext, id: number, input: TicketUpdateInput): Promise<TicketDTO> {
      // Decided on the ticket as read; when another change landed first, decide again on the new state.
      for (let attempt = 1; ; attempt++) {
        try {
          return await updateOnce(actor, id, input);
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
        await tx.delete(tickets).where(eq(tickets.id, id));
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
        const closed = await tx
          .update(tickets)
          .set({ status: "closed", updatedAt: now() })
          .where(
            and(
              eq(tickets.companyId, actor.companyId),
              eq(tickets.status, status),
              queueIds.length ? inArray(tickets.queueId, queueIds) : sql`true`,
            ),
          )
          .returning({ id: tickets.id, queueId: tickets.queueId, userId: tickets.userId });
        // Returned values are the new ones: every closed ticket was in `status`.
        for (const dto of await loadTickets(
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
