import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jobs,
  queueOptions,
  queues,
  settings,
  ticketBotStates,
  ticketTracking,
  tickets,
  userQueues,
} from "../../../db/schema/index.js";
import type { QueueRow } from "../../queues/present.js";
import {
  botDone,
  eventually,
  menu3,
  received,
  receivedNow,
  setup,
  ticketOf,
  startedContext,
  updateTicket,
} from "../../../test/chatbot.js";
import { buildQueue } from "../../../test/factories.js";
import type { TestContext } from "../../../test/harness.js";
import { enqueueJob } from "../../../jobs/runner.js";
import { INVALID_OPTION } from "./bot.js";

/**
 * The chatbot's menus, its silence where it is done, and opening hours, as the customer's phone sees
 * them: conversation scripts through the simulator, with the exact texts received and the ticket's
 * state after each step. Ratings and calls: rating.test.ts; timers: timers.test.ts.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startedContext();
});
afterAll(() => ctx.close());

describe("the chatbot on inbound messages", () => {
  it("one queue: the ticket joins it and the greeting goes out once", async () => {
    const s = await setup(ctx, { queues: ["Vendas"] });
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual(["Bem-vindo a Vendas"]);
    expect(await ticketOf(ctx, s)).toMatchObject({ queueId: s.queues[0]!.id, status: "pending" });
    await s.say("alguém aí?");
    await botDone(ctx, s);
    expect(await received(ctx, s)).toEqual(["Bem-vindo a Vendas"]);
  });

  it("one queue with sendGreetingMessageOneQueues disabled: no greeting", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas"],
      settings: { sendGreetingMessageOneQueues: "disabled" },
    });
    await s.say("oi");
    await eventually(async () => (await ticketOf(ctx, s))?.queueId === s.queues[0]!.id);
    await botDone(ctx, s);
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
    await botDone(ctx, s);
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

  it("chatBotType is text (the spec's value): numbered lines; a button or list saved before reads as text", async () => {
    const s = await setup(ctx, {
      queues: ["Vendas", "Suporte", "Financeiro"],
      settings: { chatBotType: "text" },
    });
    await ctx.deps.db
      .update(settings)
      .set({ value: "list" })
      .where(and(eq(settings.companyId, s.company.id), eq(settings.key, "chatBotType")));
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual([menu3]);
    expect(menu3).toContain("*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n*[ 3 ]* - Financeiro");
  });

  it("one queue order: the menu numbers the queues as the queues page, the connection and the user list them", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Financeiro", "Atendimento", "Bravo"] });
    const db = ctx.deps.db;
    const [vendas, financeiro, atendimento, bravo] = s.queues as [QueueRow, QueueRow, QueueRow, QueueRow];
    // Two queues share a number (then by name); one has none (last).
    for (const [q, orderQueue] of [
      [vendas, 2],
      [financeiro, 2],
      [atendimento, 1],
      [bravo, null],
    ] as const)
      await db.update(queues).set({ orderQueue }).where(eq(queues.id, q.id));
    await db
      .insert(userQueues)
      .values(s.queues.map((q) => ({ companyId: s.company.id, userId: s.admin.id, queueId: q.id })));
    const names = ["Atendimento", "Financeiro", "Vendas", "Bravo"];
    const get = async <T>(url: string) => {
      const res = await ctx.app.inject({ method: "GET", url, headers: s.adminLogin.auth });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<T>();
    };
    type Named = { name: string }[];
    expect((await get<Named>("/queue")).map((q) => q.name)).toEqual(names);
    expect((await get<{ queues: Named }>(`/whatsapp/${s.connection.id}`)).queues.map((q) => q.name)).toEqual(
      names,
    );
    const listed = await get<{ id: number; queues: Named }[]>("/whatsapp/");
    expect(listed.find((w) => w.id === s.connection.id)!.queues.map((q) => q.name)).toEqual(names);
    expect((await get<{ queues: Named }>(`/users/${s.admin.id}`)).queues.map((q) => q.name)).toEqual(names);

    await s.say("oi");
    const menu = `Olá! Escolha um setor:\n\n${names.map((n, i) => `*[ ${i + 1} ]* - ${n}`).join("\n")}`;
    expect(await receivedNow(ctx, s, 1)).toEqual([menu]);
    // "2" is the second queue the admin sees.
    await s.say("2");
    expect(await receivedNow(ctx, s, 2)).toEqual([menu, "Bem-vindo a Financeiro"]);
    expect(await ticketOf(ctx, s)).toMatchObject({ queueId: financeiro.id });
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
    await updateTicket(ctx, s, ticket.id, { status: "open" });
    await s.say("1");
    await botDone(ctx, s);
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
    await botDone(ctx, s);
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

  it("messages written before the bot's first turn ran: one greeting, and the turns queued behind the hand-over are settled without running", async () => {
    const runner = ctx.built.channels.jobs;
    const s = await setup(ctx, { queues: ["Vendas"] });
    await runner.stop(); // the customer writes three times before the bot gets to the first
    try {
      for (const body of ["oi", "tudo bem?", "quero um orçamento"]) await s.say(body);
      const ticket = await ticketOf(ctx, s);
      const turns = async () =>
        (await ctx.deps.db.select().from(jobs))
          .filter((j) => j.type === "chatbot-step" && j.payload.ticketId === ticket.id)
          .sort((a, b) => a.id - b.id);
      await eventually(async () => (await turns()).length === 3);
      // Bystanders, due in an hour: another ticket's turn, and another kind of job in this ticket's line.
      const later = new Date(Date.now() + 3600_000);
      const bystanders = [
        await enqueueJob(ctx.deps.db, {
          type: "chatbot-step",
          companyId: s.company.id,
          payload: { ticketId: -1, messageId: -1 },
          orderKey: "chatbot:ticket:-1",
          runAt: later,
        }),
        await enqueueJob(ctx.deps.db, {
          type: "ticket-expire",
          companyId: s.company.id,
          payload: { ticketId: ticket.id },
          orderKey: `chatbot:ticket:${ticket.id}`,
          runAt: later,
        }),
      ];

      // One turn per claim on a ticket: the first greets and hands the ticket to its queue ...
      await runner.runDue();
      const [state] = await ctx.deps.db
        .select()
        .from(ticketBotStates)
        .where(eq(ticketBotStates.ticketId, ticket.id));
      expect(state!.stage).toBe("done");
      // ... the second finds the bot finished, and settles the third with it (the greeting goes out).
      await runner.runDue();
      const [first, second, third] = await turns();
      expect(first).toMatchObject({ status: "done", attempts: 1 });
      expect(second).toMatchObject({ status: "done", attempts: 1 });
      expect(third).toMatchObject({ status: "done", attempts: 0 });
      const left = await ctx.deps.db
        .select()
        .from(jobs)
        .where(
          inArray(
            jobs.id,
            bystanders.map((id) => id!),
          ),
        );
      expect(left.map((j) => j.status)).toEqual(["pending", "pending"]);
      await ctx.deps.db.delete(jobs).where(
        inArray(
          jobs.id,
          bystanders.map((id) => id!),
        ),
      );
      while ((await runner.runDue()) > 0);
      expect(await received(ctx, s)).toEqual(["Bem-vindo a Vendas"]);
    } finally {
      runner.start();
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
      await botDone(ctx, s);
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
