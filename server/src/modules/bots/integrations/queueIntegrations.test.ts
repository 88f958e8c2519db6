import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueueDetailDTO, QueueIntegrationDTO, QueueIntegrationsPage } from "@atende/contracts";
import { queueIntegrations, queues } from "../../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../../test/calls.js";
import { uid } from "../../../test/factories.js";
import { type FakeGoogle, makeServiceAccount, startFakeGoogle } from "../../../test/fakes/google.js";
import {
  type TestContext,
  connectSocket,
  createTestContext,
  record,
  waitFor,
} from "../../../test/harness.js";
import { buildBotTeam } from "./testing.js";

let ctx: TestContext;
let google: FakeGoogle;
let log = "";
const account = makeServiceAccount("atende-bot");

beforeAll(async () => {
  google = await startFakeGoogle();
  google.allow(account);
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  ctx = await createTestContext(
    { GOOGLE_TOKEN_URL: `${google.url}/token`, DIALOGFLOW_API_URL: google.url, LOGIN_MAX_PER_EMAIL: 1000 },
    // Every request logged (bodies are not, by design): the secrets must not show in any line.
    { logger: { level: "trace", stream } },
  );
});
afterAll(async () => {
  await ctx.close();
  await google.close();
});

const call = caller(() => ctx);
const typebot = (extra: object = {}) => ({
  type: "typebot",
  name: `Bot ${uid()}`,
  urlN8N: "https://typebot.example.com",
  typebotSlug: "atendimento",
  ...extra,
});

describe("the integrations page's calls", () => {
  it("creates with the spec's defaults, lists newest by name with count and hasMore, reads, edits, deletes", async () => {
    const { admin } = await buildBotTeam(ctx);
    const made = expectOk<QueueIntegrationDTO>(
      await call("POST", "/queueIntegration", admin, typebot({ name: "Vendas Bot", projectName: "ignored" })),
      201,
    );
    expect(made).toMatchObject({
      type: "typebot",
      name: "Vendas Bot",
      projectName: "Vendas Bot",
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      jsonContent: "",
      jsonContentHint: null,
      authTokenHint: null,
    });
    // A signing key is made for every integration (the bot runtime signs with it).
    expect(made.signingSecretHint).toMatch(/^.{4}$/);
    const n8n = expectOk<QueueIntegrationDTO>(
      await call("POST", "/queueIntegration", admin, {
        type: "n8n",
        name: "Suporte N8N",
        urlN8N: "http://n8n.local/webhook/1",
      }),
      201,
    );
    expect(n8n.projectName).toBe("Suporte N8N");

    const all = expectOk<QueueIntegrationsPage>(await call("GET", "/queueIntegration/", admin));
    expect(all).toMatchObject({ count: 2, hasMore: false });
    expect(all.queueIntegrations.map((i) => i.name)).toEqual(["Suporte N8N", "Vendas Bot"]);
    // The page sends the search lowercased; the name matches whatever its case.
    const found = expectOk<QueueIntegrationsPage>(
      await call("GET", "/queueIntegration/?searchParam=vendas&pageNumber=1", admin),
    );
    expect(found.queueIntegrations.map((i) => i.id)).toEqual([made.id]);

    const edited = expectOk<QueueIntegrationDTO>(
      await call("PUT", `/queueIntegration/${made.id}`, admin, {
        ...typebot({ name: "Vendas Bot 2" }),
        typebotExpires: 30,
        typebotKeywordFinish: "sair",
        typebotDelayMessage: "2500",
      }),
    );
    expect(edited).toMatchObject({
      name: "Vendas Bot 2",
      projectName: "Vendas Bot 2",
      typebotExpires: 30,
      typebotDelayMessage: 2500,
    });
    // The signing key stays what it was (left blank by the dialog).
    expect(edited.signingSecretHint).toBe(made.signingSecretHint);
    expect(expectOk<QueueIntegrationDTO>(await call("GET", `/queueIntegration/${made.id}`, admin)).name).toBe(
      "Vendas Bot 2",
    );

    expectOk(await call("DELETE", `/queueIntegration/${made.id}`, admin), 204);
    expectError(
      await call("GET", `/queueIntegration/${made.id}`, admin),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    expectError(
      await call("POST", "/queueIntegration", admin, {
        type: "n8n",
        name: "Suporte N8N",
        urlN8N: "http://x.io",
      }),
      409,
      "ERR_QUEUE_INTEGRATION_NAME_TAKEN",
    );
  });

  it("pages 20 at a time", async () => {
    const { admin } = await buildBotTeam(ctx);
    for (let i = 0; i < 21; i++)
      expectOk(
        await call("POST", "/queueIntegration", admin, typebot({ name: `B${String(i).padStart(2, "0")}` })),
        201,
      );
    const first = expectOk<QueueIntegrationsPage>(await call("GET", "/queueIntegration?pageNumber=1", admin));
    expect({ n: first.queueIntegrations.length, count: first.count, hasMore: first.hasMore }).toEqual({
      n: 20,
      count: 21,
      hasMore: true,
    });
    const second = expectOk<QueueIntegrationsPage>(
      await call("GET", "/queueIntegration?pageNumber=2", admin),
    );
    expect(second.queueIntegrations.map((i) => i.name)).toEqual(["B20"]);
    expect(second.hasMore).toBe(false);
  });

  it("requires each type's fields as the spec marks them", async () => {
    const { admin } = await buildBotTeam(ctx);
    expect(
      fieldsOf(await call("POST", "/queueIntegration", admin, { type: "n8n", name: "x" })),
    ).toHaveProperty("urlN8N");
    expect(
      fieldsOf(
        await call("POST", "/queueIntegration", admin, { type: "webhook", name: "x", urlN8N: "ftp://x" }),
      ),
    ).toHaveProperty("urlN8N");
    expect(
      fieldsOf(await call("POST", "/queueIntegration", admin, typebot({ typebotSlug: "" }))),
    ).toHaveProperty("typebotSlug");
    expect(
      fieldsOf(
        await call("POST", "/queueIntegration", admin, { type: "dialogflow", name: "x", language: "fr" }),
      ),
    ).toHaveProperty("language");
    expect(
      fieldsOf(await call("POST", "/queueIntegration", admin, { type: "telegram", name: "x" })),
    ).toHaveProperty("type");
    expectError(
      await call("POST", "/queueIntegration", admin, { type: "dialogflow", name: "x", language: "pt-BR" }),
      400,
      "ERR_DIALOGFLOW_JSON_REQUIRED",
    );
    expectError(
      await call("POST", "/queueIntegration", admin, {
        type: "dialogflow",
        name: "x",
        language: "pt-BR",
        jsonContent: "{}",
      }),
      400,
      "ERR_DIALOGFLOW_JSON_INVALID",
    );
  });
});

describe("secrets", () => {
  it("the service account and the tokens are sealed at rest, never answered or logged whole; blank keeps them", async () => {
    const { admin, company } = await buildBotTeam(ctx);
    const socket = await connectSocket(await ctx.url(), admin.token);
    const heard = record<unknown>(socket, `company-${company.id}-queueIntegration`);
    try {
      const made = expectOk<QueueIntegrationDTO>(
        await call("POST", "/queueIntegration", admin, {
          type: "dialogflow",
          name: "Dialogflow",
          projectName: account.projectId,
          language: "pt-BR",
          jsonContent: account.json,
          authToken: "tok-secret-9876",
        }),
        201,
      );
      expect(made).toMatchObject({
        jsonContent: "",
        jsonContentHint: account.clientEmail,
        authTokenHint: "9876",
      });
      const [row] = await ctx.deps.db
        .select()
        .from(queueIntegrations)
        .where(eq(queueIntegrations.id, made.id));
      expect(row!.jsonContentEnc).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain("PRIVATE KEY");
      expect(JSON.stringify(row)).not.toContain("tok-secret-9876");

      // The edit dialog sends the fields blank: the stored secrets stay (the test call still works).
      const edited = expectOk<QueueIntegrationDTO>(
        await call("PUT", `/queueIntegration/${made.id}`, admin, {
          type: "dialogflow",
          name: "Dialogflow 2",
          projectName: account.projectId,
          language: "pt-BR",
          jsonContent: "",
          authToken: "",
        }),
      );
      expect(edited).toMatchObject({ jsonContentHint: account.clientEmail, authTokenHint: "9876" });
      expectOk(
        await call("POST", "/queueIntegration/testSession", admin, {
          id: made.id,
          projectName: account.projectId,
          jsonContent: "",
          language: "pt-BR",
        }),
      );

      const answers = [
        (await call("GET", "/queueIntegration", admin)).body,
        (await call("GET", `/queueIntegration/${made.id}`, admin)).body,
      ];
      await waitFor(() => heard.length >= 2);
      expect(log).toContain("/queueIntegration"); // the requests were logged, without the secrets
      for (const text of [...answers, JSON.stringify(heard), log]) {
        expect(text).not.toContain("PRIVATE KEY");
        expect(text).not.toContain("tok-secret-9876");
      }
    } finally {
      socket.close();
    }
  });
});

describe("Dialogflow's Test button", () => {
  it("says hello with the service account and answers the agent's reply", async () => {
    const { admin } = await buildBotTeam(ctx);
    const before = google.requests.length;
    const answer = expectOk<{ ok: boolean; fulfillmentText: string; intent: string }>(
      await call("POST", "/queueIntegration/testSession", admin, {
        projectName: account.projectId,
        jsonContent: account.json,
        language: "es",
      }),
    );
    expect(answer).toEqual({
      ok: true,
      fulfillmentText: "Olá! Como posso ajudar?",
      intent: "Default Welcome Intent",
    });
    const calls = google.requests.slice(before);
    expect(calls.map((r) => r.path)).toEqual([
      "/token",
      expect.stringMatching(
        new RegExp(`^/v2/projects/${account.projectId}/agent/sessions/[^/]+:detectIntent$`),
      ),
    ]);
    expect(calls[1]!.json).toEqual({ queryInput: { text: { text: "Olá", languageCode: "es" } } });
  });

  it("answers Google's refusal: another project, an unknown account", async () => {
    const { admin } = await buildBotTeam(ctx);
    const denied = await call("POST", "/queueIntegration/testSession", admin, {
      projectName: "someone-else",
      jsonContent: account.json,
      language: "pt-BR",
    });
    expectError(denied, 400, "ERR_DIALOGFLOW_TEST_FAILED");
    expect(denied.json<{ detail: string }>().detail).toContain("denied");
    const stranger = makeServiceAccount("not-registered");
    const unknown = await call("POST", "/queueIntegration/testSession", admin, {
      projectName: stranger.projectId,
      jsonContent: stranger.json,
      language: "pt-BR",
    });
    expectError(unknown, 400, "ERR_DIALOGFLOW_TEST_FAILED");
    expect(unknown.json<{ detail: string }>().detail).toContain("Invalid grant");
  });
});

describe("who may use them", () => {
  it("another company's integration is not found, nor listed, nor attachable to a queue or a connection", async () => {
    const a = await buildBotTeam(ctx);
    const b = await buildBotTeam(ctx);
    const mine = expectOk<QueueIntegrationDTO>(
      await call("POST", "/queueIntegration", a.admin, typebot()),
      201,
    );
    expectError(
      await call("GET", `/queueIntegration/${mine.id}`, b.admin),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    expectError(
      await call("PUT", `/queueIntegration/${mine.id}`, b.admin, typebot()),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    expectError(
      await call("DELETE", `/queueIntegration/${mine.id}`, b.admin),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    expectError(
      await call("POST", "/queueIntegration/testSession", b.admin, { id: mine.id, language: "pt-BR" }),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    expect(expectOk<QueueIntegrationsPage>(await call("GET", "/queueIntegration", b.admin)).count).toBe(0);

    const queueBody = { name: `Fila ${uid()}`, color: "#123abc", integrationId: mine.id };
    expectError(await call("POST", "/queue", b.admin, queueBody), 404, "ERR_NO_QUEUE_INTEGRATION_FOUND");
    expectError(
      await call("PUT", `/queue/${b.queue.id}`, b.admin, {
        ...queueBody,
        name: b.queue.name,
        color: b.queue.color,
      }),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    expectError(
      await call("POST", "/whatsapp", b.admin, {
        name: `Con ${uid()}`,
        provider: "simulator",
        integrationId: mine.id,
      }),
      404,
      "ERR_NO_QUEUE_INTEGRATION_FOUND",
    );
    const [untouched] = await ctx.deps.db.select().from(queues).where(eq(queues.id, b.queue.id));
    expect(untouched!.integrationId).toBeNull();

    // Its own company attaches it; deleting the integration unlinks the queue.
    const linked = expectOk<QueueDetailDTO>(
      await call("PUT", `/queue/${a.queue.id}`, a.admin, {
        name: a.queue.name,
        color: a.queue.color,
        integrationId: mine.id,
      }),
    );
    expect(linked.integrationId).toBe(mine.id);
    expectOk(await call("DELETE", `/queueIntegration/${mine.id}`, a.admin), 204);
    expect(
      expectOk<QueueDetailDTO>(await call("GET", `/queue/${a.queue.id}`, a.admin)).integrationId,
    ).toBeNull();
  });

  it("agents may not manage them; a plan without useIntegrations refuses every call", async () => {
    const team = await buildBotTeam(ctx);
    const made = expectOk<QueueIntegrationDTO>(
      await call("POST", "/queueIntegration", team.admin, typebot()),
      201,
    );
    expectError(await call("GET", "/queueIntegration", team.agent), 403, "ERR_NO_PERMISSION");
    expectError(await call("POST", "/queueIntegration", team.agent, typebot()), 403, "ERR_NO_PERMISSION");
    expectError(await call("GET", `/queueIntegration/${made.id}`, team.agent), 403, "ERR_NO_PERMISSION");
    expectError(await call("DELETE", `/queueIntegration/${made.id}`, team.agent), 403, "ERR_NO_PERMISSION");

    const bare = await buildBotTeam(ctx, { useIntegrations: false });
    for (const [method, url] of [
      ["GET", "/queueIntegration"],
      ["POST", "/queueIntegration"],
      ["POST", "/queueIntegration/testSession"],
      ["GET", `/queueIntegration/${made.id}`],
    ] as const)
      expectError(await call(method, url, bare.admin, typebot()), 403, "ERR_PLAN_FEATURE_DISABLED");
  });
});
