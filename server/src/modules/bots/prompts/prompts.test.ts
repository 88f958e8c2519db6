import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PromptDTO, PromptsPage, QueueDetailDTO, TokenUsageDTO } from "@atende/contracts";
import { prompts, whatsapps } from "../../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../../test/calls.js";
import { buildQueue, uid } from "../../../test/factories.js";
import {
  type TestContext,
  connectSocket,
  createTestContext,
  record,
  waitFor,
} from "../../../test/harness.js";
import { secretBoxFor } from "../../../lib/secretBox.js";
import { buildBotTeam } from "../integrations/testing.js";
import { recordTokenUsage } from "./queries.js";
import { PROMPT_SECRET_PURPOSE, openPromptSecrets } from "./sealing.js";

let ctx: TestContext;
let log = "";

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000 }, { logger: { level: "trace", stream } });
});
afterAll(() => ctx.close());

const call = caller(() => ctx);
const API_KEY = "sk-proj-abcdefghijklmnop1234";
const body = (queueId: number | null, extra: object = {}) => ({
  name: `Prompt ${uid()}`,
  prompt: "Você é um atendente cordial da loja. Responda em poucas frases.",
  apiKey: API_KEY,
  queueId,
  ...extra,
});

describe("the prompts page's calls", () => {
  it("creates with the spec's defaults, lists as {prompts, count, hasMore} with the queue, edits, deletes", async () => {
    const { admin, queue } = await buildBotTeam(ctx);
    const made = expectOk<PromptDTO>(
      await call("POST", "/prompt", admin, body(queue.id, { name: "Vendas" })),
      201,
    );
    expect(made).toMatchObject({
      name: "Vendas",
      voice: "texto",
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      queueId: queue.id,
      queue: { id: queue.id, name: queue.name },
      apiKeyHint: "1234",
      voiceKeyHint: null,
      totalTokens: 0,
    });
    expect(made).not.toHaveProperty("apiKey");
    const page = expectOk<PromptsPage>(await call("GET", "/prompt", admin));
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.prompts[0]).toMatchObject({ id: made.id, queue: { name: queue.name } });

    const other = await buildQueue(ctx.deps.db, admin.user.companyId);
    const edited = expectOk<PromptDTO>(
      await call("PUT", `/prompt/${made.id}`, admin, {
        ...body(other.id, { name: "Vendas 2" }),
        apiKey: "",
        voice: "pt-BR-FranciscaNeural",
        voiceKey: "azure-key-5555",
        voiceRegion: "brazilsouth",
        maxTokens: "300",
        temperature: 0.4,
        maxMessages: 5,
      }),
    );
    expect(edited).toMatchObject({
      name: "Vendas 2",
      queueId: other.id,
      voice: "pt-BR-FranciscaNeural",
      voiceKeyHint: "5555",
      voiceRegion: "brazilsouth",
      maxTokens: 300,
      temperature: 0.4,
      maxMessages: 5,
      // Left blank: the stored key is kept.
      apiKeyHint: "1234",
    });
    expect(expectOk<PromptDTO>(await call("GET", `/prompt/${made.id}`, admin)).name).toBe("Vendas 2");
    expectOk(await call("DELETE", `/prompt/${made.id}`, admin), 204);
    expectError(await call("GET", `/prompt/${made.id}`, admin), 404, "ERR_NO_PROMPT_FOUND");
  });

  it("'Informe o setor' without a queue; a key is required to create; voices from the list", async () => {
    const { admin, queue } = await buildBotTeam(ctx);
    const noQueue = await call("POST", "/prompt", admin, body(null));
    expectError(noQueue, 400, "ERR_PROMPT_QUEUE_REQUIRED");
    expect(noQueue.json<{ message: string }>().message).toBe("Informe o setor");
    expectError(
      await call("POST", "/prompt", admin, body(queue.id, { apiKey: "" })),
      400,
      "ERR_PROMPT_API_KEY_REQUIRED",
    );
    expect(
      fieldsOf(await call("POST", "/prompt", admin, body(queue.id, { voice: "en-US-JennyNeural" }))),
    ).toHaveProperty("voice");
    expect(fieldsOf(await call("POST", "/prompt", admin, body(queue.id, { temperature: 3 })))).toHaveProperty(
      "temperature",
    );
    expect(expectOk<PromptsPage>(await call("GET", "/prompt", admin)).count).toBe(0);
  });

  it("the keys are sealed at rest and never answered, heard or logged whole", async () => {
    const { admin, company, queue } = await buildBotTeam(ctx);
    const socket = await connectSocket(await ctx.url(), admin.token);
    const heard = record<unknown>(socket, `company-${company.id}-prompt`);
    try {
      const made = expectOk<PromptDTO>(
        await call("POST", "/prompt", admin, body(queue.id, { voiceKey: "azure-voice-key-7777" })),
        201,
      );
      const [row] = await ctx.deps.db.select().from(prompts).where(eq(prompts.id, made.id));
      expect(JSON.stringify(row)).not.toContain(API_KEY);
      expect(JSON.stringify(row)).not.toContain("azure-voice-key-7777");
      // The bot runtime opens them with the deployment's key.
      expect(openPromptSecrets(secretBoxFor(ctx.deps.config), row!)).toEqual({
        apiKey: API_KEY,
        voiceKey: "azure-voice-key-7777",
      });
      // Sealed for one column, a value does not open as another.
      expect(secretBoxFor(ctx.deps.config).open(PROMPT_SECRET_PURPOSE.voiceKey, row!.apiKeyEnc)).toBeNull();
      const answers = [
        (await call("GET", "/prompt", admin)).body,
        (await call("GET", `/prompt/${made.id}`, admin)).body,
        (await call("PUT", `/prompt/${made.id}`, admin, body(queue.id, { apiKey: "" }))).body,
      ];
      await waitFor(() => heard.length >= 2);
      expect(log).toContain("/prompt");
      for (const text of [...answers, JSON.stringify(heard), log]) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain("azure-voice-key-7777");
      }
    } finally {
      socket.close();
    }
  });

  it("the tokens the company used: this month and all time", async () => {
    const { admin, company, queue } = await buildBotTeam(ctx);
    const made = expectOk<PromptDTO>(await call("POST", "/prompt", admin, body(queue.id)), 201);
    const month = ctx.deps.now().toISOString().slice(0, 7);
    await recordTokenUsage(
      ctx.deps.db,
      company.id,
      made.id,
      { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      `${month}-01`,
    );
    await recordTokenUsage(
      ctx.deps.db,
      company.id,
      made.id,
      { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      `${month}-01`,
    );
    await recordTokenUsage(
      ctx.deps.db,
      company.id,
      null,
      { promptTokens: 100, completionTokens: 0, totalTokens: 100 },
      "2020-01-01",
    );
    expect(expectOk<TokenUsageDTO>(await call("GET", "/prompt/usage", admin))).toEqual({
      month: { promptTokens: 11, completionTokens: 7, totalTokens: 18, requests: 2 },
      total: { promptTokens: 111, completionTokens: 7, totalTokens: 118, requests: 3 },
    });
    expect(expectOk<PromptDTO>(await call("GET", `/prompt/${made.id}`, admin))).toMatchObject({
      promptTokens: 11,
      completionTokens: 7,
      totalTokens: 18,
    });
    // Another company's figures are its own.
    const other = await buildBotTeam(ctx);
    expect(expectOk<TokenUsageDTO>(await call("GET", "/prompt/usage", other.admin)).total.totalTokens).toBe(
      0,
    );
  });
});

describe("who may use them", () => {
  it("another company's prompt is not found, nor listed, nor attachable; its queue cannot be the prompt's", async () => {
    const a = await buildBotTeam(ctx);
    const b = await buildBotTeam(ctx);
    const mine = expectOk<PromptDTO>(await call("POST", "/prompt", a.admin, body(a.queue.id)), 201);
    expectError(await call("GET", `/prompt/${mine.id}`, b.admin), 404, "ERR_NO_PROMPT_FOUND");
    expectError(
      await call("PUT", `/prompt/${mine.id}`, b.admin, body(b.queue.id)),
      404,
      "ERR_NO_PROMPT_FOUND",
    );
    expectError(await call("DELETE", `/prompt/${mine.id}`, b.admin), 404, "ERR_NO_PROMPT_FOUND");
    expect(expectOk<PromptsPage>(await call("GET", "/prompt", b.admin)).count).toBe(0);
    expectError(await call("POST", "/prompt", b.admin, body(a.queue.id)), 404, "ERR_NO_QUEUE_FOUND");

    expectError(
      await call("POST", "/queue", b.admin, { name: `Fila ${uid()}`, color: "#abc123", promptId: mine.id }),
      404,
      "ERR_NO_PROMPT_FOUND",
    );
    expectError(
      await call("POST", "/whatsapp", b.admin, {
        name: `Con ${uid()}`,
        provider: "simulator",
        promptId: mine.id,
      }),
      404,
      "ERR_NO_PROMPT_FOUND",
    );
    expect(await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.companyId, b.company.id))).toEqual(
      [],
    );

    // Its own company attaches it to a connection and a queue; deleting the prompt unlinks them.
    const connection = expectOk<{ id: number; promptId: number }>(
      await call("POST", "/whatsapp", a.admin, {
        name: `Con ${uid()}`,
        provider: "simulator",
        promptId: mine.id,
      }),
      201,
    );
    expect(connection.promptId).toBe(mine.id);
    const queue = expectOk<QueueDetailDTO>(
      await call("PUT", `/queue/${a.queue.id}`, a.admin, {
        name: a.queue.name,
        color: a.queue.color,
        promptId: mine.id,
      }),
    );
    expect(queue.promptId).toBe(mine.id);
    expectOk(await call("DELETE", `/prompt/${mine.id}`, a.admin), 204);
    const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id));
    expect(row!.promptId).toBeNull();
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${a.queue.id}`, a.admin)).promptId).toBeNull();
  });

  it("agents may not manage them; a plan without useOpenAi refuses every call", async () => {
    const team = await buildBotTeam(ctx);
    const made = expectOk<PromptDTO>(await call("POST", "/prompt", team.admin, body(team.queue.id)), 201);
    expectError(await call("GET", "/prompt", team.agent), 403, "ERR_NO_PERMISSION");
    expectError(await call("GET", `/prompt/${made.id}`, team.agent), 403, "ERR_NO_PERMISSION");
    expectError(
      await call("PUT", `/prompt/${made.id}`, team.agent, body(team.queue.id)),
      403,
      "ERR_NO_PERMISSION",
    );
    const bare = await buildBotTeam(ctx, { useOpenAi: false });
    for (const [method, url] of [
      ["GET", "/prompt"],
      ["GET", "/prompt/usage"],
      ["POST", "/prompt"],
      ["DELETE", `/prompt/${made.id}`],
    ] as const)
      expectError(await call(method, url, bare.admin, body(bare.queue.id)), 403, "ERR_PLAN_FEATURE_DISABLED");
  });
});
