import { eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, expect } from "vitest";
import { type TicketDTO, type TicketsPage } from "@atende/contracts";
import { tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, phoneShows, phoneOpensTicket } from "../../test/channels.js";
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
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { caller, expectOk } from "../../test/calls.js";

/**
 * What the tickets API's test files share (list, lookup, create, status, closing, live): each file
 * gets its own database with company A (a simulator connection with two queues and four agents)
 * and company B (another tenant with its own ticket), and these helpers. Tickets are born the way
 * they are in production: a customer's phone writes to a simulator connection.
 */

export let ctx: TestContext;
export let a: Awaited<ReturnType<typeof buildSimulatorCompany>>;
export let queueA: (typeof a.queues)[number];
export let queueB: (typeof a.queues)[number];

/** Agents of company A: two in queue A, one in queue B, one with no queue but allTicket enabled. */
export let agentA: Member;
export let agentA2: Member;
export let agentB: Member;
export let agentAll: Member;
/** Company B: another tenant, with its own admin, user, queue and ticket. */
export let b: {
  admin: Member;
  user: Member;
  queueId: number;
  contactId: number;
  ticket: typeof tickets.$inferSelect;
};
export const sockets: Socket[] = [];

export const call = caller(() => ctx);
export const getTicket = (who: LoggedIn, id: number | string) => call("GET", `/tickets/${id}`, who);
export const getByUuid = (who: LoggedIn, uuid: string) => call("GET", `/tickets/u/${uuid}`, who);
export const createTicket = (who: LoggedIn, body: unknown) => call("POST", "/tickets", who, body);
export const updateTicket = (who: LoggedIn, id: number, body: unknown) =>
  call("PUT", `/tickets/${id}`, who, body);
export const deleteTicket = (who: LoggedIn, id: number) => call("DELETE", `/tickets/${id}`, who);

/** The answer is this status; the ticket it carries. */
export const ticketOk = (res: { statusCode: number; body: string }, status = 200) =>
  expectOk<TicketDTO>(res, status);

export async function list(who: LoggedIn, query: Record<string, string | number | boolean> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await call("GET", `/tickets?${qs}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketsPage>();
}
export async function listIds(who: LoggedIn, query: Record<string, string | number | boolean> = {}) {
  return (await list(who, query)).tickets.map((t) => t.id);
}

export async function rowOf(id: number) {
  const [row] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, id));
  return row ?? null;
}

/** A contact and a ticket written straight to the database (for other tenants and bulk lists). */
export async function insertTicket(companyId: number, values: Parameters<typeof buildTicket>[2] = {}) {
  const contact = await buildContact(ctx.deps.db, companyId);
  const ticket = await buildTicket(ctx.deps.db, companyId, { contactId: contact.id, ...values });
  return { contact, ticket };
}

/** A contact of company A that has never written. */
export const quietContact = (name = `Contato ${uid()}`) => buildContact(ctx.deps.db, a.company.id, { name });

/** The customer's phone writes in; answers the contact's live ticket as the pipeline left it. */
export async function customerWrites(body: string, opts: { number?: string; name?: string } = {}) {
  const number = opts.number ?? newNumber();
  const ticket = await phoneOpensTicket(ctx, a, { number, name: opts.name ?? `Cliente ${uid()}`, body });
  return { ...ticket, number };
}

/** A waiting ticket placed in a queue (null: left without one, as inbound leaves it). */
export async function pendingIn(queueId: number | null, body = "olá") {
  const ticket = await customerWrites(body);
  await ctx.deps.db.update(tickets).set({ queueId }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId };
}

/** A ticket in service: open, held by `userId`, in `queueId`. */
export async function openFor(userId: number, queueId: number | null, body = "olá") {
  const ticket = await customerWrites(body);
  await ctx.deps.db.update(tickets).set({ queueId, userId, status: "open" }).where(eq(tickets.id, ticket.id));
  return { ...ticket, queueId, userId, status: "open" as const };
}

export const phone = (number: string) => phoneShows(ctx, a.adminLogin, a.connection.id, number);

export async function ticketsOfContact(contactId: number) {
  return ctx.deps.db.select().from(tickets).where(eq(tickets.contactId, contactId));
}

/** Registers the suite's shared setup and teardown: call once at the top of each test file. */
export function setupTicketsSuite() {
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
}
