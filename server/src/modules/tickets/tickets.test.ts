import crypto from "node:crypto";
import { and, count, eq, ne } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompanyEventPayloads,
  type SimulatorPhoneMessage,
  TICKET_PAGE_SIZE,
  type TicketDTO,
  type TicketsPage,
  companyEvent,
} from "@atende/contracts";
import { contacts, messages, settings, tags, ticketTags, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, phoneSends } from "../../test/channels.js";
import {
  type LoggedIn,
  buildCompany,
  buildQueue,
  buildMember,
  type Member,
  uid,
  newNumber,
  buildContact,
  buildTicket,
  buildConnection,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { expectError, caller, expectOk } from "../../test/calls.js";

/**
 * The tickets API on a real database: the list and its filters, who may open a ticket, the
 * spec's status table (accept, resolve, return, reopen, transfer, close-all, delete), and who
 * hears about a ticket on the live channel. Tickets are born the way they are in production: a
 * customer's phone writes to a simulator connection.
 */

let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let queueA: (typeof a.queues)[number];
let queueB: (typeof a.queues)[number];

/** Agents of company A: two in queue A, one in queue B, one with no queue but allTicket enabled. */
let agentA: Member;
let agentA2: Member;
let agentB: Member;
let agentAll: Member;
/** Company B: another tenant, with its own admin, user, queue and ticket. */
let b: {
  admin: Member;
  user: Member;
  queueId: number;
  contactId: number;
  ticket: typeof tickets.$inferSelect;
};
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
  // Two queues on the connection: a new inbound ticket waits with no queue (no chatbot yet).
  a = await buildSimulatorCompany(ctx, { queues: 2, bot: false });
  [queueA, queueB] = [a.queues[0]!, a.queues[1]!];
  agentA = await buildMember(ctx, a.company.id, { name: "Ana Atendente", queueIds: [queueA.id] });
  agentA2 = await buildMember(ctx, a.company.id, { name: "Aldo Atendente", queueIds: [queueA.id] });
  agentB = await buildMember(ctx, a.company.id, { name: "Bia Atendente", queueIds: [queueB.id] });
  agentAll = await buildMember(ctx, a.company.id, { name: "Tati Todos", allTicket: "enabled" });

  const companyB = await buildCompany(ctx.deps.db);
  const queue = await buildQueue(ctx.deps.db, companyB.id);
  const { ticket, contact } = await insertTicket(companyB.id, { queueId: queue.id });
  b = {
    admin: await buildMember(ctx, companyB.id, { profile: "admin", name: "Admin B" }),
    user: await buildMember(ctx, companyB.id, { name: "Usuário B", queueIds: [queue.id] }),
    queueId: queue.id,
    contactId: contact.id,
    ticket,
  };
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

const call = caller(() => ctx);
const getTicket = (who: LoggedIn, id: number | string) => call("GET", `/tickets/${id}`, who);
const getByUuid = (who: LoggedIn, uuid: string) => call("GET", `/tickets/u/${uuid}`, who);
const createTicket = (who: LoggedIn, body: unknown) => call("POST", "/tickets", who, body);
const updateTicket = (who: LoggedIn, id: number, body: unknown) => call("PUT", `/tickets/${id}`, who, body);
const deleteTicket = (who: LoggedIn, id: number) => call("DELETE", `/tickets/${id}`, who);

/** The answer is this status; the ticket it carries. */
const ticketOk = (res: { statusCode: number; body: string }, status = 200) =>
  expectOk<TicketDTO>(res, status);

async function list(who: LoggedIn, query: Record<string, string | number | boolean> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await call("GET", `/tickets?${qs}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketsPage>();
}
async function listIds(who: LoggedIn, query: Record<string, string | number | boolean> = {}) {
  return (await list(who, query)).tickets.map((t) => t.id);
}

async function rowOf(id: number) {
  const [row] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, id));
  return row ?? null;
}

/** A contact and a ticket written straight to the database (for other tenants and bulk lists). */
async function insertTicket(companyId: number, values: Parameters<typeof buildTicket>[2] = {}) {
  const contact = await buildContact(ctx.deps.db, companyId);
  const ticket = await buildTicket(ctx.deps.db, companyId, { contactId: contact.id, ...values });
  return { contact, ticket };
}

/** A contact of company A that has never written. */
const quietContact = (name = `Contato ${uid()}`) => buildContact(ctx.deps.db, a.company.id, { name });

/** The customer's phone writes in; answers the contact's live ticket as the pipeline left it. */
async function customerWrites(body: string, opts: { number?: string; name?: string } = {}) {
  const number = opts.number ?? newNumber();
  const res = await phoneSends(ctx, a.adminLogin, a.connection.id, {
    from: number,
    name: opts.name ?? `Cliente ${uid()}`,
    body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await ctx.deps.db
    .select({ t: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(eq(contacts.companyId, a.company.id), eq(contacts.number, number), ne(tickets.status, "closed")),
    );
  return { ...row!.t, number };
}

/** A waiting ticket placed in a queue (null: left without one, as inbound leaves it). */
async function pendingIn(queueId: number | null, body = "olá") {
  const ticket = await customerWrites(body);
  await ctx.deps.db.update(tickets).set({ queueId }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId };
}

/** A ticket in service: open, held by `userId`, in `queueId`. */
async function openFor(userId: number, queueId: number | null, body = "olá") {
  const ticket = await customerWrites(body);
  await ctx.deps.db.update(tickets).set({ queueId, userId, status: "open" }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId, userId, status: "open" as const };
}

async function phone(number: string): Promise<SimulatorPhoneMessage[]> {
  const res = await call("GET", `/simulator/${a.connection.id}/messages?number=${number}`, a.adminLogin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function ticketsOfContact(contactId: number) {
  return ctx.deps.db.select().from(tickets).where(eq(tickets.contactId, contactId));
}

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

describe("GET /tickets/{id} and /tickets/u/{uuid}", () => {
  it("a non-admin outside the ticket's queue gets 403 ERR_TICKET_ACCESS_DENIED ('Acesso não permitido')", async () => {
    const ticket = await pendingIn(queueA.id);
    for (const res of [
      await getTicket(agentB.login, ticket.id),
      await getByUuid(agentB.login, ticket.uuid),
    ]) {
      expectError(res, 403, "ERR_TICKET_ACCESS_DENIED");
      expect(res.json().message).toBe("Acesso não permitido");
      expect(res.body).not.toContain(ticket.number);
    }
    const en = await call("GET", `/tickets/${ticket.id}`, agentB.login, undefined, {
      "accept-language": "en-US,en;q=0.9",
    });
    expect(en.json()).toMatchObject({ error: "ERR_TICKET_ACCESS_DENIED", message: "Access not allowed" });
    // Without allTicket, a ticket with no queue is out of reach too; with it, in reach.
    const unqueued = await pendingIn(null);
    expectError(await getTicket(agentA.login, unqueued.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expect(ticketOk(await getTicket(agentAll.login, unqueued.id)).id).toBe(unqueued.id);
    // The queue's own agents open it.
    expect(ticketOk(await getTicket(agentA2.login, ticket.id))).toMatchObject({
      id: ticket.id,
      queueId: queueA.id,
    });
  });

  it("an admin opens any ticket of the company, by id or by uuid, with the same answer", async () => {
    const ticket = await openFor(agentB.id, queueB.id, "me ajuda");
    const byId = ticketOk(await getTicket(a.adminLogin, ticket.id));
    const byUuid = ticketOk(await getByUuid(a.adminLogin, ticket.uuid));
    expect(byUuid).toEqual(byId);
    expect(byId).toMatchObject({
      id: ticket.id,
      uuid: ticket.uuid,
      status: "open",
      user: { id: agentB.id, name: "Bia Atendente" },
      queue: { id: queueB.id, name: queueB.name },
      lastMessage: "me ajuda",
    });
    // The admin's look does not read the agent's messages for them.
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(1);
  });

  it("unknown ids and uuids answer 404; malformed ids and uuids 400", async () => {
    expectError(await getTicket(a.adminLogin, 2_147_483_647), 404, "ERR_NO_TICKET_FOUND");
    expectError(await getByUuid(a.adminLogin, crypto.randomUUID()), 404, "ERR_NO_TICKET_FOUND");
    for (const uuid of ["not-a-uuid", "-".repeat(36), "g".repeat(36)]) {
      expectError(await getByUuid(a.adminLogin, uuid), 400, "ERR_VALIDATION");
    }
    for (const id of ["abc", "0", "-3", "1.5", "99999999999"]) {
      expectError(await getTicket(a.adminLogin, id), 400, "ERR_VALIDATION");
    }
  });

  it("opening it as the assigned agent resets unreadMessages to 0 and marks the customer's messages read", async () => {
    const ticket = await customerWrites("primeira");
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, ticket.id));
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));
    await customerWrites("segunda", { number: ticket.number });
    await customerWrites("terceira", { number: ticket.number });
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(3);

    // Someone else looking does not count as reading.
    expect(ticketOk(await getTicket(a.adminLogin, ticket.id)).unreadMessages).toBe(3);
    expect(ticketOk(await getTicket(agentA2.login, ticket.id)).unreadMessages).toBe(3);
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(3);

    expect(ticketOk(await getTicket(agentA.login, ticket.id)).unreadMessages).toBe(0);
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(0);
    const unreadLeft = await ctx.deps.db
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, false), eq(messages.read, false)));
    expect(unreadLeft[0]!.n).toBe(0);

    // By uuid too.
    await customerWrites("quarta", { number: ticket.number });
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(1);
    expect(ticketOk(await getByUuid(agentA.login, ticket.uuid)).unreadMessages).toBe(0);
    expect((await rowOf(ticket.id))!.unreadMessages).toBe(0);
  });
});

describe("POST /tickets", () => {
  it("creates the ticket open for the caller, on the chosen or default connection", async () => {
    const contact = await quietContact("Paulo Novo");
    const created = ticketOk(
      await createTicket(agentA.login, {
        contactId: contact.id,
        queueId: queueA.id,
        whatsappId: a.connection.id,
      }),
      201,
    );
    expect(created).toMatchObject({
      status: "open",
      contactId: contact.id,
      contact: { id: contact.id, name: "Paulo Novo", number: contact.number },
      userId: agentA.id,
      user: { id: agentA.id, name: "Ana Atendente" },
      queueId: queueA.id,
      whatsappId: a.connection.id,
      unreadMessages: 0,
    });
    expect(await rowOf(created.id)).toMatchObject({
      status: "open",
      userId: agentA.id,
      companyId: a.company.id,
    });
    expect(ticketOk(await getTicket(agentA.login, created.id)).id).toBe(created.id);

    // An admin may leave the queue out; the company's default connection is used.
    const other = await quietContact();
    const byAdmin = ticketOk(await createTicket(a.adminLogin, { contactId: other.id }), 201);
    expect(byAdmin).toMatchObject({
      status: "open",
      userId: a.admin.id,
      queueId: null,
      whatsappId: a.connection.id,
    });
  });

  it("when another user holds the contact's ticket: 409 ERR_OTHER_OPEN_TICKET naming that user and queue", async () => {
    const contact = await quietContact();
    const held = ticketOk(
      await createTicket(agentA.login, { contactId: contact.id, queueId: queueA.id }),
      201,
    );
    for (const who of [agentA2.login, a.adminLogin]) {
      const res = await createTicket(who, { contactId: contact.id, queueId: queueA.id });
      expectError(res, 409, "ERR_OTHER_OPEN_TICKET");
      expect(res.json()).toMatchObject({
        ticketId: held.id,
        userName: "Ana Atendente",
        queueName: queueA.name,
        message: "Já existe um tíquete aberto para este contato.",
      });
    }
    expect(await ticketsOfContact(contact.id)).toHaveLength(1);
  });

  it("two tickets for one contact created at once: one 201, the other 409, one ticket kept", async () => {
    const contact = await quietContact();
    const answers = await Promise.all([
      createTicket(agentA.login, { contactId: contact.id, queueId: queueA.id }),
      createTicket(agentA2.login, { contactId: contact.id, queueId: queueA.id }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    const winner = answers.find((r) => r.statusCode === 201)!.json<TicketDTO>();
    expect(loser.json()).toMatchObject({
      error: "ERR_OTHER_OPEN_TICKET",
      ticketId: winner.id,
      userName: winner.user!.name,
    });
    expect(await ticketsOfContact(contact.id)).toEqual([expect.objectContaining({ id: winner.id })]);
  });

  it("bad input answers 4xx and creates nothing", async () => {
    const contact = await quietContact();
    const cases: [LoggedIn, unknown, number, string][] = [
      [a.adminLogin, {}, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: "abc" }, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: contact.id, status: "closed" }, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: contact.id, queueId: -1 }, 400, "ERR_VALIDATION"],
      [a.adminLogin, { contactId: contact.id, whatsappId: "x" }, 400, "ERR_VALIDATION"],
      // A queue is required of an agent ('Selecione uma fila'), and it must be one of theirs.
      [agentA.login, { contactId: contact.id }, 400, "ERR_VALIDATION"],
      [agentA.login, { contactId: contact.id, queueId: queueB.id }, 403, "ERR_NO_PERMISSION"],
      // Another company's contact, queue, user; unknown connection.
      [a.adminLogin, { contactId: b.contactId }, 404, "ERR_NO_CONTACT_FOUND"],
      [a.adminLogin, { contactId: contact.id, queueId: b.queueId }, 404, "ERR_NO_QUEUE_FOUND"],
      [a.adminLogin, { contactId: contact.id, userId: b.user.id }, 404, "ERR_NO_USER_FOUND"],
      [a.adminLogin, { contactId: contact.id, whatsappId: 2_147_483_647 }, 404, "ERR_NO_WAPP_FOUND"],
    ];
    for (const [who, body, status, error] of cases) {
      const res = await createTicket(who, body);
      expectError(res, status, error);
    }
    const noQueue = await createTicket(agentA.login, { contactId: contact.id });
    expect(noQueue.json().fields).toEqual({ queueId: "Selecione uma fila" });
    expect(await ticketsOfContact(contact.id)).toEqual([]);
    expect(await ticketsOfContact(b.contactId)).toEqual(
      [b.ticket].map((t) => expect.objectContaining({ id: t.id })),
    );
  });
});

describe("PUT /tickets/{id}: the status table", () => {
  it("accept: pending → open, held by the caller, queue kept; the tab counts move with it", async () => {
    const ticket = await pendingIn(queueA.id);
    const before = {
      pending: (await list(agentA.login, { status: "pending" })).count,
      open: (await list(agentA.login, { status: "open" })).count,
    };
    const accepted = ticketOk(
      await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }),
    );
    expect(accepted).toMatchObject({
      id: ticket.id,
      status: "open",
      userId: agentA.id,
      user: { id: agentA.id, name: "Ana Atendente" },
      queueId: queueA.id,
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA.id, queueId: queueA.id });
    expect((await list(agentA.login, { status: "pending" })).count).toBe(before.pending - 1);
    expect((await list(agentA.login, { status: "open" })).count).toBe(before.open + 1);
    // The greeting setting is off by default: no message went out.
    const sent = await ctx.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(sent).toEqual([]);

    // An agent cannot take over another agent's ticket in service by accepting it again.
    expectError(
      await updateTicket(agentA2.login, ticket.id, { status: "open", userId: agentA2.id }),
      403,
      "ERR_NO_PERMISSION",
    );
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA.id });
  });

  it("two agents accepting the same ticket at once: one gets it, the other 403 ERR_NO_PERMISSION", async () => {
    const ticket = await pendingIn(queueA.id);
    const [first, second] = await Promise.all([
      updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }),
      updateTicket(agentA2.login, ticket.id, { status: "open", userId: agentA2.id }),
    ]);
    const answers = [first, second].map((r) => r.statusCode);
    expect(answers.sort(), `${first.body}\n${second.body}`).toEqual([200, 403]);
    const winner = first.statusCode === 200 ? agentA : agentA2;
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: winner.id });
    expectError(first.statusCode === 200 ? second : first, 403, "ERR_NO_PERMISSION");
  });

  it("accept with sendGreetingAccepted enabled queues an automatic greeting that reaches the customer's phone", async () => {
    const ticket = await customerWrites("oi, tudo bem?", { name: "Gabriela Lima" });
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, ticket.id));
    const setting = and(eq(settings.companyId, a.company.id), eq(settings.key, "sendGreetingAccepted"));
    await ctx.deps.db.update(settings).set({ value: "enabled" }).where(setting);
    try {
      const accepted = ticketOk(
        await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }),
      );
      expect(accepted).toMatchObject({ status: "open", userId: agentA.id });
    } finally {
      await ctx.deps.db.update(settings).set({ value: "disabled" }).where(setting);
    }
    const greeting =
      "*Mensagem automática:*\nOlá Gabriela Lima, meu nome é Ana Atendente e vou continuar o seu atendimento.";
    const stored = await ctx.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.ticketId, ticket.id), eq(messages.fromMe, true)));
    expect(stored).toEqual([expect.objectContaining({ body: greeting, isBot: true, userId: agentA.id })]);
    await waitFor(async () => (await phone(ticket.number)).some((m) => m.direction === "out"), 10_000);
    expect((await phone(ticket.number)).map((m) => [m.direction, m.body])).toEqual([
      ["in", "oi, tudo bem?"],
      ["out", greeting],
    ]);
  });

  it("resolve: open or pending → closed, user and queue kept", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const closed = ticketOk(await updateTicket(agentA.login, ticket.id, { status: "closed" }));
    expect(closed).toMatchObject({ status: "closed", userId: agentA.id, queueId: queueA.id });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "closed", userId: agentA.id, queueId: queueA.id });

    const waiting = await pendingIn(queueB.id);
    expect(ticketOk(await updateTicket(agentB.login, waiting.id, { status: "closed" }))).toMatchObject({
      status: "closed",
      userId: null,
      queueId: queueB.id,
    });
  });

  it("resolve as the ticket header of clients of this API family sends it: false for promptId, integrationId and useIntegration", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    await ctx.deps.db
      .update(tickets)
      .set({ useIntegration: true, promptId: 7, integrationId: 9 })
      .where(eq(tickets.id, ticket.id));
    const closed = ticketOk(
      await updateTicket(agentA.login, ticket.id, {
        status: "closed",
        userId: agentA.id,
        useIntegration: false,
        promptId: false,
        integrationId: false,
      }),
    );
    expect(closed).toMatchObject({ status: "closed", userId: agentA.id });
    expect(await rowOf(ticket.id)).toMatchObject({
      status: "closed",
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    // Anything else than an id, null or false is still refused.
    expectError(await updateTicket(agentA.login, ticket.id, { promptId: true }), 400, "ERR_VALIDATION");
    expectError(await updateTicket(agentA.login, ticket.id, { integrationId: "x" }), 400, "ERR_VALIDATION");
  });

  it("return: open → pending, user cleared, queue kept", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const returned = ticketOk(
      await updateTicket(agentA.login, ticket.id, { status: "pending", userId: null }),
    );
    expect(returned).toMatchObject({ status: "pending", userId: null, user: null, queueId: queueA.id });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "pending", userId: null, queueId: queueA.id });
  });

  it("reopen: closed → open for the caller", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, ticket.id));
    const reopened = ticketOk(await updateTicket(agentA2.login, ticket.id, { status: "open" }));
    expect(reopened).toMatchObject({
      status: "open",
      userId: agentA2.id,
      user: { id: agentA2.id, name: "Aldo Atendente" },
      queueId: queueA.id,
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA2.id });
  });

  it("transfer to a queue with no user: pending, user cleared; with a user: open for that user", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const toQueue = ticketOk(await updateTicket(agentA.login, ticket.id, { queueId: queueB.id }));
    expect(toQueue).toMatchObject({
      status: "pending",
      userId: null,
      user: null,
      queueId: queueB.id,
      queue: { id: queueB.id, name: queueB.name },
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "pending", userId: null, queueId: queueB.id });
    // Agent A no longer sees it; agent B does.
    expectError(await getTicket(agentA.login, ticket.id), 403, "ERR_TICKET_ACCESS_DENIED");
    expect(ticketOk(await getTicket(agentB.login, ticket.id)).queueId).toBe(queueB.id);

    const toUser = ticketOk(
      await updateTicket(a.adminLogin, ticket.id, { queueId: queueA.id, userId: agentA2.id }),
    );
    expect(toUser).toMatchObject({
      status: "open",
      userId: agentA2.id,
      user: { id: agentA2.id, name: "Aldo Atendente" },
      queueId: queueA.id,
    });
    expect(await rowOf(ticket.id)).toMatchObject({ status: "open", userId: agentA2.id, queueId: queueA.id });
  });

  it("transfer may change the connection", async () => {
    const second = await buildConnection(ctx.deps.db, a.company.id, {
      name: "Segundo número",
      provider: "simulator",
      status: "DISCONNECTED",
    });
    const ticket = await openFor(agentA.id, queueA.id);
    const moved = ticketOk(
      await updateTicket(a.adminLogin, ticket.id, {
        whatsappId: second.id,
        queueId: queueA.id,
        userId: agentA.id,
      }),
    );
    expect(moved).toMatchObject({
      status: "open",
      userId: agentA.id,
      queueId: queueA.id,
      whatsappId: second.id,
      whatsapp: { id: second.id, name: "Segundo número" },
    });
    expect((await rowOf(ticket.id))!.whatsappId).toBe(second.id);
  });

  it("a user, queue or connection that is not the company's answers 404 and changes nothing", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    const cases: [unknown, number, string][] = [
      [{ queueId: queueB.id, userId: b.user.id }, 404, "ERR_NO_USER_FOUND"],
      [{ userId: 2_147_483_647 }, 404, "ERR_NO_USER_FOUND"],
      [{ status: "open", userId: b.user.id }, 404, "ERR_NO_USER_FOUND"],
      [{ queueId: b.queueId }, 404, "ERR_NO_QUEUE_FOUND"],
      [{ queueId: 2_147_483_647 }, 404, "ERR_NO_QUEUE_FOUND"],
      [{ whatsappId: 2_147_483_647 }, 404, "ERR_NO_WAPP_FOUND"],
      [{ status: "archived" }, 400, "ERR_VALIDATION"],
      [{ queueId: "fila" }, 400, "ERR_VALIDATION"],
      [{ userId: 0 }, 400, "ERR_VALIDATION"],
    ];
    const before = await rowOf(ticket.id);
    for (const [body, status, error] of cases) {
      expectError(await updateTicket(a.adminLogin, ticket.id, body), status, error);
    }
    expect(await rowOf(ticket.id)).toEqual(before);
    expectError(
      await updateTicket(a.adminLogin, 2_147_483_647, { status: "closed" }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
  });

  it("an agent outside the ticket's queue gets 403 ERR_TICKET_ACCESS_DENIED for every action", async () => {
    const ticket = await pendingIn(queueA.id);
    const before = await rowOf(ticket.id);
    for (const body of [
      { status: "open", userId: agentB.id },
      { status: "closed" },
      { status: "pending", userId: null },
      { queueId: queueB.id },
      { queueId: queueB.id, userId: agentB.id },
    ]) {
      expectError(await updateTicket(agentB.login, ticket.id, body), 403, "ERR_TICKET_ACCESS_DENIED");
    }
    expect(await rowOf(ticket.id)).toEqual(before);
  });
});

describe("DELETE /tickets/{id} and POST /tickets/closeAll", () => {
  it("delete needs ticket-options:deleteTicket: a plain user gets 403 ERR_NO_PERMISSION and nothing is deleted", async () => {
    const ticket = await openFor(agentA.id, queueA.id, "apagar?");
    expectError(await deleteTicket(agentA.login, ticket.id), 403, "ERR_NO_PERMISSION");
    expect(await rowOf(ticket.id)).not.toBeNull();

    const res = await deleteTicket(a.adminLogin, ticket.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(await rowOf(ticket.id)).toBeNull();
    expect(await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticket.id))).toEqual([]);
    expectError(await deleteTicket(a.adminLogin, ticket.id), 404, "ERR_NO_TICKET_FOUND");
  });

  it("closeAll is for admins and closes the chosen status within the selected queues only", async () => {
    const db = ctx.deps.db;
    const queueC = await buildQueue(db, a.company.id, { name: `Fila C ${uid()}` });
    const queueD = await buildQueue(db, a.company.id, { name: `Fila D ${uid()}` });
    const pendingC1 = await pendingIn(queueC.id);
    const pendingC2 = await pendingIn(queueC.id);
    const openC = await openFor(agentA.id, queueC.id);
    const pendingD = await pendingIn(queueD.id);
    const pendingNone = await pendingIn(null);

    expectError(
      await call("POST", "/tickets/closeAll", agentA.login, {
        status: "pending",
        selectedQueueIds: [queueC.id],
      }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("POST", "/tickets/closeAll", a.adminLogin, {
        status: "closed",
        selectedQueueIds: [queueC.id],
      }),
      400,
      "ERR_VALIDATION",
    );
    // Another company's admin naming A's queue closes nothing of A's.
    const foreign = await call("POST", "/tickets/closeAll", b.admin.login, {
      status: "pending",
      selectedQueueIds: [queueC.id],
    });
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json()).toEqual({ closed: 0 });
    expect((await rowOf(pendingC1.id))!.status).toBe("pending");

    const res = await call("POST", "/tickets/closeAll", a.adminLogin, {
      status: "pending",
      selectedQueueIds: [queueC.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ closed: 2 });
    for (const t of [pendingC1, pendingC2]) expect((await rowOf(t.id))!.status).toBe("closed");
    expect(await rowOf(openC.id)).toMatchObject({ status: "open", userId: agentA.id });
    expect((await rowOf(pendingD.id))!.status).toBe("pending");
    expect((await rowOf(pendingNone.id))!.status).toBe("pending");
    expect((await rowOf(b.ticket.id))!.status).toBe("pending");

    const openAll = await call("POST", "/tickets/closeAll", a.adminLogin, {
      status: "open",
      selectedQueueIds: `[${queueC.id},${queueD.id}]`,
    });
    expect(openAll.json()).toEqual({ closed: 1 });
    expect(await rowOf(openC.id)).toMatchObject({ status: "closed", userId: agentA.id, queueId: queueC.id });
    expect((await rowOf(pendingD.id))!.status).toBe("pending");
  });
});

describe("after resolving", () => {
  it("a new customer message opens a NEW pending ticket; the resolved one stays closed", async () => {
    const first = await customerWrites("meu pedido chegou?");
    await ctx.deps.db.update(tickets).set({ queueId: queueA.id }).where(eq(tickets.id, first.id));
    ticketOk(await updateTicket(agentA.login, first.id, { status: "open", userId: agentA.id }));
    ticketOk(await updateTicket(agentA.login, first.id, { status: "closed" }));

    const second = await customerWrites("outra dúvida", { number: first.number });
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({
      status: "pending",
      userId: null,
      queueId: null,
      unreadMessages: 1,
      lastMessage: "outra dúvida",
      contactId: first.contactId,
    });
    expect(await rowOf(first.id)).toMatchObject({
      status: "closed",
      userId: agentA.id,
      lastMessage: "meu pedido chegou?",
    });
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, second.id));
    expect(stored.map((m) => m.body)).toEqual(["outra dúvida"]);

    // Reopening the old one while the new one is live would make two: refused, naming the live one.
    const reopen = await updateTicket(agentA.login, first.id, { status: "open" });
    expectError(reopen, 409, "ERR_OTHER_OPEN_TICKET");
    expect(reopen.json().ticketId).toBe(second.id);
    expect((await rowOf(first.id))!.status).toBe("closed");
  });
});

describe("live: company-{id}-ticket reaches exactly who may see the ticket", () => {
  type TicketEvent = CompanyEventPayloads["ticket"];
  let url: string;
  let live: Record<"admin" | "agentA" | "agentB" | "agentAll", TicketEvent[]>;
  let strangerHeard: { event: string; payload: unknown }[];
  let adminB: TicketEvent[];

  beforeAll(async () => {
    url = await ctx.url();
    const open = async (who: LoggedIn) => {
      const socket = await connectSocket(url, who.token);
      sockets.push(socket);
      return socket;
    };
    live = {
      admin: record<TicketEvent>(await open(a.adminLogin), companyEvent(a.company.id, "ticket")),
      agentA: record<TicketEvent>(await open(agentA.login), companyEvent(a.company.id, "ticket")),
      agentB: record<TicketEvent>(await open(agentB.login), companyEvent(a.company.id, "ticket")),
      agentAll: record<TicketEvent>(await open(agentAll.login), companyEvent(a.company.id, "ticket")),
    };
    const stranger = await open(b.admin.login);
    strangerHeard = [];
    stranger.onAny((event: string, payload: unknown) => strangerHeard.push({ event, payload }));
    adminB = record<TicketEvent>(stranger, companyEvent(b.ticket.companyId, "ticket"));
  });

  /** The events about ticket `id`, but for the "left this status" deletes (tested on their own). */
  const about = (events: TicketEvent[], id: number) =>
    events.filter(
      (e) => ("ticket" in e ? e.ticket.id : e.ticketId) === id && !("fromStatus" in e && e.fromStatus),
    );
  const everything = (events: TicketEvent[], id: number) =>
    events.filter((e) => ("ticket" in e ? e.ticket.id : e.ticketId) === id);
  const summary = (events: TicketEvent[], id: number) =>
    about(events, id).map((e) =>
      e.action === "update" ? [e.action, e.ticket.status, e.ticket.queueId, e.ticket.userId] : [e.action],
    );

  it("create, queue, accept, unread and delete: each event goes to the admins, the queue's agents and the holder only", async () => {
    const ticket = await customerWrites("alguém aí?");
    // Unqueued and pending: the admins and whoever has allTicket.
    await waitFor(
      () => about(live.admin, ticket.id).length === 1 && about(live.agentAll, ticket.id).length === 1,
    );
    expect(about(live.admin, ticket.id)[0]).toMatchObject({
      action: "update",
      ticket: {
        id: ticket.id,
        status: "pending",
        queueId: null,
        unreadMessages: 1,
        lastMessage: "alguém aí?",
      },
    });

    ticketOk(await updateTicket(a.adminLogin, ticket.id, { queueId: queueA.id }));
    await waitFor(() => about(live.agentA, ticket.id).length === 1);
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));
    await waitFor(() => about(live.agentA, ticket.id).length === 2);
    expect(summary(live.agentA, ticket.id)).toEqual([
      ["update", "pending", queueA.id, null],
      ["update", "open", queueA.id, agentA.id],
    ]);

    // A new message counts as unread for everyone who sees the ticket; the agent opening it resets the count.
    await customerWrites("ainda aqui", { number: ticket.number });
    await waitFor(() => about(live.agentA, ticket.id).length === 3);
    expect(about(live.agentA, ticket.id)[2]).toMatchObject({
      action: "update",
      ticket: { unreadMessages: 2 },
    });
    ticketOk(await getTicket(agentA.login, ticket.id));
    await waitFor(
      () => about(live.agentA, ticket.id).length === 5 && about(live.admin, ticket.id).length === 6,
    );
    expect(about(live.agentA, ticket.id)[3]).toMatchObject({
      action: "update",
      ticket: { unreadMessages: 0 },
    });
    expect(about(live.agentA, ticket.id)[4]).toEqual({ action: "updateUnread", ticketId: ticket.id });

    const res = await deleteTicket(a.adminLogin, ticket.id);
    expect(res.statusCode).toBe(204);
    await waitFor(
      () => about(live.agentA, ticket.id).length === 6 && about(live.admin, ticket.id).length === 7,
    );
    expect(about(live.agentA, ticket.id)[5]).toEqual({ action: "delete", ticketId: ticket.id });
    expect(summary(live.admin, ticket.id)).toEqual([
      ["update", "pending", null, null],
      ["update", "pending", queueA.id, null],
      ["update", "open", queueA.id, agentA.id],
      ["update", "open", queueA.id, agentA.id],
      ["update", "open", queueA.id, agentA.id],
      ["updateUnread"],
      ["delete"],
    ]);

    // A change in queue B, heard by agent B, shows nothing about the queue A ticket came before it.
    const sentinel = await pendingIn(queueB.id);
    ticketOk(await updateTicket(a.adminLogin, sentinel.id, { status: "closed" }));
    await waitFor(() => about(live.agentB, sentinel.id).length === 1);
    expect(about(live.agentB, ticket.id)).toEqual([]);

    // Company B's socket hears its own company's change and nothing of company A.
    ticketOk(await updateTicket(b.admin.login, b.ticket.id, { status: "open" }));
    await waitFor(() => adminB.length === 2);
    expect(adminB[0]).toEqual({ action: "delete", ticketId: b.ticket.id, fromStatus: "pending" });
    expect(adminB[1]).toMatchObject({ action: "update", ticket: { id: b.ticket.id, status: "open" } });
    expect(strangerHeard.filter((e) => !e.event.startsWith(`company-${b.ticket.companyId}-`))).toEqual([]);
    expect(JSON.stringify(strangerHeard)).not.toContain(ticket.number);
  });

  it("a transfer: the new queue hears an update, whoever loses sight of the ticket hears a delete", async () => {
    const ticket = await openFor(agentA.id, queueA.id);
    // Its arrival (before it was put in queue A) reached the admins only.
    await waitFor(() => about(live.admin, ticket.id).length === 1);
    ticketOk(await updateTicket(a.adminLogin, ticket.id, { queueId: queueB.id }));
    await waitFor(
      () =>
        about(live.agentB, ticket.id).length === 1 &&
        about(live.agentA, ticket.id).length >= 1 &&
        about(live.admin, ticket.id).length === 2,
    );
    expect(summary(live.agentB, ticket.id)).toEqual([["update", "pending", queueB.id, null]]);
    expect(about(live.agentA, ticket.id)).toEqual([{ action: "delete", ticketId: ticket.id }]);
    expect(summary(live.admin, ticket.id)[1]).toEqual(["update", "pending", queueB.id, null]);

    // An unqueued ticket given a queue leaves the view of those who saw it only through allTicket.
    const unqueued = await customerWrites("sem fila");
    await waitFor(() => about(live.agentAll, unqueued.id).length === 1);
    ticketOk(await updateTicket(a.adminLogin, unqueued.id, { queueId: queueA.id }));
    await waitFor(
      () => about(live.agentA, unqueued.id).length === 1 && about(live.agentAll, unqueued.id).length === 2,
    );
    expect(about(live.agentAll, unqueued.id)[1]).toEqual({ action: "delete", ticketId: unqueued.id });
  });

  it("a new status or agent: who saw it hears it left the old status before the update (lists per status)", async () => {
    // A client of this API family: one list per status, in the status rooms and the notification room.
    const perStatus = await connectSocket(url, agentA2.login.token);
    sockets.push(perStatus);
    for (const room of ["pending", "open", "closed"])
      expect(await perStatus.timeout(2_000).emitWithAck("joinTickets", room)).toEqual({ ok: true });
    expect(await perStatus.timeout(2_000).emitWithAck("joinNotification")).toEqual({ ok: true });
    const heard = record<TicketEvent>(perStatus, companyEvent(a.company.id, "ticket"));
    const moves = (events: TicketEvent[], id: number) =>
      everything(events, id).map((e) =>
        e.action === "update"
          ? ["update", e.ticket.status]
          : [e.action, "fromStatus" in e ? e.fromStatus : null],
      );

    const ticket = await pendingIn(queueA.id);
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));
    await waitFor(() => moves(heard, ticket.id).length === 2);
    expect(moves(heard, ticket.id)).toEqual([
      ["delete", "pending"],
      ["update", "open"],
    ]);
    ticketOk(await updateTicket(agentA.login, ticket.id, { status: "closed" }));
    await waitFor(() => moves(heard, ticket.id).length === 4);
    expect(moves(heard, ticket.id).slice(2)).toEqual([
      ["delete", "open"],
      ["update", "closed"],
    ]);
    // Agent A (holder) and the admins hear the same order; queue B's agent, who never saw it, nothing.
    await waitFor(
      () => moves(live.agentA, ticket.id).length >= 4 && moves(live.admin, ticket.id).length >= 4,
    );
    expect(moves(live.agentA, ticket.id).slice(-4)).toEqual(moves(heard, ticket.id));
    expect(moves(live.admin, ticket.id).slice(-4)).toEqual(moves(heard, ticket.id));
    expect(everything(live.agentB, ticket.id)).toEqual([]);

    // Given to another agent without a new status: the old holder's list per status hears it left too.
    const held = await openFor(agentA.id, queueA.id);
    ticketOk(await updateTicket(a.adminLogin, held.id, { userId: agentA2.id }));
    await waitFor(() => moves(heard, held.id).length === 2);
    expect(moves(heard, held.id)).toEqual([
      ["delete", "open"],
      ["update", "open"],
    ]);
    // A change of neither (a queue-less message, an unread reset) is only an update.
    await customerWrites("mais uma", { number: held.number });
    await waitFor(() => moves(heard, held.id).length === 3);
    expect(moves(heard, held.id)[2]).toEqual(["update", "open"]);
  });

  it("the chat box: only who may see the ticket joins it and hears the contact typing; a transfer out of their view evicts them", async () => {
    type Presence = CompanyEventPayloads["presence"];
    const ticket = await openFor(agentA.id, queueA.id);
    const chatOpen = await connectSocket(url, agentA.login.token);
    const chatClosed = await connectSocket(url, agentA2.login.token);
    const outsider = await connectSocket(url, agentB.login.token);
    sockets.push(chatOpen, chatClosed, outsider);
    const join = (socket: Socket, id: unknown) => socket.timeout(2_000).emitWithAck("joinChatBox", id);
    expect(await join(chatOpen, ticket.id)).toEqual({ ok: true });
    expect(await join(outsider, ticket.id)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    expect(await join(outsider, b.ticket.id)).toEqual({ ok: false, error: "ERR_NO_TICKET_FOUND" });
    const presence = (socket: Socket) => record<Presence>(socket, companyEvent(a.company.id, "presence"));
    const heard = { open: presence(chatOpen), closed: presence(chatClosed), outsider: presence(outsider) };
    const ticketEvents = record<TicketEvent>(chatOpen, companyEvent(a.company.id, "ticket"));
    const typing = async (state: string) =>
      expect(
        (await phoneSends(ctx, a.adminLogin, a.connection.id, { from: ticket.number, presence: state }))
          .statusCode,
      ).toBe(201);

    await typing("composing");
    await waitFor(() => heard.open.length === 1);
    expect(heard.open).toEqual([{ ticketId: ticket.id, presence: "composing" }]);

    // Moved to queue B: Ana may no longer see it, so she hears it is gone, and nothing more of it.
    ticketOk(await updateTicket(a.adminLogin, ticket.id, { queueId: queueB.id }));
    await waitFor(() => about(ticketEvents, ticket.id).length === 1);
    expect(about(ticketEvents, ticket.id)).toEqual([{ action: "delete", ticketId: ticket.id }]);
    expect(await join(outsider, ticket.id)).toEqual({ ok: true });
    await typing("recording");
    await waitFor(() => heard.outsider.length === 1);
    expect(heard.outsider).toEqual([{ ticketId: ticket.id, presence: "recording" }]);
    expect(heard.open).toHaveLength(1);
    expect(heard.closed).toEqual([]);
  });
});
