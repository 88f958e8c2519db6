import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatorPhoneMessage, TicketDTO, TicketsPage } from "@atende/contracts";
import {
  jobs,
  messages,
  queueOptions,
  ticketBotStates,
  ticketTracking,
  tickets,
  userRatings,
  whatsapps,
} from "../../db/schema/index.js";
import { connectSimulator, phoneSends } from "../../test/channels.js";
import { type LoggedIn, buildCompany, buildQueue, buildUser, login } from "../../test/factories.js";
import { type TestContext, createTestContext, openTestDatabase, waitFor } from "../../test/harness.js";
import { INVALID_OPTION, RATING_RETRY } from "./bot.js";
import { CALLS_DISABLED_MESSAGE } from "./calls.js";
import { RATING_OPTIONS } from "./context.js";

/**
 * The chatbot and the automatic messages, as the customer's phone sees them: conversation scripts
 * through the simulator, with the exact texts received and the ticket's state after each step.
 */
const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
});
afterAll(async () => {
  await ctx.close();
});

let seq = 0;
const newNumber = () => `55119${String(70000000 + ++seq).padStart(8, "0")}`;

async function setup(
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

async function phone(c: TestContext, who: LoggedIn, whatsappId: number, number: string) {
  const res = await c.app.inject({
    method: "GET",
    url: `/simulator/${whatsappId}/messages?number=${encodeURIComponent(number)}`,
    headers: who.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SimulatorPhoneMessage[]>();
}

/** What the customer received (the business's messages), in order. */
async function received(c: TestContext, s: Awaited<ReturnType<typeof setup>>) {
  return (await phone(c, s.adminLogin, s.connection.id, s.customer))
    .filter((m) => m.direction === "out")
    .map((m) => m.body);
}

/** Waits until the customer holds `count` business messages, and answers them. */
async function receivedNow(c: TestContext, s: Awaited<ReturnType<typeof setup>>, count: number) {
  await eventually(async () => (await received(c, s)).length >= count);
  // Nothing more arrives after a short pause (a message sent twice would show here).
  await new Promise((r) => setTimeout(r, 300));
  return received(c, s);
}

async function ticketOf(c: TestContext, s: Awaited<ReturnType<typeof setup>>) {
  const rows = await c.deps.db.select().from(tickets).where(eq(tickets.companyId, s.company.id));
  return rows.sort((a, b) => b.id - a.id)[0]!;
}

const menu3 = "Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n*[ 3 ]* - Financeiro";

describe("the chatbot on inbound messages", () => {
  it("one queue: the ticket joins it and the greeting goes out once", async () => {
    const s = await setup(ctx, { queues: ["Vendas"] });
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual(["Bem-vindo a Vendas"]);
    expect(await ticketOf(ctx, s)).toMatchObject({ queueId: s.queues[0]!.id, status: "pending" });
    await s.say("alguém aí?");
    await new Promise((r) => setTimeout(r, 800));
    expect(await received(ctx, s)).toEqual(["Bem-vindo a Vendas"]);
  });

  it("one queue with sendGreetingMessageOneQueues disabled: no greeting", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas"],
      settings: { sendGreetingMessageOneQueues: "disabled" },
    });
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId === s.queues[0]!.id);
    await new Promise((r) => setTimeout(r, 800));
    expect(await received(ctx, s)).toEqual([]);
  });

  it("three queues: the menu, one clear message for a wrong choice, the chosen queue's greeting", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte", "Financeiro"] });
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual([menu3]);
    expect(await ticketOf(ctx, s)).toMatchObject({ queueId: null, status: "pending", chatbot: true });
    await s.say("7");
    const invalid = `${INVALID_OPTION}\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n*[ 3 ]* - Financeiro`;
    expect(await receivedNow(ctx, s, 2)).toEqual([menu3, invalid]);
    await s.say("banana");
    await new Promise((r) => setTimeout(r, 800));
    expect(await received(ctx, s)).toEqual([menu3, invalid]); // not repeated
    await s.say("2");
    expect(await receivedNow(ctx, s, 3)).toEqual([menu3, invalid, "Bem-vindo a Suporte"]);
    expect(await ticketOf(ctx, s)).toMatchObject({
      queueId: s.queues[1]!.id,
      status: "pending",
      userId: null,
    });
    const [tracking] = await ctx.deps.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, (await ticketOf(ctx, s)).id));
    expect(tracking).toMatchObject({ queueId: s.queues[1]!.id });
    expect(tracking!.queuedAt).not.toBeNull();
  });

  it("a two-level options tree: numbers choose, '0' goes back, '#' returns to the main menu", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    const db = ctx.deps.db;
    const suporte = s.queues[1]!;
    const [internet] = await db
      .insert(queueOptions)
      .values({
        companyId: s.company.id,
        queueId: suporte.id,
        title: "Internet",
        message: "Sobre internet:",
        option: 1,
      })
      .returning();
    await db.insert(queueOptions).values({
      companyId: s.company.id,
      queueId: suporte.id,
      title: "Telefone",
      message: "Ligue 0800",
      option: 2,
    });
    await db.insert(queueOptions).values({
      companyId: s.company.id,
      queueId: suporte.id,
      parentId: internet!.id,
      title: "Lenta",
      message: "Reinicie o roteador.",
      option: 1,
    });
    const menu2 = "Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte";
    const top = "Bem-vindo a Suporte\n\n*[ 1 ]* - Internet\n*[ 2 ]* - Telefone\n*[ # ]* - Menu inicial";
    const internetMenu = "Sobre internet:\n\n*[ 1 ]* - Lenta\n*[ 0 ]* - Voltar\n*[ # ]* - Menu inicial";
    await s.say("oi");
    await receivedNow(ctx, s, 1);
    await s.say("2");
    expect((await receivedNow(ctx, s, 2))[1]).toBe(top);
    await s.say("1");
    expect((await receivedNow(ctx, s, 3))[2]).toBe(internetMenu);
    await s.say("0");
    expect((await receivedNow(ctx, s, 4))[3]).toBe(
      "Bem-vindo a Suporte\n\n*[ 1 ]* - Internet\n*[ 2 ]* - Telefone\n*[ # ]* - Menu inicial",
    );
    await s.say("1");
    await receivedNow(ctx, s, 5);
    await s.say("#");
    expect((await receivedNow(ctx, s, 6))[5]).toBe(menu2);
    expect((await ticketOf(ctx, s)).queueId).toBeNull();
    await s.say("2");
    await receivedNow(ctx, s, 7);
    await s.say("1");
    await receivedNow(ctx, s, 8);
    await s.say("1");
    expect((await receivedNow(ctx, s, 9))[8]).toBe("Reinicie o roteador.");
    expect((await ticketOf(ctx, s)).queueId).toBe(suporte.id);
  });

  it("maxUseBotQueues: the menu is not sent again once used up; the bot stops when an agent accepts", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas", "Suporte", "Financeiro"],
      connection: { maxUseBotQueues: 1 },
    });
    await s.say("oi");
    await receivedNow(ctx, s, 1);
    const ticket = await ticketOf(ctx, s);
    const res = await ctx.app.inject({
      method: "PUT",
      url: `/tickets/${ticket.id}`,
      headers: s.adminLogin.auth,
      payload: { status: "open" },
    });
    expect(res.statusCode, res.body).toBe(200);
    await s.say("1");
    await new Promise((r) => setTimeout(r, 800));
    expect(await received(ctx, s)).toEqual([menu3]);
    expect(await ticketOf(ctx, s)).toMatchObject({ queueId: null, status: "open", userId: s.admin.id });
  });
});

describe("turns the bot would spend saying nothing", () => {
  it("a ticket the bot handed over to its queue queues no turn for the customer's next messages; with opening hours it does, and the notice goes out", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas"],
      connection: { outOfHoursMessage: "Estamos fechados." },
    });
    const turns = async () => {
      const ticket = await ticketOf(ctx, s);
      return (await ctx.deps.db.select().from(jobs)).filter(
        (j) => j.type === "chatbot-step" && j.payload.ticketId === ticket.id,
      );
    };
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual(["Bem-vindo a Vendas"]);
    const [state] = await ctx.deps.db
      .select()
      .from(ticketBotStates)
      .where(eq(ticketBotStates.ticketId, (await ticketOf(ctx, s)).id));
    expect(state!.stage).toBe("done");
    expect(await turns()).toHaveLength(1);

    await s.say("mais uma coisa");
    await eventually(async () => (await ticketOf(ctx, s)).lastMessage === "mais uma coisa");
    await new Promise((r) => setTimeout(r, 300));
    expect(await turns()).toHaveLength(1);

    // With the company's hours on, the same ticket's messages are turns again: 20:00 in São Paulo.
    const res = await ctx.app.inject({
      method: "PUT",
      url: "/settings/scheduleType",
      headers: s.adminLogin.auth,
      payload: { key: "scheduleType", value: "company" },
    });
    expect(res.statusCode, res.body).toBe(200);
    ctx.clock.now = new Date("2025-01-15T23:00:00Z");
    try {
      await s.say("alô?");
      expect(await receivedNow(ctx, s, 2)).toEqual(["Bem-vindo a Vendas", "Estamos fechados."]);
      expect(await turns()).toHaveLength(2);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("a ticket moved to a queue its connection does not serve still queues turns (the bot offers the connection's queues again)", async () => {
    const s = await setup(ctx, { queues: ["Vendas"] });
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual(["Bem-vindo a Vendas"]);
    const elsewhere = await buildQueue(ctx.deps.db, s.company.id, { name: "Outra", greetingMessage: "" });
    const ticket = await ticketOf(ctx, s);
    await ctx.deps.db.update(tickets).set({ queueId: elsewhere.id }).where(eq(tickets.id, ticket.id));
    const turns = async () =>
      (await ctx.deps.db.select().from(jobs)).filter(
        (j) => j.type === "chatbot-step" && j.payload.ticketId === ticket.id,
      );
    expect(await turns()).toHaveLength(1);
    await s.say("e agora?");
    await eventually(async () => (await turns()).length === 2);
  });
});

describe("out of hours", () => {
  it("at 20:00 São Paulo time (23:00 UTC), the company's hours: the message once per closed period", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas", "Suporte"],
      connection: { outOfHoursMessage: "Estamos fechados. Voltamos às 08:00." },
      settings: { scheduleType: "company" },
    });
    // Wednesday 2025-01-15 20:00 in São Paulo; 23:00 on the server's UTC clock.
    ctx.clock.now = new Date("2025-01-15T23:00:00Z");
    try {
      await s.say("oi");
      expect(await receivedNow(ctx, s, 1)).toEqual(["Estamos fechados. Voltamos às 08:00."]);
      await s.say("alô");
      await new Promise((r) => setTimeout(r, 800));
      expect(await received(ctx, s)).toEqual(["Estamos fechados. Voltamos às 08:00."]);
      // 10:00 São Paulo the next day (13:00 UTC): open, the menu.
      ctx.clock.now = new Date("2025-01-16T13:00:00Z");
      await s.say("bom dia");
      expect((await receivedNow(ctx, s, 2))[1]).toBe(
        "Olá! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte",
      );
      // 19:00 São Paulo (22:00 UTC): a new closed period, told again.
      ctx.clock.now = new Date("2025-01-16T22:00:00Z");
      await s.say("ainda aí?");
      expect((await receivedNow(ctx, s, 3))[2]).toBe("Estamos fechados. Voltamos às 08:00.");
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("at 11:00 UTC (08:00 São Paulo) the company is open though the UTC clock says otherwise in another zone", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas"],
      connection: { outOfHoursMessage: "Fechado." },
      settings: { scheduleType: "company", timezone: "Asia/Tokyo" },
    });
    // 2025-01-15T11:00Z is 20:00 in Tokyo: closed there.
    ctx.clock.now = new Date("2025-01-15T11:00:00Z");
    try {
      await s.say("oi");
      expect(await receivedNow(ctx, s, 1)).toEqual(["Fechado."]);
    } finally {
      ctx.clock.now = new Date();
    }
  });
});

async function acceptAndResolve(c: TestContext, s: Awaited<ReturnType<typeof setup>>) {
  const ticket = await ticketOf(c, s);
  const put = (payload: Record<string, unknown>) =>
    c.app.inject({ method: "PUT", url: `/tickets/${ticket.id}`, headers: s.adminLogin.auth, payload });
  expect((await put({ status: "open" })).statusCode).toBe(200);
  const reply = await c.app.inject({
    method: "POST",
    url: `/messages/${ticket.id}`,
    headers: s.adminLogin.auth,
    payload: { body: "Olá, posso ajudar?" },
  });
  expect(reply.statusCode, reply.body).toBeLessThan(300);
  const resolved = await put({ status: "closed" });
  expect(resolved.statusCode, resolved.body).toBe(200);
  return { ticket, resolved: resolved.json<TicketDTO>() };
}

async function botState(ticketId: number) {
  const [row] = await ctx.deps.db
    .select()
    .from(ticketBotStates)
    .where(eq(ticketBotStates.ticketId, ticketId));
  return row ?? null;
}

function trackingOf(ticketId: number) {
  return ctx.deps.db.select().from(ticketTracking).where(eq(ticketTracking.ticketId, ticketId));
}

/** The company's tickets, oldest first. */
async function ticketsOf(s: Awaited<ReturnType<typeof setup>>) {
  const rows = await ctx.deps.db.select().from(tickets).where(eq(tickets.companyId, s.company.id));
  return rows.sort((a, b) => a.id - b.id);
}

/** What the admin's ticket list shows for a status (all tickets). */
async function listed(s: Awaited<ReturnType<typeof setup>>, status: string) {
  const res = await ctx.app.inject({
    method: "GET",
    url: `/tickets?status=${status}&showAll=true`,
    headers: s.adminLogin.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json<TicketsPage>();
  return { ids: page.tickets.map((t) => t.id), count: page.count };
}

describe("rating and the completion message", () => {
  const rated = {
    queues: ["Vendas"],
    connection: { ratingMessage: "Avalie nosso atendimento:", complationMessage: "Obrigado pelo contato!" },
    settings: { userRating: "enabled", sendGreetingMessageOneQueues: "disabled" },
  };
  const question = `Avalie nosso atendimento:\n\n${RATING_OPTIONS}`;

  it("rating 3: the ticket closes on resolve; the answer is recorded on its tracking and the user's rating", async () => {
    const s = await setup(ctx, rated);
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId !== null);
    const { ticket, resolved } = await acceptAndResolve(ctx, s);
    expect(resolved.status).toBe("closed"); // closed at once, the rating awaited by the bot
    expect(await receivedNow(ctx, s, 2)).toEqual(["Olá, posso ajudar?", question]);
    expect(await botState(ticket.id)).toMatchObject({ ratingAsks: 1 });
    // Not in anyone's open or waiting list while the rating is awaited.
    expect(await listed(s, "open")).toEqual({ ids: [], count: 0 });
    expect(await listed(s, "pending")).toEqual({ ids: [], count: 0 });
    expect(await listed(s, "closed")).toEqual({ ids: [ticket.id], count: 1 });
    const [closedAt] = await trackingOf(ticket.id);
    expect(closedAt!.finishedAt).not.toBeNull();

    await s.say("3");
    expect(await receivedNow(ctx, s, 3)).toEqual(["Olá, posso ajudar?", question, "Obrigado pelo contato!"]);
    await eventually(async () => (await botState(ticket.id))?.ratingAsks === 0);
    // The answer reached the closed ticket: no new ticket, still closed.
    expect(await ticketsOf(s)).toMatchObject([{ id: ticket.id, status: "closed" }]);
    const [tracking] = await trackingOf(ticket.id);
    expect(tracking).toMatchObject({ rating: 3, userId: s.admin.id, queueId: s.queues[0]!.id });
    for (const k of [
      "queuedAt",
      "acceptedAt",
      "firstAgentReplyAt",
      "ratingAt",
      "ratedAt",
      "finishedAt",
    ] as const)
      expect(tracking![k], k).not.toBeNull();
    expect(tracking!.acceptedAt!.getTime()).toBeLessThanOrEqual(tracking!.finishedAt!.getTime());
    expect(tracking!.finishedAt!.getTime()).toBe(closedAt!.finishedAt!.getTime()); // the resolve, not the answer
    const ratings = await ctx.deps.db.select().from(userRatings).where(eq(userRatings.ticketId, ticket.id));
    expect(ratings).toMatchObject([{ rate: 3, userId: s.admin.id }]);
  });

  it("'ótimo' then 2: asked once more, then recorded", async () => {
    const s = await setup(ctx, rated);
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId !== null);
    const { ticket } = await acceptAndResolve(ctx, s);
    await receivedNow(ctx, s, 2);
    await s.say("ótimo");
    expect((await receivedNow(ctx, s, 3))[2]).toBe(`${RATING_RETRY}\n\n${question}`);
    expect(await ticketsOf(s)).toMatchObject([{ id: ticket.id, status: "closed" }]);
    expect(await botState(ticket.id)).toMatchObject({ ratingAsks: 2 });
    await s.say("2");
    await eventually(async () => (await trackingOf(ticket.id))[0]?.rating === 2);
    expect(await receivedNow(ctx, s, 4)).toEqual([
      "Olá, posso ajudar?",
      question,
      `${RATING_RETRY}\n\n${question}`,
      "Obrigado pelo contato!",
    ]);
    expect(await ticketsOf(s)).toMatchObject([{ id: ticket.id, status: "closed" }]);
  });

  it("two answers that are not ratings: the wait ends without a rating; the next message opens a new ticket", async () => {
    const s = await setup(ctx, rated);
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId !== null);
    const { ticket } = await acceptAndResolve(ctx, s);
    await receivedNow(ctx, s, 2);
    await s.say("ótimo");
    await receivedNow(ctx, s, 3);
    await s.say("muito bom");
    await eventually(async () => (await botState(ticket.id))?.ratingAsks === 0);
    expect((await receivedNow(ctx, s, 4))[3]).toBe("Obrigado pelo contato!");
    const [tracking] = await trackingOf(ticket.id);
    expect(tracking!.rating).toBeNull();
    expect(await ctx.deps.db.select().from(userRatings).where(eq(userRatings.ticketId, ticket.id))).toEqual(
      [],
    );
    expect(await ticketsOf(s)).toMatchObject([{ id: ticket.id, status: "closed" }]);
    // No rating awaited any more: a new conversation.
    await s.say("preciso de outra coisa");
    await eventually(async () => (await ticketsOf(s)).length === 2);
    expect((await ticketsOf(s))[1]).toMatchObject({ status: "pending", queueId: s.queues[0]!.id });
  });

  it("the agent reopens a ticket awaiting its rating: the wait ends and the customer talks to the agent", async () => {
    const s = await setup(ctx, rated);
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId !== null);
    const { ticket } = await acceptAndResolve(ctx, s);
    await receivedNow(ctx, s, 2);
    const reopen = await ctx.app.inject({
      method: "PUT",
      url: `/tickets/${ticket.id}`,
      headers: s.adminLogin.auth,
      payload: { status: "open" },
    });
    expect(reopen.statusCode, reopen.body).toBe(200);
    expect(reopen.json<TicketDTO>()).toMatchObject({ status: "open", userId: s.admin.id });
    expect(await botState(ticket.id)).toMatchObject({ ratingAsks: 0 });
    await s.say("3");
    await eventually(async () => (await ticketOf(ctx, s)).lastMessage === "3");
    await new Promise((r) => setTimeout(r, 800));
    expect(await received(ctx, s)).toEqual(["Olá, posso ajudar?", question]);
    expect((await trackingOf(ticket.id))[0]!.rating).toBeNull();
    expect(await ticketsOf(s)).toMatchObject([{ id: ticket.id, status: "open" }]);
  });

  it("without userRating: the completion message on resolve, and bot messages are not agent replies", async () => {
    const s = await setup(ctx, { ...rated, settings: { sendGreetingMessageOneQueues: "enabled" } });
    await s.say("oi");
    await receivedNow(ctx, s, 1);
    const ticket = await ticketOf(ctx, s);
    const put = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: "PUT", url: `/tickets/${ticket.id}`, headers: s.adminLogin.auth, payload });
    expect((await put({ status: "open" })).statusCode).toBe(200);
    const [before] = await ctx.deps.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, ticket.id));
    expect(before!.firstAgentReplyAt).toBeNull(); // the bot's greeting does not count
    expect((await put({ status: "closed" })).json<TicketDTO>().status).toBe("closed");
    expect(await receivedNow(ctx, s, 2)).toEqual(["Bem-vindo a Vendas", "Obrigado pelo contato!"]);
  });

  it("the first agent reply is timed by the app clock, not the database's", async () => {
    const s = await setup(ctx, { ...rated, settings: { sendGreetingMessageOneQueues: "disabled" } });
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId !== null);
    const ticket = await ticketOf(ctx, s);
    // Two hours ahead of the database's clock, frozen.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 2 * 3600_000);
    ctx.clock.now = at;
    try {
      const put = await ctx.app.inject({
        method: "PUT",
        url: `/tickets/${ticket.id}`,
        headers: s.adminLogin.auth,
        payload: { status: "open" },
      });
      expect(put.statusCode, put.body).toBe(200);
      for (const body of ["Olá, posso ajudar?", "Um momento."]) {
        const res = await ctx.app.inject({
          method: "POST",
          url: `/messages/${ticket.id}`,
          headers: s.adminLogin.auth,
          payload: { body },
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
        ctx.clock.now = new Date(at.getTime() + 60_000); // the second reply does not move it
      }
      const [tracking] = await ctx.deps.db
        .select()
        .from(ticketTracking)
        .where(eq(ticketTracking.ticketId, ticket.id));
      expect(tracking!.firstAgentReplyAt!.getTime()).toBe(at.getTime());
      expect(tracking!.acceptedAt!.getTime()).toBe(at.getTime());
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("the transfer notice (sendMsgTransfTicket)", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas", "Suporte"],
      settings: { sendMsgTransfTicket: "enabled" },
    });
    await s.say("oi");
    await receivedNow(ctx, s, 1);
    await s.say("1");
    await receivedNow(ctx, s, 2);
    const ticket = await ticketOf(ctx, s);
    const res = await ctx.app.inject({
      method: "PUT",
      url: `/tickets/${ticket.id}`,
      headers: s.adminLogin.auth,
      payload: { queueId: s.queues[1]!.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await receivedNow(ctx, s, 3))[2]).toBe(
      "*Mensagem automática*:\nVocê foi transferido para o departamento *Suporte*\naguarde, já vamos te atender!",
    );
  });
});

describe("the call setting", () => {
  async function callFrom(s: Awaited<ReturnType<typeof setup>>, isVideo = false) {
    const res = await ctx.app.inject({
      method: "POST",
      url: `/simulator/${s.connection.id}/calls`,
      headers: s.adminLogin.auth,
      payload: { from: s.customer, isVideo },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }
  const callLogs = async (s: Awaited<ReturnType<typeof setup>>) =>
    (await ctx.deps.db.select().from(messages).where(eq(messages.companyId, s.company.id)))
      .filter((m) => m.mediaType === "call_log")
      .map((m) => m.body);

  it("calls disabled: each call is declined on the phone and the customer is told once per call", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"], settings: { call: "disabled" } });
    const first = await callFrom(s);
    expect(await receivedNow(ctx, s, 1)).toEqual([CALLS_DISABLED_MESSAGE]);
    const view = await phone(ctx, s.adminLogin, s.connection.id, s.customer);
    expect(view.find((m) => m.id === first)).toMatchObject({ kind: "call_rejected", body: "Chamada de voz" });
    // The missed call is still in the ticket; the bot does not answer a call with its menu.
    expect(await callLogs(s)).toEqual([expect.stringMatching(/^Chamada de voz perdida às \d\d:\d\d$/)]);
    const second = await callFrom(s, true);
    expect(await receivedNow(ctx, s, 2)).toEqual([CALLS_DISABLED_MESSAGE, CALLS_DISABLED_MESSAGE]);
    expect(
      (await phone(ctx, s.adminLogin, s.connection.id, s.customer)).find((m) => m.id === second),
    ).toMatchObject({
      kind: "call_rejected",
      body: "Chamada de vídeo",
    });
    expect(await callLogs(s)).toHaveLength(2);
    // Only the call's own ticket, waiting like any other.
    expect(await ticketsOf(s)).toMatchObject([{ status: "pending", userId: null }]);
    const message = (
      await ctx.deps.db.select().from(messages).where(eq(messages.companyId, s.company.id))
    ).find((m) => m.fromMe);
    expect(message).toMatchObject({ isBot: true, body: CALLS_DISABLED_MESSAGE });
  });

  it("calls enabled (the default): the call rings on, nothing is sent, the missed call is stored", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    const id = await callFrom(s);
    await eventually(async () => (await callLogs(s)).length === 1);
    await new Promise((r) => setTimeout(r, 800));
    expect(await received(ctx, s)).toEqual([]);
    expect(
      (await phone(ctx, s.adminLogin, s.connection.id, s.customer)).find((m) => m.id === id),
    ).toMatchObject({
      kind: "call",
    });
  });
});

describe("timers: durable jobs", () => {
  it("auto-transfer after timeToTransfer minutes to transferQueueId", async () => {
    const t0 = new Date(Date.now() + 3600_000);
    ctx.clock.now = t0;
    try {
      const db = ctx.deps.db;
      const s0 = await setup(ctx, { queues: ["Vendas"], settings: { sendMsgTransfTicket: "enabled" } });
      const urgent = await buildQueue(db, s0.company.id, { name: "Urgente" });
      const s = s0;
      await db
        .update(whatsapps)
        .set({ timeToTransfer: 10, transferQueueId: urgent.id })
        .where(eq(whatsapps.id, s.connection.id));
      await s.say("oi");
      await receivedNow(ctx, s, 1);
      await new Promise((r) => setTimeout(r, 500));
      expect((await ticketOf(ctx, s)).queueId).toBe(s.queues[0]!.id);
      ctx.clock.now = new Date(t0.getTime() + 11 * 60_000);
      await eventually(async () => (await ticketOf(ctx, s)).queueId === urgent.id);
      expect((await receivedNow(ctx, s, 2))[1]).toContain("*Urgente*");
    } finally {
      ctx.clock.now = new Date();
    }
  });
});

describe("timers across a restart and two instances", () => {
  it("auto-close after expiresTicket survives a restart and runs once with two instances", async () => {
    const database = await openTestDatabase();
    const t0 = new Date();
    const first = await createTestContext({}, { database });
    first.clock.now = t0;
    first.built.startBackground();
    const s = await setup(first, {
      queues: ["Vendas"],
      connection: { expiresTicket: 24, expiresInactiveMessage: "Atendimento encerrado por inatividade." },
      settings: { sendGreetingMessageOneQueues: "disabled" },
    });
    await s.say("oi");
    await eventually(async () => (await ticketOf(first, s))?.queueId !== null);
    const ticket = await ticketOf(first, s);
    const put = await first.app.inject({
      method: "PUT",
      url: `/tickets/${ticket.id}`,
      headers: s.adminLogin.auth,
      payload: { status: "open" },
    });
    expect(put.statusCode).toBe(200);
    await first.close();

    const a = await createTestContext({}, { database });
    const b = await createTestContext({}, { database });
    try {
      const later = new Date(t0.getTime() + 25 * 3600_000);
      a.clock.now = later;
      b.clock.now = later;
      a.built.startBackground();
      b.built.startBackground();
      await eventually(async () => (await ticketOf(a, s)).status === "closed");
      const adminA = await login(a, s.admin.email);
      const out = async () =>
        (await phone(a, adminA, s.connection.id, s.customer))
          .filter((m) => m.direction === "out")
          .map((m) => m.body);
      await eventually(async () => (await out()).length >= 1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await out()).toEqual(["Atendimento encerrado por inatividade."]);
      const [tracking] = await a.deps.db
        .select()
        .from(ticketTracking)
        .where(eq(ticketTracking.ticketId, ticket.id));
      expect(tracking!.finishedAt!.getTime()).toBe(later.getTime());
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });

  it("tickets that existed without a timer get one when the app starts: closed after expiresTicket, once with two instances", async () => {
    const database = await openTestDatabase();
    const t0 = new Date();
    const first = await createTestContext({}, { database });
    first.clock.now = t0;
    first.built.startBackground();
    const s = await setup(first, {
      queues: ["Vendas"],
      settings: { sendGreetingMessageOneQueues: "disabled" },
    });
    await s.say("oi");
    await eventually(async () => (await ticketOf(first, s))?.queueId !== null);
    const ticket = await ticketOf(first, s);
    await first.close();
    // As before the timers existed: taken by an agent and the connection's expiresTicket set,
    // written behind the app's back (no event, no timer).
    await database.db
      .update(tickets)
      .set({ status: "open", userId: s.admin.id, updatedAt: t0 })
      .where(eq(tickets.id, ticket.id));
    await database.db
      .update(whatsapps)
      .set({ expiresTicket: 24, expiresInactiveMessage: "Encerrado por inatividade." })
      .where(eq(whatsapps.id, s.connection.id));
    const timersOf = async () =>
      (await database.db.select().from(jobs)).filter((j) => j.dedupeKey === `expire:${ticket.id}`);
    expect(await timersOf()).toEqual([]);

    const a = await createTestContext({}, { database });
    const b = await createTestContext({}, { database });
    try {
      const later = new Date(t0.getTime() + 25 * 3600_000);
      a.clock.now = later;
      b.clock.now = later;
      a.built.startBackground();
      b.built.startBackground();
      await eventually(async () => (await ticketOf(a, s)).status === "closed");
      const adminA = await login(a, s.admin.email);
      const out = async () =>
        (await phone(a, adminA, s.connection.id, s.customer))
          .filter((m) => m.direction === "out")
          .map((m) => m.body);
      await eventually(async () => (await out()).length >= 1);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await out()).toEqual(["Encerrado por inatividade."]);
      const timers = await timersOf();
      expect(timers).toHaveLength(1);
      // Due 24 hours after the ticket's last change.
      expect(timers[0]!.runAt.getTime()).toBe(t0.getTime() + 24 * 3600_000);
      const [tracking] = await a.deps.db
        .select()
        .from(ticketTracking)
        .where(eq(ticketTracking.ticketId, ticket.id));
      expect(tracking!.finishedAt!.getTime()).toBe(later.getTime());
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });
});
