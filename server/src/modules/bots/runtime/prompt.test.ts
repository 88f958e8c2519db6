import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiTokenUsage, prompts } from "../../../db/schema/index.js";
import {
  botDone,
  eventually,
  received,
  receivedNow,
  setup,
  startedContext,
  ticketOf,
} from "../../../test/chatbot.js";
import { OGG_OPUS, type ChatRequest, startAzureTtsFake, startOpenAiFake } from "../../../test/fakes/ai.js";
import type { TestContext } from "../../../test/harness.js";
import { HANDOVER_PHRASE, HANDOVER_TOOL } from "./prompt.js";
import { addPrompt, bindConnection, bindQueue, sendsMedia, sessionBecomes } from "./testing.js";

/**
 * AI prompts against a local OpenAI-compatible server (chat completions, transcriptions) and Azure's
 * text-to-speech: what the model is given (system prompt, history in order and within maxMessages,
 * maxTokens, temperature), the hand-over, voice notes and the tokens recorded per company.
 */
let ctx: TestContext;
let ai: Awaited<ReturnType<typeof startOpenAiFake>>;
let azure: Awaited<ReturnType<typeof startAzureTtsFake>>;

function answer(req: ChatRequest) {
  const last = req.messages.at(-1)!.content;
  if (last.includes("humano")) return { content: `Claro! ${HANDOVER_PHRASE}` };
  if (last.includes("gerente")) return { toolCall: HANDOVER_TOOL };
  return { content: `Resposta ${req.messages.length}: ${last}` };
}

beforeAll(async () => {
  ai = await startOpenAiFake({ apiKey: "sk-test-atende", answer, transcript: "quero saber do meu pedido" });
  azure = await startAzureTtsFake({ key: "azure-key-1" });
  ctx = await startedContext();
  ctx.deps.config.OPENAI_BASE_URL = `${ai.url}/v1`;
  ctx.deps.config.AZURE_TTS_URL = `${azure.url}/cognitiveservices/v1?region={region}`;
});
afterAll(async () => {
  await ctx.close();
  await ai.close();
  await azure.close();
});

const chatsOf = (number: string) =>
  ai.chats().filter((c) => c.messages.some((m) => m.role === "user" && m.content.includes(number)));

async function promptScript(values: Partial<Parameters<typeof addPrompt>[2]> = {}) {
  const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
  const prompt = await addPrompt(ctx, s.company.id, {
    apiKey: "sk-test-atende",
    queueId: s.queues[1]!.id,
    maxTokens: 120,
    temperature: 0.3,
    ...values,
  });
  await bindConnection(ctx, s, { promptId: prompt.id });
  return { ...s, prompt };
}

describe("AI prompts", { timeout: 60_000 }, () => {
  it("the prompt as system message, the last maxMessages messages in order, maxTokens and temperature; tokens recorded", async () => {
    const s = await promptScript({ maxMessages: 3 });
    const tag = s.customer;
    await s.say(`um ${tag}`);
    await receivedNow(ctx, s, 1);
    await s.say(`dois ${tag}`);
    await receivedNow(ctx, s, 2);
    await s.say(`três ${tag}`);
    await receivedNow(ctx, s, 3);
    const chats = chatsOf(tag);
    expect(chats.length).toBe(3);
    const last = chats[2]!;
    expect(last).toMatchObject({ max_tokens: 120, temperature: 0.3 });
    expect(last.messages[0]!.role).toBe("system");
    expect(last.messages[0]!.content.startsWith("Você é a assistente da loja.")).toBe(true);
    const [r1, r2] = await received(ctx, s);
    // Three messages before this turn (the oldest, "um", left out), then the customer's words.
    expect(last.messages.slice(1)).toEqual([
      { role: "assistant", content: r1 },
      { role: "user", content: `dois ${tag}` },
      { role: "assistant", content: r2 },
      { role: "user", content: `três ${tag}` },
    ]);
    expect(last.tools?.[0]?.function.name).toBe(HANDOVER_TOOL);
    const [row] = await ctx.deps.db.select().from(prompts).where(eq(prompts.id, s.prompt.id));
    expect(row!.totalTokens).toBeGreaterThan(0);
    expect(row!.totalTokens).toBe(row!.promptTokens + row!.completionTokens);
    const [usage] = await ctx.deps.db
      .select()
      .from(aiTokenUsage)
      .where(and(eq(aiTokenUsage.companyId, s.company.id)));
    expect(usage).toMatchObject({ requests: 3, totalTokens: row!.totalTokens });
  });

  it("the hand-over phrase moves the ticket to the prompt's queue, waiting, and the phrase is not sent", async () => {
    const s = await promptScript();
    await s.say(`quero um humano ${s.customer}`);
    await eventually(async () => (await ticketOf(ctx, s)).queueId === s.queues[1]!.id);
    expect(await ticketOf(ctx, s)).toMatchObject({ status: "pending", userId: null, useIntegration: false });
    expect(await receivedNow(ctx, s, 1)).toEqual(["Claro!"]);
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("transfer");
  });

  it("the hand-over tool call does the same, with nothing said", async () => {
    const s = await promptScript();
    await s.say(`chama o gerente ${s.customer}`);
    await eventually(async () => (await ticketOf(ctx, s)).queueId === s.queues[1]!.id);
    await botDone(ctx, s);
    expect(await received(ctx, s)).toEqual([]);
  });

  it("a queue's prompt answers once the ticket is in that queue", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    const prompt = await addPrompt(ctx, s.company.id, { apiKey: "sk-test-atende", queueId: s.queues[0]!.id });
    await bindQueue(ctx, s.company.id, s.queues[0]!.id, { promptId: prompt.id });
    await s.say("oi");
    await receivedNow(ctx, s, 1); // the queue menu
    await s.say("1");
    await receivedNow(ctx, s, 2); // Vendas' greeting
    await s.say(`qual o preço? ${s.customer}`);
    const got = await receivedNow(ctx, s, 3);
    expect(got[2]).toMatch(/^Resposta \d+: qual o preço\?/);
  });

  it("audio is transcribed first; a voice other than 'texto' also sends a voice note made by Azure", async () => {
    const s = await promptScript({
      voice: "pt-BR-FranciscaNeural",
      voiceKey: "azure-key-1",
      voiceRegion: "brazilsouth",
    });
    await sendsMedia(ctx, s, { filename: "audio.ogg", mimetype: "audio/ogg", data: OGG_OPUS });
    await eventually(async () => (await received(ctx, s)).length >= 2);
    const got = await received(ctx, s);
    expect(got[0]).toMatch(/: quero saber do meu pedido$/);
    expect(ai.transcriptions().length).toBeGreaterThan(0);
    const tts = azure.requests.at(-1)!;
    expect(tts.path).toBe("/cognitiveservices/v1?region=brazilsouth");
    const ssml = tts.raw.toString("utf8");
    expect(ssml).toContain("name='pt-BR-FranciscaNeural'");
    expect(ssml).toContain("quero saber do meu pedido");
    const phone = await ctx.app.inject({
      method: "GET",
      url: `/simulator/${s.connection.id}/messages?number=${s.customer}`,
      headers: s.adminLogin.auth,
    });
    const out = phone.json<{ direction: string; kind: string }[]>().filter((m) => m.direction === "out");
    expect(out.map((m) => m.kind)).toEqual(["text", "audio"]);
  });

  it("a wrong API key hands the ticket to the prompt's queue and says nothing", async () => {
    const s = await promptScript({ apiKey: "sk-wrong" });
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");
    expect(await ticketOf(ctx, s)).toMatchObject({ queueId: s.queues[1]!.id, status: "pending" });
    expect(await received(ctx, s)).toEqual([]);
  });

  it("another company's prompt is never used", async () => {
    const other = await setup(ctx, { queues: ["X"] });
    const foreign = await addPrompt(ctx, other.company.id, { apiKey: "sk-test-atende" });
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    await bindConnection(ctx, s, { promptId: foreign.id });
    await s.say(`oi ${s.customer}`);
    expect((await receivedNow(ctx, s, 1))[0]).toContain("*[ 1 ]* - Vendas");
    expect(chatsOf(s.customer)).toEqual([]);
  });
});
