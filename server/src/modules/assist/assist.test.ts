import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistAnswerDTO, AssistStatusDTO, PromptDTO, TokenUsageDTO } from "@atende/contracts";
import { messages, quickMessages, ticketNotes } from "../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import { type ChatRequest, startOpenAiFake } from "../../test/fakes/ai.js";
import type { Answer } from "../../test/fakes/httpFake.js";
import { buildMessage, buildQueue, buildTicket, buildUser, login, uid } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { buildBotTeam } from "../bots/integrations/testing.js";

/**
 * AI help for agents (issue 39, item 4) against the local OpenAI-compatible fake: what goes into a
 * request (this ticket's messages only, the agent's quick messages, the ticket queue's prompt text,
 * never another queue's or company's), the answer handed back and nothing sent or saved, the tokens
 * in GET /prompt/usage, every provider failure as a 424 that changes nothing, and who may ask.
 */

const KEY = "sk-assist-test-key-0001";
let ctx: TestContext;
let ai: Awaited<ReturnType<typeof startOpenAiFake>>;
/** What the fake provider does instead of answering, for the failure tests. */
let failWith: Answer | undefined;

const SUGGESTION = "Olá! Já localizei o seu pedido; posso trocar o tamanho hoje mesmo.";
function answer(req: ChatRequest) {
  const system = req.messages[0]!.content;
  if (system.startsWith("Resuma")) return { content: "Cliente quer trocar o tamanho do pedido 123." };
  if (system.startsWith("Reescreva") || system.startsWith("Corrija"))
    return { content: `Reescrito: ${req.messages[1]!.content}` };
  return { content: SUGGESTION };
}

beforeAll(async () => {
  ai = await startOpenAiFake({ apiKey: KEY, answer, fail: () => failWith });
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.deps.config.OPENAI_BASE_URL = `${ai.url}/v1`;
});
afterAll(async () => {
  await ctx?.close();
  await ai?.close();
});

const call = caller(() => ctx);
const all = (req: ChatRequest) => req.messages.map((m) => m.content).join("\n");

/**
 * A company with AI: a prompt (its key sealed, created over HTTP) for its queue, the queue's agent
 * with an open ticket whose customer wrote, and the same contact's earlier ticket.
 */
async function scene(opts: { promptText?: string; apiKey?: string } = {}) {
  const team = await buildBotTeam(ctx);
  const db = ctx.deps.db;
  const companyId = team.company.id;
  const prompt = expectOk<PromptDTO>(
    await call("POST", "/prompt", team.admin, {
      name: `Vendas ${uid()}`,
      prompt: opts.promptText ?? "Você é da Loja Azul. Ofereça troca grátis em 30 dias.",
      apiKey: opts.apiKey ?? KEY,
      queueId: team.queue.id,
    }),
    201,
  );
  const earlier = await buildTicket(db, companyId, { queueId: team.queue.id, status: "closed" });
  await buildMessage(db, companyId, { ticketId: earlier.id, body: `ticket antigo ${uid()}` });
  const ticket = await buildTicket(db, companyId, {
    contactId: earlier.contactId,
    queueId: team.queue.id,
    status: "open",
    userId: team.agent.user.id,
  });
  await buildMessage(db, companyId, { ticketId: ticket.id, body: "Quero trocar o tamanho do pedido 123" });
  await buildMessage(db, companyId, { ticketId: ticket.id, body: "Claro, um momento.", fromMe: true });
  await buildMessage(db, companyId, { ticketId: ticket.id, body: "apagada", isDeleted: true });
  return { ...team, prompt, ticket, earlier };
}

async function usage(admin: Parameters<typeof call>[2]) {
  return expectOk<TokenUsageDTO>(await call("GET", "/prompt/usage", admin)).total;
}

async function messageCount(ticketId: number) {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(messages)
    .where(eq(messages.ticketId, ticketId));
  return Number(row!.n);
}

describe("suggest a reply", () => {
  it("asks with this ticket's messages, the agent's quick messages and the queue's prompt; answers the text and sends nothing", async () => {
    const s = await scene();
    const db = ctx.deps.db;
    const mine = `troca-${uid()}`;
    await db.insert(quickMessages).values([
      {
        companyId: s.company.id,
        userId: s.agent.user.id,
        shortcode: mine,
        message: "Trocas em até 30 dias.",
      },
      {
        companyId: s.company.id,
        userId: null,
        shortcode: "pix",
        message: "Nossa chave Pix é o CNPJ.",
        geral: true,
      },
    ]);
    // Another agent's own quick message, and another company's whole conversation: never in a request.
    const colleague = await buildUser(db, s.company.id, { profile: "user", queueIds: [s.queue.id] });
    await db.insert(quickMessages).values({
      companyId: s.company.id,
      userId: colleague.id,
      shortcode: "privado",
      message: "só da colega",
    });
    const other = await scene({ promptText: "Instruções da outra empresa" });
    await buildMessage(db, other.company.id, { ticketId: other.ticket.id, body: "segredo da outra empresa" });

    const before = ai.chats().length;
    const sent = await messageCount(s.ticket.id);
    const answered = expectOk<AssistAnswerDTO>(
      await call("POST", `/tickets/${s.ticket.id}/assist/suggest`, s.agent),
    );
    expect(answered).toEqual({ text: SUGGESTION });
    expect(ai.chats().length).toBe(before + 1);
    const req = ai.chats().at(-1)!;
    expect(req.model).toBe(ctx.deps.config.OPENAI_MODEL);
    expect(req.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(req.messages[0]!.content).toContain("Você é da Loja Azul. Ofereça troca grátis em 30 dias.");
    expect(req.messages[0]!.content).toContain(`/${mine}: Trocas em até 30 dias.`);
    expect(req.messages[0]!.content).toContain("/pix: Nossa chave Pix é o CNPJ.");
    expect(req.messages[1]!.content).toContain(
      "Cliente: Quero trocar o tamanho do pedido 123\nAtendente: Claro, um momento.",
    );
    const text = all(req);
    for (const absent of [
      "só da colega",
      "apagada",
      "ticket antigo",
      "segredo da outra empresa",
      "outra empresa",
    ])
      expect(text).not.toContain(absent);
    // The key went as the prompts send it, and nothing was sent to the customer.
    const raw = ai.requests.at(-1)!;
    expect(raw.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await messageCount(s.ticket.id)).toBe(sent);
  });

  it("counts the tokens in the prompts' usage figures and on the prompt", async () => {
    const s = await scene();
    expect((await usage(s.admin)).totalTokens).toBe(0);
    expectOk(await call("POST", `/tickets/${s.ticket.id}/assist/suggest`, s.agent));
    const total = await usage(s.admin);
    expect(total.requests).toBe(1);
    expect(total.totalTokens).toBeGreaterThan(0);
    expect(total.totalTokens).toBe(total.promptTokens + total.completionTokens);
    expectOk(
      await call("POST", `/tickets/${s.ticket.id}/assist/rephrase`, s.agent, {
        text: "oi",
        style: "shorter",
      }),
    );
    expect((await usage(s.admin)).requests).toBe(2);
    const prompt = expectOk<PromptDTO>(await call("GET", `/prompt/${s.prompt.id}`, s.admin));
    expect(prompt.totalTokens).toBe((await usage(s.admin)).totalTokens);
  });

  it("a ticket in a queue without a prompt uses the company's prompt's key but never its queue's text", async () => {
    const s = await scene({ promptText: "Texto exclusivo do setor Vendas" });
    const support = await buildQueue(ctx.deps.db, s.company.id);
    const ticket = await buildTicket(ctx.deps.db, s.company.id, { queueId: support.id, status: "open" });
    await buildMessage(ctx.deps.db, s.company.id, { ticketId: ticket.id, body: "preciso de suporte" });
    expectOk(await call("POST", `/tickets/${ticket.id}/assist/suggest`, s.admin));
    const req = ai.chats().at(-1)!;
    expect(all(req)).toContain("Cliente: preciso de suporte");
    expect(all(req)).not.toContain("Texto exclusivo do setor Vendas");
    expect(ai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe("rephrase and summarize", () => {
  it("rephrases only the agent's text, in the style asked", async () => {
    const s = await scene();
    for (const [style, start] of [
      ["friendlier", "Reescreva"],
      ["shorter", "Reescreva"],
      ["grammar", "Corrija"],
    ] as const) {
      const answered = expectOk<AssistAnswerDTO>(
        await call("POST", `/tickets/${s.ticket.id}/assist/rephrase`, s.agent, {
          text: "  vou ver isso  ",
          style,
        }),
      );
      expect(answered).toEqual({ text: "Reescrito: vou ver isso" });
      const req = ai.chats().at(-1)!;
      expect(req.messages[0]!.content.startsWith(start)).toBe(true);
      expect(req.messages[1]).toEqual({ role: "user", content: "vou ver isso" });
      // Nothing of the conversation goes with it.
      expect(all(req)).not.toContain("pedido 123");
    }
    const fields = fieldsOf(
      await call("POST", `/tickets/${s.ticket.id}/assist/rephrase`, s.agent, { text: " ", style: "longer" }),
    );
    expect(Object.keys(fields).sort()).toEqual(["style", "text"]);
  });

  it("summarizes the conversation in the agent's language; saves nothing; an empty conversation is refused", async () => {
    const s = await scene();
    const answered = expectOk<AssistAnswerDTO>(
      await call("POST", `/tickets/${s.ticket.id}/assist/summarize`, s.agent, undefined, {
        "accept-language": "en-US,en;q=0.9",
      }),
    );
    expect(answered.text).toBe("Cliente quer trocar o tamanho do pedido 123.");
    const req = ai.chats().at(-1)!;
    expect(req.messages[0]!.content).toContain("em inglês");
    expect(req.messages[1]!.content).toContain("Cliente: Quero trocar o tamanho do pedido 123");
    expect(all(req)).not.toContain("ticket antigo");
    const notes = await ctx.deps.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, s.ticket.id));
    expect(notes).toEqual([]);

    const empty = await buildTicket(ctx.deps.db, s.company.id, { queueId: s.queue.id, status: "open" });
    const before = ai.chats().length;
    const refused = await call("POST", `/tickets/${empty.id}/assist/summarize`, s.agent);
    expectError(refused, 422, "ERR_ASSIST_EMPTY_CONVERSATION");
    expect(refused.json<{ message: string }>().message).toBe("Ainda não há mensagens para resumir.");
    expect(ai.chats().length).toBe(before);
  });
});

describe("provider failures change nothing", () => {
  const cases: [string, () => void, string][] = [
    [
      "429",
      () => (failWith = { status: 429, json: { error: { message: "Rate limit", type: "requests" } } }),
      "ERR_ASSIST_PROVIDER_BUSY",
    ],
    [
      "500",
      () => (failWith = { status: 500, json: { error: { message: "boom" } } }),
      "ERR_ASSIST_PROVIDER_FAILED",
    ],
    ["no text", () => (failWith = { json: { choices: [] } }), "ERR_ASSIST_PROVIDER_FAILED"],
    [
      "a redirect to an address the server may not reach",
      () => (failWith = { status: 307, headers: { location: "http://10.0.0.1/v1/chat/completions" } }),
      "ERR_ASSIST_PROVIDER_FAILED",
    ],
    [
      "a timeout",
      () => {
        ctx.deps.config.AI_ASSIST_TIMEOUT_MS = 300;
        failWith = { delayMs: 3000, json: {} };
      },
      "ERR_ASSIST_PROVIDER_FAILED",
    ],
  ];

  it.each(cases)(
    "%s answers 424 with its code, and the usage, messages and notes stay as they were",
    async (_, arrange, code) => {
      const s = await scene();
      const before = await usage(s.admin);
      const sent = await messageCount(s.ticket.id);
      arrange();
      try {
        for (const [path, body] of [
          ["suggest", undefined],
          ["rephrase", { text: "vou ver", style: "friendlier" }],
          ["summarize", undefined],
        ] as const) {
          const res = await call("POST", `/tickets/${s.ticket.id}/assist/${path}`, s.agent, body);
          expectError(res, 424, code);
        }
      } finally {
        failWith = undefined;
        ctx.deps.config.AI_ASSIST_TIMEOUT_MS = 30_000;
      }
      expect(await usage(s.admin)).toEqual(before);
      expect(await messageCount(s.ticket.id)).toBe(sent);
      const notes = await ctx.deps.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, s.ticket.id));
      expect(notes).toEqual([]);
    },
  );

  it("a key the provider refuses (401) answers ERR_ASSIST_PROVIDER_KEY, translated", async () => {
    const s = await scene({ apiKey: "sk-wrong-key-9999" });
    const res = await call("POST", `/tickets/${s.ticket.id}/assist/suggest`, s.agent, undefined, {
      "accept-language": "es",
    });
    expectError(res, 424, "ERR_ASSIST_PROVIDER_KEY");
    expect(res.json<{ message: string }>().message).toBe(
      "El proveedor de IA rechazó la clave de la API del prompt.",
    );
    expect((await usage(s.admin)).requests).toBe(0);
  });
});

describe("who may ask", () => {
  it("the composer's status: available with a prompt, not without", async () => {
    const s = await scene();
    expect(expectOk<AssistStatusDTO>(await call("GET", "/assist", s.agent))).toEqual({ available: true });
    const bare = await buildBotTeam(ctx);
    expect(expectOk<AssistStatusDTO>(await call("GET", "/assist", bare.agent))).toEqual({ available: false });
    const ticket = await buildTicket(ctx.deps.db, bare.company.id, {
      queueId: bare.queue.id,
      status: "open",
    });
    const res = await call("POST", `/tickets/${ticket.id}/assist/suggest`, bare.admin);
    expectError(res, 422, "ERR_ASSIST_NO_PROMPT");
    expect(res.json<{ message: string }>().message).toBe(
      "A empresa não tem um prompt de IA com chave configurado.",
    );
  });

  it("a plan without useOpenAi is refused on every call", async () => {
    const s = await buildBotTeam(ctx, { useOpenAi: false });
    const ticket = await buildTicket(ctx.deps.db, s.company.id, { queueId: s.queue.id, status: "open" });
    expectError(await call("GET", "/assist", s.agent), 403, "ERR_PLAN_FEATURE_DISABLED");
    for (const [path, body] of [
      ["suggest", undefined],
      ["rephrase", { text: "oi", style: "shorter" }],
      ["summarize", undefined],
    ] as const)
      expectError(
        await call("POST", `/tickets/${ticket.id}/assist/${path}`, s.admin, body),
        403,
        "ERR_PLAN_FEATURE_DISABLED",
      );
  });

  it("an agent of another queue gets what the ticket's messages answer her (403), another company 404; nothing is asked", async () => {
    const s = await scene();
    const elsewhere = await buildQueue(ctx.deps.db, s.company.id);
    const outsider = await buildUser(ctx.deps.db, s.company.id, {
      profile: "user",
      queueIds: [elsewhere.id],
    });
    const stranger = await login(ctx, outsider.email);
    const other = await buildBotTeam(ctx);
    const before = ai.chats().length;
    expectError(await call("GET", `/messages/${s.ticket.id}`, stranger), 403, "ERR_TICKET_ACCESS_DENIED");
    expectError(await call("GET", `/messages/${s.ticket.id}`, other.admin), 404, "ERR_NO_TICKET_FOUND");
    for (const [path, body] of [
      ["suggest", undefined],
      ["rephrase", { text: "oi", style: "shorter" }],
      ["summarize", undefined],
    ] as const) {
      const url = `/tickets/${s.ticket.id}/assist/${path}`;
      expectError(await call("POST", url, stranger, body), 403, "ERR_TICKET_ACCESS_DENIED");
      expectError(await call("POST", url, other.admin, body), 404, "ERR_NO_TICKET_FOUND");
    }
    expect(ai.chats().length).toBe(before);
  });
});
