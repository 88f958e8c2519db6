import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agentReplies,
  botDone,
  eventually,
  received,
  receivedNow,
  setup,
  startedContext,
  ticketOf,
  updateTicket,
} from "../../../test/chatbot.js";
import {
  type FakeSession,
  PNG,
  type Step,
  choice,
  image,
  startTypebotFake,
  text,
  textInput,
} from "../../../test/fakes/typebot.js";
import { type TestContext, createTestContext } from "../../../test/harness.js";
import { addIntegration, bindConnection, sendsMedia, sessionBecomes, sessionOf } from "./testing.js";

/**
 * A customer talking to a Typebot flow through the simulator: what reaches Typebot (the real words,
 * the token, the contact's variables), what the customer's phone shows, and how the ticket is handed
 * to people (the command bubble, the finish keyword, an error, an agent writing).
 */
let ctx: TestContext;
let fake: Awaited<ReturnType<typeof startTypebotFake>>;
/** The queue the flow's command bubble sends "Suporte" to, per Typebot session's ticket. */
const transferTo = new Map<string, number>();

function flow(session: FakeSession, said: string | null): Step {
  if (said === null)
    return {
      messages: [text(`**Olá**, ${String(session.variables.pushName)}! _Escolha_ ~~não~~ <u>isto</u>:`)],
      input: choice("Vendas", "Suporte"),
    };
  if (said === "Suporte")
    return {
      messages: [
        text("Um momento, vou chamar alguém."),
        text(`#{"queueId":"${transferTo.get(session.id) ?? 0}"}`),
      ],
    };
  if (said === "Vendas")
    return { messages: [text("Veja:"), image(`${fake.url}/media/oferta.png`)], input: textInput() };
  return { messages: [text(`Você disse: ${said}`)], input: textInput() };
}

beforeAll(async () => {
  fake = await startTypebotFake({ slug: "atende-flow", token: "tb-secret-token", flow });
  ctx = await startedContext();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const requestsOf = (ticketId: number) =>
  fake.requests.filter((r) => {
    const vars = (r.json as { prefilledVariables?: { ticketId?: number } } | undefined)?.prefilledVariables;
    if (vars) return vars.ticketId === ticketId;
    const sessionId = /sessions\/([^/]+)\//.exec(r.path)?.[1];
    return sessionId !== undefined && fake.sessions.get(sessionId)?.variables.ticketId === ticketId;
  });

async function typebotScript(integration: Parameters<typeof addIntegration>[2] = {}) {
  const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
  const bot = await addIntegration(ctx, s.company.id, {
    type: "typebot",
    urlN8N: fake.url,
    typebotSlug: "atende-flow",
    authToken: "tb-secret-token",
    ...integration,
  });
  await bindConnection(ctx, s, { integrationId: bot.id });
  return { ...s, bot };
}

const greeting = (name: string) => `*Olá*, ${name}! _Escolha_ ~não~ isto:`;
const choices = "*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte";

describe("Typebot in the conversation", { timeout: 60_000 }, () => {
  it("starts with the contact's variables and the token, numbers the choices, and the command bubble hands the ticket to a queue", async () => {
    const s = await typebotScript();
    await s.say("oi");
    expect(await receivedNow(ctx, s, 2)).toEqual([greeting(s.customer), choices]);
    const ticket = await ticketOf(ctx, s);
    expect(ticket).toMatchObject({ status: "pending", useIntegration: true, integrationId: s.bot.id });
    const [start] = requestsOf(ticket.id);
    expect(start!.path).toBe("/api/v1/typebots/atende-flow/startChat");
    expect(start!.headers.authorization).toBe("Bearer tb-secret-token");
    expect(start!.json).toMatchObject({
      textBubbleContentFormat: "markdown",
      prefilledVariables: {
        number: s.customer,
        pushName: s.customer,
        ticketId: ticket.id,
        queueId: null,
        connection: s.connection.name,
      },
    });
    const session = [...fake.sessions.values()].find((x) => x.variables.ticketId === ticket.id)!;
    transferTo.set(session.id, s.queues[1]!.id);

    // "2" answers the second choice: Typebot hears the option itself.
    await s.say("2");
    expect(await receivedNow(ctx, s, 3)).toEqual([
      greeting(s.customer),
      choices,
      "Um momento, vou chamar alguém.",
    ]);
    const cont = requestsOf(ticket.id).at(-1)!;
    expect(cont.path).toBe(`/api/v1/sessions/${session.id}/continueChat`);
    expect(cont.headers.authorization).toBe("Bearer tb-secret-token");
    expect(cont.json).toMatchObject({ message: { type: "text", text: "Suporte" } });
    await eventually(async () => (await ticketOf(ctx, s)).queueId === s.queues[1]!.id);
    expect(await ticketOf(ctx, s)).toMatchObject({ status: "pending", userId: null, useIntegration: false });
    expect(await sessionOf(ctx, s)).toMatchObject({ status: "stopped", stopReason: "transfer" });

    // People have it now: the customer's next words go to no bot and get no menu.
    const before = requestsOf(ticket.id).length;
    await s.say("olá?");
    await botDone(ctx, s);
    expect(requestsOf(ticket.id).length).toBe(before);
    expect((await received(ctx, s)).length).toBe(3);
    // A typing presence went out before the replies.
    expect(ctx.built.channels.phones.presenceShown(s.connection.id, s.customer)?.state).toBe("composing");
  });

  it("sends the customer's real words, and an image bubble as an image", async () => {
    const s = await typebotScript();
    await s.say("oi");
    await receivedNow(ctx, s, 2);
    await s.say("1");
    const got = await receivedNow(ctx, s, 4);
    expect(got[2]).toBe("Veja:");
    const ticket = await ticketOf(ctx, s);
    await s.say("meu pedido 123 não chegou");
    await eventually(async () => (await received(ctx, s)).length >= 5);
    expect(requestsOf(ticket.id).at(-1)!.json).toMatchObject({
      message: { type: "text", text: "meu pedido 123 não chegou" },
    });
    expect((await received(ctx, s))[4]).toBe("Você disse: meu pedido 123 não chegou");
    const phone = await ctx.app.inject({
      method: "GET",
      url: `/simulator/${s.connection.id}/messages?number=${s.customer}`,
      headers: s.adminLogin.auth,
    });
    const imageOut = phone
      .json<{ direction: string; kind: string }[]>()
      .filter((m) => m.direction === "out")[3]!;
    expect(imageOut.kind).toBe("image");
  });

  it("the restart keyword says the restart message and starts over; the finish keyword hands over", async () => {
    const s = await typebotScript({
      typebotKeywordRestart: "#reiniciar",
      typebotRestartMessage: "Recomeçando!",
      typebotKeywordFinish: "#sair",
    });
    await s.say("oi");
    await receivedNow(ctx, s, 2);
    const ticket = await ticketOf(ctx, s);
    await s.say("#Reiniciar");
    expect(await receivedNow(ctx, s, 5)).toEqual([
      greeting(s.customer),
      choices,
      "Recomeçando!",
      greeting(s.customer),
      choices,
    ]);
    expect(requestsOf(ticket.id).filter((r) => r.path.endsWith("/startChat")).length).toBe(2);
    const calls = requestsOf(ticket.id).length;
    await s.say("#sair");
    const stopped = await sessionBecomes(ctx, s, "stopped");
    expect(stopped.stopReason).toBe("finish");
    expect(requestsOf(ticket.id).length).toBe(calls); // the keyword itself never reaches the bot
    expect(await ticketOf(ctx, s)).toMatchObject({ status: "pending", useIntegration: false });
  });

  it("after typebotExpires minutes without the customer the next message starts a fresh session", async () => {
    const s = await typebotScript({ typebotExpires: 1 });
    await s.say("oi");
    await receivedNow(ctx, s, 2);
    const ticket = await ticketOf(ctx, s);
    const first = await sessionOf(ctx, s);
    ctx.clock.now = new Date(Date.now() + 2 * 60_000);
    try {
      await s.say("voltei");
      await receivedNow(ctx, s, 4);
    } finally {
      ctx.clock.real();
    }
    const starts = requestsOf(ticket.id).filter((r) => r.path.endsWith("/startChat"));
    expect(starts.length).toBe(2);
    expect((await sessionOf(ctx, s))!.externalId).not.toBe(first!.externalId);
  });

  it("media the bot cannot take gets typebotUnknownMessage, and never reaches Typebot", async () => {
    const s = await typebotScript({ typebotUnknownMessage: "Só entendo texto, tá?" });
    await s.say("oi");
    await receivedNow(ctx, s, 2);
    const ticket = await ticketOf(ctx, s);
    const calls = requestsOf(ticket.id).length;
    await sendsMedia(ctx, s, { filename: "foto.png", mimetype: "image/png", data: PNG });
    expect((await receivedNow(ctx, s, 3))[2]).toBe("Só entendo texto, tá?");
    expect(requestsOf(ticket.id).length).toBe(calls);
  });

  it("messages written while the bot is thinking are joined into one turn, answered once", async () => {
    const s = await typebotScript();
    await s.say("oi");
    await receivedNow(ctx, s, 2);
    const ticket = await ticketOf(ctx, s);
    fake.delayMs = 1200;
    try {
      await s.say("1");
      // Typebot has the "1" and is thinking when the customer writes on.
      await eventually(async () => requestsOf(ticket.id).length === 2);
      await s.say("quero");
      await s.say("o azul");
      await eventually(async () => (await received(ctx, s)).length >= 5);
    } finally {
      fake.delayMs = 0;
    }
    await botDone(ctx, s);
    const continues = requestsOf(ticket.id).filter((r) => r.path.endsWith("/continueChat"));
    expect(continues.map((r) => (r.json as { message: { text: string } }).message.text)).toEqual([
      "Vendas",
      "quero\no azul",
    ]);
    expect((await received(ctx, s)).filter((b) => b.startsWith("Você disse"))).toEqual([
      "Você disse: quero\no azul",
    ]);
  });

  it("an agent accepting stops the bot for good: no reply in flight, none after a return to the queue", async () => {
    const s = await typebotScript();
    await s.say("oi");
    await receivedNow(ctx, s, 2);
    const ticket = await ticketOf(ctx, s);
    // A reply is being computed when the agent accepts: it is never sent.
    fake.delayMs = 1000;
    try {
      await s.say("1");
      await eventually(async () => requestsOf(ticket.id).length === 2);
      await updateTicket(ctx, s, ticket.id, { status: "open", userId: s.admin.id });
      await agentReplies(ctx, s, ticket.id, "Oi, aqui é a Ana!");
      // The bot's answer comes back meanwhile, and the turn ends without sending it.
      await botDone(ctx, s);
    } finally {
      fake.delayMs = 0;
    }
    expect(await receivedNow(ctx, s, 3)).toEqual([greeting(s.customer), choices, "Oi, aqui é a Ana!"]);
    expect(await sessionOf(ctx, s)).toMatchObject({ status: "stopped", stopReason: "agent" });
    // Back in the queue, the bot does not take it again.
    await updateTicket(ctx, s, ticket.id, { status: "pending", userId: null });
    await s.say("ainda aí?");
    await botDone(ctx, s);
    expect(requestsOf(ticket.id).length).toBe(2);
  });

  it("an unreachable bot hands the ticket over and the customer sees no error", async () => {
    const s = await typebotScript({ urlN8N: "http://127.0.0.1:9" });
    await s.say("oi");
    const stopped = await sessionBecomes(ctx, s, "stopped");
    expect(stopped.stopReason).toBe("error");
    expect(await ticketOf(ctx, s)).toMatchObject({ status: "pending", userId: null, useIntegration: false });
    await botDone(ctx, s);
    expect(await received(ctx, s)).toEqual([]);
  });

  it("a private bot with a wrong token is an error: handed over, nothing said", async () => {
    const s = await typebotScript({ authToken: "wrong" });
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");
    expect(await received(ctx, s)).toEqual([]);
  });

  it("another company's integration is never used", async () => {
    const other = await setup(ctx, { queues: ["X"] });
    const foreign = await addIntegration(ctx, other.company.id, {
      type: "typebot",
      urlN8N: fake.url,
      typebotSlug: "atende-flow",
      authToken: "tb-secret-token",
    });
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    await bindConnection(ctx, s, { integrationId: foreign.id });
    await s.say("oi");
    // The company's own queue menu answers; Typebot never hears of this ticket.
    expect((await receivedNow(ctx, s, 1))[0]).toContain("*[ 1 ]* - Vendas");
    expect(requestsOf((await ticketOf(ctx, s)).id)).toEqual([]);
    expect(await sessionOf(ctx, s)).toBeNull();
  });
});

describe("a slow Typebot", () => {
  /** BOT_TIMEOUT_MS for this app (10 s by default): the test waits for the timeout itself. */
  const TIMEOUT_MS = 1_000;
  let quick: TestContext;
  beforeAll(async () => {
    quick = await createTestContext({ BOT_TIMEOUT_MS: TIMEOUT_MS });
    quick.built.startBackground();
  });
  afterAll(() => quick.close());

  it("is given up after BOT_TIMEOUT_MS: the ticket goes to people, the customer sees no error", async () => {
    const slow = await startTypebotFake({ slug: "slow", flow });
    slow.delayMs = 20_000;
    try {
      const s = await setup(quick, { queues: ["Vendas", "Suporte"] });
      const bot = await addIntegration(quick, s.company.id, {
        type: "typebot",
        urlN8N: slow.url,
        typebotSlug: "slow",
      });
      await bindConnection(quick, s, { integrationId: bot.id });
      const t0 = Date.now();
      await s.say("oi");
      await eventually(async () => slow.requests.length > 0);
      await eventually(async () => (await sessionOf(quick, s))?.status === "stopped");
      const elapsed = Date.now() - t0;
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 4_000);
      expect((await sessionOf(quick, s))!.stopReason).toBe("error");
      await botDone(quick, s);
      expect(await received(quick, s)).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 30_000);
});
