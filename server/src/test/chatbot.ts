import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { SimulatorPhoneMessage, TicketDTO } from "@atende/contracts";
import { tickets } from "../db/schema/index.js";
import { connectSimulator, phoneSends } from "./channels.js";
import { jobsIdle } from "./settled.js";
import { type LoggedIn, buildCompany, buildQueue, buildUser, login } from "./factories.js";
import { type TestContext, createTestContext, waitFor } from "./harness.js";

/**
 * Chatbot scripts as the customer's phone sees them: a company with its queues and admin, a paired
 * simulator connection, a customer who says things, and what that customer received.
 */
export const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

/** A suite's app with its background work running (the bot's turns, the timers); many logins allowed. */
export async function startedContext(): Promise<TestContext> {
  const c = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  c.built.startBackground();
  return c;
}

let seq = 0;
const newNumber = () => `55119${String(70000000 + ++seq).padStart(8, "0")}`;

export async function setup(
  c: TestContext,
  opts: { queues?: string[]; connection?: Record<string, unknown>; settings?: Record<string, string> } = {},
) {
  const db = c.deps.db;
  const company = await buildCompany(db);
  const queues = [];
  for (const [i, name] of (opts.queues ?? ["Vendas"]).entries())
    queues.push(
      await buildQueue(db, company.id, { name, orderQueue: i + 1, greetingMessage: `Bem-vindo a ${name}` }),
    );
  const admin = await buildUser(db, company.id, { profile: "admin" });
  const adminLogin = await login(c, admin.email);
  for (const [key, value] of Object.entries(opts.settings ?? {})) {
    const res = await c.app.inject({
      method: "PUT",
      url: `/settings/${key}`,
      headers: adminLogin.auth,
      payload: { key, value },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const connection = await connectSimulator(c, adminLogin, {
    queueIds: queues.map((q) => q.id),
    greetingMessage: "Olá! Escolha um setor:",
    ...opts.connection,
  });
  const customer = newNumber();
  const say = async (body: string) => {
    const before = (await phone(c, adminLogin, connection.id, customer)).length;
    const res = await phoneSends(c, adminLogin, connection.id, { from: customer, body });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return before;
  };
  return { company, queues, admin, adminLogin, connection, customer, say };
}

export async function phone(c: TestContext, who: LoggedIn, whatsappId: number, number: string) {
  const res = await c.app.inject({
    method: "GET",
    url: `/simulator/${whatsappId}/messages?number=${encodeURIComponent(number)}`,
    headers: who.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SimulatorPhoneMessage[]>();
}

/** What the customer received (the business's messages), in order. */
export async function received(c: TestContext, s: Awaited<ReturnType<typeof setup>>) {
  return (await phone(c, s.adminLogin, s.connection.id, s.customer))
    .filter((m) => m.direction === "out")
    .map((m) => m.body);
}

/**
 * Waits until the customer holds `count` business messages and the company's jobs are done (a
 * message sent twice would show by then), and answers them.
 */
export async function receivedNow(c: TestContext, s: Awaited<ReturnType<typeof setup>>, count: number) {
  await eventually(async () => (await received(c, s)).length >= count);
  await botDone(c, s);
  return received(c, s);
}

/**
 * Waits until the bot is done with what the customer said so far: every turn and send of the
 * company's that is due has run. Then what the customer did not receive, they never will.
 */
export function botDone(c: TestContext, s: Awaited<ReturnType<typeof setup>>) {
  return jobsIdle(c, s.company.id);
}

export async function ticketOf(c: TestContext, s: Awaited<ReturnType<typeof setup>>) {
  const rows = await c.deps.db.select().from(tickets).where(eq(tickets.companyId, s.company.id));
  return rows.sort((a, b) => b.id - a.id)[0]!;
}

/** The customer's ticket, once the bot has put it in a queue. */
export async function queuedTicket(c: TestContext, s: Script) {
  await eventually(async () => (await ticketOf(c, s))?.queueId !== null);
  return ticketOf(c, s);
}

/** The admin changes the ticket (PUT /tickets/{id}: accept, resolve, reopen, transfer). */
export async function updateTicket(c: TestContext, s: Script, ticketId: number, payload: object) {
  const res = await c.app.inject({
    method: "PUT",
    url: `/tickets/${ticketId}`,
    headers: s.adminLogin.auth,
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketDTO>();
}

/** The admin answers on the ticket (POST /messages/{id}). */
export async function agentReplies(c: TestContext, s: Script, ticketId: number, body: string) {
  const res = await c.app.inject({
    method: "POST",
    url: `/messages/${ticketId}`,
    headers: s.adminLogin.auth,
    payload: { body },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

export const menu3 = "Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n*[ 3 ]* - Financeiro";

export type Script = Awaited<ReturnType<typeof setup>>;
