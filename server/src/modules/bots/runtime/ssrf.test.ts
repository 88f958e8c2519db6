import type http from "node:http";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../../db/schema/index.js";
import { botDone, setup, ticketOf } from "../../../test/chatbot.js";
import { type TestContext, createTestContext } from "../../../test/harness.js";
import { type Listener, listen } from "../../../test/fakes/listener.js";
import { PNG } from "../../../test/fakes/typebot.js";
import { addIntegration, bindConnection, sessionBecomes } from "./testing.js";

/**
 * No full-read SSRF through a bot (issue 32, finding 1). The bot's service is a listener the test
 * allows by its own address and port (OUTBOUND_ALLOW_PRIVATE narrowed to it); a second listener on
 * loopback plays the metadata service: a bot's reply that names it is never fetched, directly or
 * through a redirect, and the ticket gets no media. What the bot answers is read within a cap.
 */

let ctx: TestContext;
/** The internal service an attacker wants read. */
let secret: Listener;
/** The attacker's bot: what it answers next, per path. */
let bot: Listener;
let answer: (path: string, res: http.ServerResponse) => void;

const json = (res: http.ServerResponse, body: unknown) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  secret = await listen((_req, res) => res.end("aws-secret-access-key"));
  bot = await listen((req, res) => answer(req.url ?? "", res));
  ctx = await createTestContext({
    OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${bot.port}`,
    // Small enough for a test to send a file past it.
    MEDIA_MAX_BYTES: 4096,
    LOGIN_MAX_PER_EMAIL: 1000,
    LOGIN_MAX_PER_IP: 100_000,
  });
  ctx.built.startBackground();
});
afterAll(async () => {
  await ctx?.close();
  await secret?.close();
  await bot?.close();
});

async function botScript() {
  const s = await setup(ctx, { queues: ["Vendas"] });
  const integration = await addIntegration(ctx, s.company.id, {
    type: "n8n",
    urlN8N: `${bot.url}/hook`,
    signingSecret: "whsec-ssrf",
  });
  await bindConnection(ctx, s, { integrationId: integration.id });
  return s;
}

/** The files the business sent on the customer's ticket. */
async function mediaSent(s: Awaited<ReturnType<typeof setup>>) {
  const t = await ticketOf(ctx, s);
  return ctx.deps.db
    .select({ path: messages.mediaPath })
    .from(messages)
    .where(and(eq(messages.ticketId, t.id), eq(messages.fromMe, true), isNotNull(messages.mediaPath)));
}

describe("a bot's replies", { timeout: 60_000 }, () => {
  it("a file on the bot's own allowed address is fetched and sent (the control)", async () => {
    const s = await botScript();
    answer = (path, res) =>
      path === "/hook"
        ? json(res, { replies: [{ type: "image", url: `${bot.url}/logo.png` }] })
        : res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    await s.say("oi");
    await botDone(ctx, s);
    expect(await mediaSent(s)).toHaveLength(1);
  });

  it("a file URL naming a loopback listener is never fetched, and the ticket gets no media", async () => {
    const s = await botScript();
    const port = secret.port;
    answer = (_path, res) =>
      json(res, {
        replies: [
          { type: "file", url: `${secret.url}/latest/meta-data` },
          { type: "file", url: `http://localhost:${port}/a` },
          { type: "file", url: `http://[::ffff:127.0.0.1]:${port}/b` },
          { type: "file", url: `http://0x7f000001:${port}/c` },
        ],
      });
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");
    await botDone(ctx, s);
    expect(secret.seen).toEqual([]);
    expect(await mediaSent(s)).toEqual([]);
    expect((await ticketOf(ctx, s)).status).toBe("pending");
  });

  it("a redirect from the allowed bot to loopback is not followed", async () => {
    const s = await botScript();
    answer = (path, res) =>
      path === "/hook"
        ? json(res, { replies: [{ type: "file", url: `${bot.url}/bounce` }] })
        : res.writeHead(302, { location: `${secret.url}/latest/meta-data` }).end();
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");
    await botDone(ctx, s);
    expect(bot.seen).toContain("/bounce");
    expect(secret.seen).toEqual([]);
    expect(await mediaSent(s)).toEqual([]);
  });

  it("an answer past the byte cap is cut and the turn fails cleanly: a huge JSON, a file over the media limit", async () => {
    const s = await botScript();
    // Two MiB of JSON, streamed without a length: the cap (1 MiB) stops it mid-way.
    answer = (_path, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"replies":["${"x".repeat(1024 * 1024)}`);
      res.end(`${"y".repeat(1024 * 1024)}"]}`);
    };
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");

    const t = await botScript();
    answer = (path, res) =>
      path === "/hook"
        ? json(res, { replies: [{ type: "file", url: `${bot.url}/big.bin` }] })
        : res.end(Buffer.alloc(10_000)); // MEDIA_MAX_BYTES is 4096 here
    await t.say("oi");
    expect((await sessionBecomes(ctx, t, "stopped")).stopReason).toBe("error");
    await botDone(ctx, t);
    expect(await mediaSent(t)).toEqual([]);
    // The server is fine: it answers.
    expect((await ctx.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });
});
