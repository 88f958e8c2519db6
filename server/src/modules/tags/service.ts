import {
  type CompanyEventPayloads,
  type KanbanPage,
  type KanbanQuery,
  LIMITS,
  DEFAULT_TIMEZONE,
  type ListQuery,
  type TagCreateInput,
  type TagDTO,
  type TagSyncInput,
  type TagUpdateInput,
  type TagsPage,
  type TicketDTO,
  can,
} from "@atende/contracts";
import type { Tx } from "../../db/client.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError, uniqueOr } from "../../http/errors.js";
import { loadTicket, loadTickets } from "../tickets/queries.js";
import { findTicketRow } from "../tickets/queries.js";
import { pageTickets } from "../tickets/searchQueries.js";
import type { TicketsService } from "../tickets/service.js";
import { findUser } from "../users/queries.js";
import { ticketPolicy } from "../tickets/policy.js";
import { requireKanbanPlanToSwitchOn, tagPolicy } from "./policy.js";
import { presentTag } from "./present.js";
import * as q from "./queries.js";

export type TagsDeps = Pick<Deps, "db" | "bus" | "now"> & {
  tickets: Pick<TicketsService, "visibleTicket">;
};

export function createTagsService({ db, bus, now, tickets }: TagsDeps) {
  /** A tag changed (after the change committed): the company's tags pages and boards hear it. */
  const tagChanged = (companyId: number, payload: CompanyEventPayloads["tag"]) =>
    bus.publish([{ type: "tag.changed", companyId, payload }]);

  /** A ticket of the caller's company that the caller may see (404 another company's, 403 outside their queues). */
  async function visibleTicket(actor: AuthContext, ticketId: number) {
    return tickets.visibleTicket(actor, await findTicketRow(db, actor.companyId, ticketId));
  }

  /** Tags whose ticket count moved: every tags page hears the new count. */
  async function countsChanged(companyId: number, tagIds: number[]) {
    const changed = await q.findTags(db, companyId, [...new Set(tagIds)]);
    await bus.publish(
      changed.map((tag) => ({ type: "tag.changed", companyId, payload: { action: "update", tag } })),
    );
  }

  /**
   * Changes a ticket's tags in one transaction; the ticket's viewers hear the new ticket when
   * something changed, and the touched tags' counts follow after the commit.
   */
  async function retag(
    actor: AuthContext,
    ticketId: number,
    change: (tx: Tx) => Promise<number[]>,
  ): Promise<TicketDTO> {
    const { ticket, touched } = await inTransaction(db, bus, async (tx, raise) => {
      // Two agents dropping one card into two lanes at once: the second waits, and wins.
      await q.lockTicket(tx, actor.companyId, ticketId);
      const touched = await change(tx);
      const ticket = (await loadTicket(tx, actor.companyId, ticketId))!;
      if (touched.length) raise({ type: "ticket.saved", companyId: actor.companyId, ticket });
      return { ticket, touched };
    });
    await countsChanged(actor.companyId, touched);
    return ticket;
  }

  return {
    page(actor: AuthContext, query: ListQuery): Promise<TagsPage> {
      return q.pageTags(db, actor.companyId, { ...query, pageSize: LIMITS.pageSize });
    },

    list(actor: AuthContext): Promise<TagDTO[]> {
      return q.listTags(db, actor.companyId);
    },

    /** GET /tags/kanban: the lanes, answered as `lista` as clients of this API family read it. */
    async kanbanTags(actor: AuthContext): Promise<{ lista: TagDTO[] }> {
      return { lista: await q.listTags(db, actor.companyId, true) };
    },

    async get(actor: AuthContext, id: number): Promise<TagDTO> {
      const tag = await q.findTag(db, actor.companyId, id);
      if (!tag) throw new AppError("ERR_NO_TAG_FOUND");
      return tag;
    },

    async create(actor: AuthContext, input: TagCreateInput): Promise<TagDTO> {
      tagPolicy.switchKanban(actor, 0, input.kanban);
      await requireKanbanPlanToSwitchOn(db, actor.companyId, 0, input.kanban);
      const row = await uniqueOr("ERR_TAG_NAME_TAKEN", async () => {
        return q.insertTag(db, actor.companyId, {
          name: input.name,
          color: input.color,
          kanban: input.kanban ?? 0,
          userId: actor.userId,
          createdAt: now(),
          updatedAt: now(),
        });
      });
      const tag = presentTag(row, 0);
      await tagChanged(actor.companyId, { action: "create", tag });
      return tag;
    },

    async update(actor: AuthContext, id: number, input: TagUpdateInput): Promise<TagDTO> {
      const current = await q.findTagRow(db, actor.companyId, id);
      if (!current) throw new AppError("ERR_NO_TAG_FOUND");
      tagPolicy.switchKanban(actor, current.kanban === 1 ? 1 : 0, input.kanban);
      await requireKanbanPlanToSwitchOn(db, actor.companyId, current.kanban === 1 ? 1 : 0, input.kanban);
      await uniqueOr("ERR_TAG_NAME_TAKEN", () =>
        q.updateTag(db, actor.companyId, id, {
          name: input.name,
          color: input.color,
          kanban: input.kanban,
          updatedAt: now(),
        }),
      );
      const tag = await q.findTag(db, actor.companyId, id);
      // Deleted by someone else between the two statements.
      if (!tag) throw new AppError("ERR_NO_TAG_FOUND");
      await tagChanged(actor.companyId, { action: "update", tag });
      return tag;
    },

    async remove(actor: AuthContext, id: number): Promise<void> {
      if (!(await q.findTagRow(db, actor.companyId, id))) throw new AppError("ERR_NO_TAG_FOUND");
      // The ticket_tags rows go with it (on delete cascade); boards drop the lane on the event.
      await q.deleteTag(db, actor.companyId, id);
      await tagChanged(actor.companyId, { action: "delete", tagId: id });
    },

    /** POST /tags/sync: the chat's tag editor; the ticket ends with exactly these tags. */
    async sync(actor: AuthContext, input: TagSyncInput): Promise<TicketDTO> {
      await visibleTicket(actor, input.ticketId);
      if ((await q.companyTags(db, actor.companyId, input.tags)).length !== input.tags.length)
        throw new AppError("ERR_NO_TAG_FOUND");
      return retag(actor, input.ticketId, async (tx) => {
        const removed = await q.untagTicket(tx, actor.companyId, input.ticketId);
        const added = await q.tagTicket(tx, actor.companyId, input.ticketId, input.tags);
        // A tag removed and added back is where it was: only the others changed.
        const kept = new Set(removed.filter((id) => added.includes(id)));
        return [...removed, ...added].filter((id) => !kept.has(id));
      });
    },

    /** The kanban board: the ticket list's visibility rules, waiting and in-service tickets. */
    async board(actor: AuthContext, query: KanbanQuery): Promise<KanbanPage> {
      const me = await findUser(db, actor.companyId, actor.userId);
      const viewer = {
        queueIds: me?.queues.map((x) => x.id) ?? [],
        allTicket: me?.allTicket === "enabled",
        userId: actor.userId,
        isAdmin: ticketPolicy.seesEveryQueue(actor),
        showAll: query.showAll && can(actor, "tickets-manager:showall"),
        timeZone: DEFAULT_TIMEZONE,
      };
      const pages = [];
      for (const status of ["pending", "open"] as const) {
        pages.push(
          await pageTickets(db, actor.companyId, viewer, {
            status,
            queueIds: query.queueIds,
            pageNumber: query.pageNumber,
            searchParam: "",
            tags: [],
            users: [],
            showAll: viewer.showAll,
            withUnreadMessages: false,
          }),
        );
      }
      return {
        tickets: await loadTickets(
          db,
          actor.companyId,
          pages.flatMap((p) => p.ids),
        ),
        count: pages.reduce((n, p) => n + p.count, 0),
        hasMore: pages.some((p) => p.hasMore),
      };
    },

    /** DELETE /ticket-tags/{ticketId}: the ticket leaves its kanban lane (back to 'Em aberto'). */
    async leaveLane(actor: AuthContext, ticketId: number): Promise<TicketDTO> {
      await visibleTicket(actor, ticketId);
      return retag(actor, ticketId, async (tx) =>
        q.untagTicket(
          tx,
          actor.companyId,
          ticketId,
          await q.kanbanTagIdsOfTicket(tx, actor.companyId, ticketId),
        ),
      );
    },

    /**
     * PUT /ticket-tags/{ticketId}/{tagId}: adds the tag to the ticket. A kanban tag is a lane and a
     * ticket sits in one lane, so it leaves any other lane in the same transaction.
     */
    async addTag(actor: AuthContext, ticketId: number, tagId: number): Promise<TicketDTO> {
      await visibleTicket(actor, ticketId);
      const tag = await q.findTagRow(db, actor.companyId, tagId);
      if (!tag) throw new AppError("ERR_NO_TAG_FOUND");
      return retag(actor, ticketId, async (tx) => {
        const otherLanes =
          tag.kanban === 1
            ? (await q.kanbanTagIdsOfTicket(tx, actor.companyId, ticketId)).filter((id) => id !== tagId)
            : [];
        const removed = await q.untagTicket(tx, actor.companyId, ticketId, otherLanes);
        const added = await q.tagTicket(tx, actor.companyId, ticketId, [tagId]);
        return [...removed, ...added];
      });
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
