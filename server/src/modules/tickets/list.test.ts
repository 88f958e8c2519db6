import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TICKET_PAGE_SIZE } from "@atende/contracts";
import { tags, ticketTags, tickets } from "../../db/schema/index.js";
import {
  type LoggedIn,
  buildCompany,
  buildMember,
  uid,
  buildContact,
  buildTicket,
} from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupTicketsSuite,
  ctx,
  a,
  queueA,
  queueB,
  agentA,
  agentA2,
  agentB,
  agentAll,
  b,
  call,
  getTicket,
  getByUuid,
  updateTicket,
  deleteTicket,
  list,
  listIds,
  rowOf,
  customerWrites,
  pendingIn,
  openFor,
} from "./testing.js";

/**
 * The tickets list on a real database: GET /tickets, its tabs, filters and pages, and who sees which
 * ticket.
 */
setupTicketsSuite();

describe("GET /tickets: the list", () => {
  it("filters by status and shows each ticket with its contact, queue, agent and connection", async () => {
    const waiting = await pendingIn(queueA.id, "quero um orçamento");
    const inService = await openFor(agentA.id, queueA.id);
    const resolved = await openFor(agentA.id, queueA.id);
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, resolved.id));

    const pending = await list(agentA.login, { status: "pending" });
    expect(pending.tickets.every((t) => t.status === "pending")).toBe(true);
    expect(pending.tickets.map((t) => t.id)).toContain(waiting.id);
    expect(pending.tickets.map((t) => t.id)).not.toContain(inService.id);
    expect(pending.tickets.find((t) => t.id === waiting.id)).toEqual({
      id: waiting.id,
      uuid: waiting.uuid,
      status: "pending",
      contactId: waiting.contactId,
      contact: {
        id: waiting.contactId,
        name: expect.stringMatching(/^Cliente /),
        number: waiting.number,
        profilePicUrl: expect.any(String),
        isGroup: false,
      },
      userId: null,
      user: null,
      queueId: queueA.id,
      queue: { id: queueA.id, name: queueA.name, color: queueA.color },
      whatsappId: a.connection.id,
      // Only the connection's id and name: never its token or settings.
      whatsapp: { id: a.connection.id, name: a.connection.name },
      lastMessage: "quero um orçamento",
      unreadMessages: 1,
      isGroup: false,
      chatbot: false,
      tags: [],
      // Its queue has no service-level target.
      sla: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    const open = await list(agentA.login, { status: "open" });
    expect(open.tickets.every((t) => t.status === "open")).toBe(true);
    expect(open.tickets.find((t) => t.id === inService.id)).toMatchObject({
      userId: agentA.id,
      user: { id: agentA.id, name: "Ana Atendente" },
    });
    expect(open.tickets.map((t) => t.id)).not.toContain(resolved.id);

    const closed = await list(agentA.login, { status: "closed" });
    expect(closed.tickets.every((t) => t.status === "closed")).toBe(true);
    expect(closed.tickets.map((t) => t.id)).toContain(resolved.id);
    expect(closed.tickets.map((t) => t.id)).not.toContain(waiting.id);

    // No status: every tab's tickets the agent may see.
    const all = await listIds(agentA.login);
    expect(all).toEqual(expect.arrayContaining([waiting.id, inService.id, resolved.id]));
  });

  it("pages by 40, newest activity first, with count and hasMore", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildMember(ctx, company.id, { profile: "admin" });
    const total = TICKET_PAGE_SIZE + 5;
    // One minute apart: the last made is the most recently active.
    const made: { id: number; updatedAt: Date }[] = [];
    for (let i = 0; i < total; i++) {
      const contact = await buildContact(ctx.deps.db, company.id, { name: `P${i}` });
      made.push(
        await buildTicket(ctx.deps.db, company.id, {
          contactId: contact.id,
          updatedAt: new Date(Date.UTC(2025, 0, 1, 12, i)),
        }),
      );
    }
    const newestFirst = [...made]
      .sort((x, y) => y.updatedAt.getTime() - x.updatedAt.getTime())
      .map((t) => t.id);

    const first = await list(admin.login, { status: "pending", pageNumber: 1 });
    expect(first).toMatchObject({ count: total, hasMore: true });
    expect(first.tickets.map((t) => t.id)).toEqual(newestFirst.slice(0, TICKET_PAGE_SIZE));

    const second = await list(admin.login, { status: "pending", pageNumber: 2 });
    expect(second).toMatchObject({ count: total, hasMore: false });
    expect(second.tickets.map((t) => t.id)).toEqual(newestFirst.slice(TICKET_PAGE_SIZE));

    const beyond = await list(admin.login, { status: "pending", pageNumber: 3 });
    expect(beyond).toEqual({ tickets: [], count: total, hasMore: false });

    const exact = await list(admin.login, { status: "open" });
    expect(exact).toEqual({ tickets: [], count: 0, hasMore: false });
  });

  it("searchParam matches the contact's name, part of the number, and message text (full-text)", async () => {
    const maria = await customerWrites("Preciso da segunda via do boleto", { name: "Mariana Bittencourt" });
    const joana = await customerWrites("Bom dia", { name: "Joana Prado" });
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, maria.id));

    const search = (who: LoggedIn, searchParam: string) => listIds(who, { searchParam });
    for (const term of ["bitten", "Mariana", "MARIANA bittencourt", maria.number.slice(-6), maria.number]) {
      const found = await search(a.adminLogin, term);
      expect(found, term).toContain(maria.id);
      expect(found, term).not.toContain(joana.id);
    }
    for (const term of ["boleto", "segunda via", "BOLET"]) {
      const found = await search(a.adminLogin, term);
      expect(found, term).toContain(maria.id);
      expect(found, term).not.toContain(joana.id);
    }
    expect(await search(a.adminLogin, "joana")).toEqual([joana.id]);
    expect(await search(a.adminLogin, "xylofone")).toEqual([]);
    // Search syntax is not passed through: quotes and operators are just separators.
    expect(await search(a.adminLogin, "boleto' & | ! (:*")).toContain(maria.id);

    // The search keeps each viewer's visibility: queue B's agent and another company find nothing.
    expect(await search(agentA.login, "boleto")).toEqual([maria.id]);
    expect(await search(agentB.login, "boleto")).toEqual([]);
    expect(await search(b.admin.login, "boleto")).toEqual([]);
    expect(await search(b.admin.login, "Mariana")).toEqual([]);
  });

  it("searchParam finds hyphenated words, numbers and dotted tokens as typed (full-text)", async () => {
    const n = 10_000 + crypto.randomInt(89_999);
    const budget = await customerWrites(`Segue o orçamento-${n} revisado`);
    const other = await customerWrites(`Mandei o orçamento ${n + 1} ontem`);
    const total = await customerWrites(`Total: R$ 1.${n},00 no pix loja-${n}@exemplo.com.br`);
    const search = (searchParam: string) => listIds(a.adminLogin, { searchParam });

    for (const term of [`orçamento-${n}`, `ORÇAMENTO ${n}`, `${n}`, `-${n}`, `revisado orçamento-${n}`]) {
      const found = await search(term);
      expect(found, term).toContain(budget.id);
      expect(found, term).not.toContain(other.id);
    }
    expect(await search(`orçamento-${n + 1}`)).toEqual([other.id]);
    expect(await search(`orçamento-${n}9`)).not.toContain(budget.id);
    for (const term of [`1.${n}`, `R$ 1.${n},00`, `loja-${n}@exemplo.com.br`]) {
      expect(await search(term), term).toContain(total.id);
    }
  });

  it("filters by tags, users and queueIds (JSON or comma-separated lists)", async () => {
    const [vip] = await ctx.deps.db
      .insert(tags)
      .values({ companyId: a.company.id, name: `VIP ${uid()}`, color: "#ff0000" })
      .returning();
    const tagged = await pendingIn(queueA.id);
    const untagged = await pendingIn(queueA.id);
    await ctx.deps.db
      .insert(ticketTags)
      .values({ ticketId: tagged.id, tagId: vip!.id, companyId: a.company.id });

    for (const form of [`[${vip!.id}]`, `${vip!.id}`]) {
      const page = await list(a.adminLogin, { tags: form });
      expect(page.tickets.map((t) => t.id)).toEqual([tagged.id]);
      expect(page.tickets[0]!.tags).toEqual([{ id: vip!.id, name: vip!.name, color: "#ff0000" }]);
    }
    expect(await listIds(a.adminLogin, { tags: `[${vip!.id}]` })).not.toContain(untagged.id);

    const ofA = await openFor(agentA.id, queueA.id);
    const ofA2 = await openFor(agentA2.id, queueA.id);
    const byUser = await list(a.adminLogin, { users: `[${agentA.id}]` });
    expect(byUser.tickets.length).toBeGreaterThan(0);
    expect(byUser.tickets.every((t) => t.userId === agentA.id)).toBe(true);
    expect(byUser.tickets.map((t) => t.id)).toContain(ofA.id);
    expect(byUser.tickets.map((t) => t.id)).not.toContain(ofA2.id);
    expect(await listIds(a.adminLogin, { users: `${agentA.id},${agentA2.id}` })).toEqual(
      expect.arrayContaining([ofA.id, ofA2.id]),
    );

    const inB = await pendingIn(queueB.id);
    const unqueued = await pendingIn(null);
    const inQueueA = await listIds(a.adminLogin, { status: "pending", queueIds: `[${queueA.id}]` });
    expect(inQueueA).toEqual(expect.arrayContaining([tagged.id, untagged.id]));
    expect(inQueueA).not.toContain(inB.id);
    // Tickets without a queue stay in an admin's view whatever queues are picked.
    expect(inQueueA).toContain(unqueued.id);
    const inQueueB = await listIds(a.adminLogin, { status: "pending", queueIds: `${queueB.id}` });
    expect(inQueueB).toContain(inB.id);
    expect(inQueueB).not.toContain(tagged.id);
  });

  it("filters by creation and update day in the company's time zone, and by unread messages", async () => {
    const late = await pendingIn(queueA.id);
    // 02:30 UTC on the 10th is still the 9th in São Paulo (the company's time zone).
    await ctx.deps.db
      .update(tickets)
      .set({
        createdAt: new Date("2025-01-10T02:30:00Z"),
        updatedAt: new Date("2025-02-01T15:00:00Z"),
      })
      .where(eq(tickets.id, late.id));
    expect(await listIds(agentA.login, { date: "2025-01-09" })).toEqual([late.id]);
    expect(await listIds(agentA.login, { date: "2025-01-10" })).toEqual([]);
    expect(await listIds(agentA.login, { updatedAt: "2025-02-01" })).toEqual([late.id]);
    expect(await listIds(agentA.login, { updatedAt: "2025-02-02" })).toEqual([]);

    const unread = await pendingIn(queueA.id);
    const read = await pendingIn(queueA.id);
    await ctx.deps.db.update(tickets).set({ unreadMessages: 0 }).where(eq(tickets.id, read.id));
    const withUnread = await list(agentA.login, { withUnreadMessages: true });
    expect(withUnread.tickets.every((t) => t.unreadMessages > 0)).toBe(true);
    expect(withUnread.tickets.map((t) => t.id)).toContain(unread.id);
    expect(withUnread.tickets.map((t) => t.id)).not.toContain(read.id);
    expect(await listIds(agentA.login, { withUnreadMessages: false })).toContain(read.id);
  });

  it("refuses bad filters with 400 ERR_VALIDATION, never 500", async () => {
    for (const query of [
      "status=archived",
      "pageNumber=0",
      "pageNumber=abc",
      "queueIds=abc",
      "tags=[1,-2]",
      "users=[0]",
      "date=10/01/2025",
      "date=2025-13-45",
      "updatedAt=2025-02-30",
      `searchParam=${"x".repeat(201)}`,
    ]) {
      const res = await call("GET", `/tickets?${query}`, a.adminLogin);
      expectError(res, 400, "ERR_VALIDATION");
    }
  });

  it("a non-admin sees only their queues' tickets (and unqueued ones only with allTicket); showAll needs tickets-manager:showall", async () => {
    const inA = await pendingIn(queueA.id);
    const inB = await pendingIn(queueB.id);
    const unqueued = await pendingIn(null);
    const heldByA = await openFor(agentA.id, queueA.id);

    const seenByA = await listIds(agentA.login, { status: "pending" });
    expect(seenByA).toContain(inA.id);
    expect(seenByA).not.toContain(inB.id);
    expect(seenByA).not.toContain(unqueued.id);
    const seenByB = await listIds(agentB.login, { status: "pending" });
    expect(seenByB).toContain(inB.id);
    expect(seenByB).not.toContain(inA.id);
    expect(seenByB).not.toContain(unqueued.id);
    // allTicket enabled and no queue: the tickets without a queue, nothing of the queues.
    const seenByAll = await listIds(agentAll.login, { status: "pending" });
    expect(seenByAll).toContain(unqueued.id);
    expect(seenByAll).not.toContain(inA.id);
    expect(seenByAll).not.toContain(inB.id);

    // Picking another queue in the header does not widen what an agent sees.
    expect(await listIds(agentA.login, { status: "pending", queueIds: `[${queueB.id}]` })).not.toContain(
      inB.id,
    );
    // A plain user asking showAll still gets only their queues, and only their own open tickets.
    const askB = await listIds(agentB.login, { status: "pending", showAll: true });
    expect(askB).toContain(inB.id);
    expect(askB).not.toContain(inA.id);
    expect(askB).not.toContain(unqueued.id);
    expect(await listIds(agentA2.login, { status: "open", showAll: true })).not.toContain(heldByA.id);
    expect(await listIds(agentB.login, { showAll: true })).not.toContain(heldByA.id);

    // The admin (who is in no queue) sees every pending ticket; open ones of others only with showAll.
    expect(await listIds(a.adminLogin, { status: "pending" })).toEqual(
      expect.arrayContaining([inA.id, inB.id, unqueued.id]),
    );
    expect(await listIds(a.adminLogin, { status: "open" })).not.toContain(heldByA.id);
    expect(await listIds(a.adminLogin, { status: "open", showAll: true })).toContain(heldByA.id);
    expect(await listIds(a.adminLogin, { status: "open", showAll: "true" })).toContain(heldByA.id);
  });

  it("another company never sees company A's tickets: not listed, and 404 ERR_NO_TICKET_FOUND by id or uuid", async () => {
    const ticket = await pendingIn(queueA.id, "dados de A");
    for (const who of [b.admin.login, b.user.login]) {
      const queries: Record<string, string | boolean>[] = [
        {},
        { showAll: true },
        { status: "pending", showAll: true },
        { status: "open", showAll: true },
        { status: "closed", showAll: true },
        { queueIds: `[${queueA.id}]`, showAll: true },
      ];
      for (const query of queries) {
        const page = await list(who, query);
        expect(page.tickets.every((t) => t.id === b.ticket.id)).toBe(true);
        expect(JSON.stringify(page)).not.toContain("dados de A");
      }
      expectError(await getTicket(who, ticket.id), 404, "ERR_NO_TICKET_FOUND");
      expectError(await getByUuid(who, ticket.uuid), 404, "ERR_NO_TICKET_FOUND");
      expectError(await updateTicket(who, ticket.id, { status: "closed" }), 404, "ERR_NO_TICKET_FOUND");
    }
    expectError(await deleteTicket(b.admin.login, ticket.id), 404, "ERR_NO_TICKET_FOUND");
    expect(await rowOf(ticket.id)).toMatchObject({ status: "pending", queueId: queueA.id });
    // And the other way round: company B's ticket does not exist for company A's admin.
    expect(await listIds(b.admin.login, { status: "pending" })).toEqual([b.ticket.id]);
    expect(await listIds(a.adminLogin, { status: "pending", showAll: true })).not.toContain(b.ticket.id);
    expectError(await getTicket(a.adminLogin, b.ticket.id), 404, "ERR_NO_TICKET_FOUND");
    expectError(await getByUuid(a.adminLogin, b.ticket.uuid), 404, "ERR_NO_TICKET_FOUND");
  });
});
