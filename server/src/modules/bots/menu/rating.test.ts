import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TicketsPage } from "@atende/contracts";
import { messages, ticketBotStates, ticketTracking, tickets, userRatings } from "../../../db/schema/index.js";
import {
  type Script,
  botDone,
  eventually,
  phone,
  received,
  receivedNow,
  setup,
  ticketOf,
  startedContext,
  updateTicket,
  queuedTicket,
  agentReplies,
} from "../../../test/chatbot.js";
import type { TestContext } from "../../../test/harness.js";
import { RATING_RETRY } from "./bot.js";
import { CALLS_DISABLED_MESSAGE } from "../../inbound/calls.js";
import { RATING_OPTIONS } from "../../tickets/rating.js";

/** The rating asked on resolve, the completion message, and the call setting, as the phone sees them. */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startedContext();
});
afterAll(() => ctx.close());

/** The admin accepts the customer's queued ticket, answers once and resolves it. */
async function acceptAndResolve(c: TestContext, s: Script) {
  const ticket = await queuedTicket(c, s);
  await updateTicket(c, s, ticket.id, { status: "open" });
  await agentReplies(c, s, ticket.id, "Olá, posso ajudar?");
  return { ticket, resolved: await updateTicket(c, s, ticket.id, { status: "closed" }) };
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
async function ticketsOf(s: Script) {
  const rows = await ctx.deps.db.select().from(tickets).where(eq(tickets.companyId, s.company.id));
  return rows.sort((a, b) => a.id - b.id);
}

/** What the admin's ticket list shows for a status (all tickets). */
async function listed(s: Script, status: string) {
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
    const { ticket } = await acceptAndResolve(ctx, s);
    await receivedNow(ctx, s, 2);
    expect(await updateTicket(ctx, s, ticket.id, { status: "open" })).toMatchObject({
      status: "open",
      userId: s.admin.id,
    });
    expect(await botState(ticket.id)).toMatchObject({ ratingAsks: 0 });
    await s.say("3");
    await eventually(async () => (await ticketOf(ctx, s)).lastMessage === "3");
    await botDone(ctx, s);
    expect(await received(ctx, s)).toEqual(["Olá, posso ajudar?", question]);
    expect((await trackingOf(ticket.id))[0]!.rating).toBeNull();
    expect(await ticketsOf(s)).toMatchObject([{ id: ticket.id, status: "open" }]);
  });

  it("without userRating: the completion message on resolve, and bot messages are not agent replies", async () => {
    const s = await setup(ctx, { ...rated, settings: { sendGreetingMessageOneQueues: "enabled" } });
    await s.say("oi");
    await receivedNow(ctx, s, 1);
    const ticket = await ticketOf(ctx, s);
    await updateTicket(ctx, s, ticket.id, { status: "open" });
    const [before] = await ctx.deps.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, ticket.id));
    expect(before!.firstAgentReplyAt).toBeNull(); // the bot's greeting does not count
    expect((await updateTicket(ctx, s, ticket.id, { status: "closed" })).status).toBe("closed");
    expect(await receivedNow(ctx, s, 2)).toEqual(["Bem-vindo a Vendas", "Obrigado pelo contato!"]);
  });

  it("the first agent reply is timed by the app clock, not the database's", async () => {
    const s = await setup(ctx, { ...rated, settings: { sendGreetingMessageOneQueues: "disabled" } });
    await s.say("oi");
    const ticket = await queuedTicket(ctx, s);
    // Two hours ahead of the database's clock, frozen.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 2 * 3600_000);
    ctx.clock.now = at;
    try {
      await updateTicket(ctx, s, ticket.id, { status: "open" });
      for (const body of ["Olá, posso ajudar?", "Um momento."]) {
        await agentReplies(ctx, s, ticket.id, body);
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
    await updateTicket(ctx, s, ticket.id, { queueId: s.queues[1]!.id });
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
    await botDone(ctx, s);
    expect(await received(ctx, s)).toEqual([]);
    expect(
      (await phone(ctx, s.adminLogin, s.connection.id, s.customer)).find((m) => m.id === id),
    ).toMatchObject({
      kind: "call",
    });
  });
});
