import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueueIntegrationDTO } from "@atende/contracts";
import { caller, expectError, expectOk } from "../../../test/calls.js";
import { uid } from "../../../test/factories.js";
import { type Listener, listen } from "../../../test/fakes/listener.js";
import { PROBE_HOSTS, ownHost } from "../../../test/internalAddresses.js";
import { type TestContext, createTestContext } from "../../../test/harness.js";
import { buildBotTeam } from "./testing.js";

/**
 * No SSRF through bot integrations (issue 32, finding 1): with no private address allowed, as in
 * production, an integration whose URL is or resolves to an internal address is refused when it is
 * saved, and the listener it names never hears from the server.
 */
let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildBotTeam>>;
let inside: Listener;

beforeAll(async () => {
  inside = await listen((_req, res) => res.end(JSON.stringify({ replies: ["hi"] })));
  ctx = await createTestContext({ OUTBOUND_ALLOW_PRIVATE: "" });
  team = await buildBotTeam(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await inside?.close();
});

const call = caller(() => ctx);
const body = (type: string, urlN8N: string) => ({
  type,
  name: `Bot ${uid()}`,
  urlN8N,
  ...(type === "typebot" ? { typebotSlug: "atendimento" } : {}),
});

describe("integration URLs", () => {
  it("refuses an N8N, webhook or Typebot integration pointing at a loopback listener with 400 ERR_INTEGRATION_URL_FORBIDDEN, on create and on edit", async () => {
    const port = new URL(inside.url).port;
    for (const type of ["n8n", "webhook", "typebot"])
      for (const url of [`${inside.url}/bot`, `http://localhost:${port}/bot`])
        expectError(
          await call("POST", "/queueIntegration", team.admin, body(type, url)),
          400,
          "ERR_INTEGRATION_URL_FORBIDDEN",
        );
    const saved = expectOk<QueueIntegrationDTO>(
      await call("POST", "/queueIntegration", team.admin, body("n8n", "https://8.8.8.8/webhook")),
      201,
    );
    expectError(
      await call("PUT", `/queueIntegration/${saved.id}`, team.admin, body("n8n", `${inside.url}/bot`)),
      400,
      "ERR_INTEGRATION_URL_FORBIDDEN",
    );
    expect(inside.seen).toEqual([]);
  });

  it("refuses every spelling of an internal address the probe tried, the host's own address included", async () => {
    const own = ownHost();
    for (const host of [...PROBE_HOSTS, ...(own ? [own] : [])])
      expectError(
        await call("POST", "/queueIntegration", team.admin, body("webhook", `http://${host}:8080/bot`)),
        400,
        "ERR_INTEGRATION_URL_FORBIDDEN",
      );
  });

  it("accepts a name that does not resolve yet, as webhooks do (judged again at every call)", async () => {
    const saved = expectOk<QueueIntegrationDTO>(
      await call("POST", "/queueIntegration", team.admin, body("n8n", "https://bot.invalid/hook")),
      201,
    );
    expect(saved.urlN8N).toBe("https://bot.invalid/hook");
  });
});
