import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, received, receivedNow, setup, startedContext, ticketOf } from "../../../test/chatbot.js";
import { startDialogflowFake } from "../../../test/fakes/dialogflow.js";
import { type Answer, type Recorded, startHttpFake } from "../../../test/fakes/httpFake.js";
import { PNG } from "../../../test/fakes/typebot.js";
import type { TestContext } from "../../../test/harness.js";
import { addIntegration, bindConnection, sendsMedia, sessionBecomes, sessionOf } from "./testing.js";

/**
 * N8N/webhook and Dialogflow bots in the conversation, each against a local service that speaks its
 * protocol: the signed JSON we POST and the documented answer; Google's JWT-bearer token and
 * detectIntent.
 */
let ctx: TestContext;
/** What the webhook answers next, per customer number (the test scripts it). */
const script = new Map<string, (req: Recorded) => Answer>();
let hook: Awaited<ReturnType<typeof startHttpFake>>;
let dialogflow: Awaited<ReturnType<typeof startDialogflowFake>>;

beforeAll(async () => {
  hook = await startHttpFake((req) => {
    const number = (req.json as { contact?: { number?: string } } | undefined)?.contact?.number ?? "";
    return script.get(number)?.(req) ?? { json: {} };
  });
  dialogflow = await startDialogflowFake({
    projectId: "atende-df",
    intent: ({ text, event, languageCode }) => {
      if (event === "WELCOME") return { texts: ["Hi! How can I help?"] };
      if (text === "bye") return { texts: ["Bye!"], end: true };
      return { texts: [`(${languageCode}) You said: ${text}`, "Anything else?"] };
    },
  });
  ctx = await startedContext();
  ctx.deps.config.GOOGLE_TOKEN_URL = `${dialogflow.url}/token`;
  ctx.deps.config.DIALOGFLOW_API_URL = dialogflow.url;
});
afterAll(async () => {
  await ctx.close();
  await hook.close();
  await dialogflow.close();
});

async function webhookScript(type: "n8n" | "webhook" = "webhook") {
  const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
  const bot = await addIntegration(ctx, s.company.id, {
    type,
    urlN8N: `${hook.url}/hook`,
    signingSecret: "whsec-atende-123",
  });
  await bindConnection(ctx, s, { integrationId: bot.id });
  return { ...s, bot };
}

const bodyOf = (r: Recorded) =>
  r.json as {
    event: string;
    message: { text: string; media: { kind: string; url: string; mimetype: string }[] };
    contact: { number: string };
    ticket: { id: number };
    connection: { id: number };
    company: { id: number };
  };
const callsFor = (number: string) => hook.requests.filter((r) => bodyOf(r)?.contact?.number === number);

describe("N8N and webhook bots", { timeout: 60_000 }, () => {
  it("POSTs the customer's message signed with HMAC-SHA256 of timestamp.body, and applies replies, choices and a transfer", async () => {
    const s = await webhookScript("n8n");
    let turn = 0;
    script.set(s.customer, () =>
      ++turn === 1
        ? {
            json: {
              replies: ["Olá do n8n", { type: "choices", text: "Escolha:", options: ["Boleto", "Pix"] }],
            },
          }
        : {
            json: {
              replies: [{ type: "text", text: "Certo, um humano segue." }],
              action: "transfer",
              queueId: s.queues[1]!.id,
            },
          },
    );
    await s.say("quero pagar");
    expect(await receivedNow(ctx, s, 2)).toEqual([
      "Olá do n8n",
      "Escolha:\n\n*[ 1 ]* - Boleto\n*[ 2 ]* - Pix",
    ]);
    const [first] = callsFor(s.customer);
    const ts = first!.headers["x-atende-timestamp"] as string;
    const expected = `sha256=${crypto
      .createHmac("sha256", "whsec-atende-123")
      .update(`${ts}.${first!.raw.toString("utf8")}`)
      .digest("hex")}`;
    expect(first!.headers["x-atende-signature"]).toBe(expected);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    const ticket = await ticketOf(ctx, s);
    expect(bodyOf(first!)).toMatchObject({
      event: "message",
      message: { text: "quero pagar", media: [] },
      contact: { number: s.customer },
      ticket: { id: ticket.id },
      connection: { id: s.connection.id },
      company: { id: s.company.id },
    });
    await s.say("2");
    await eventually(async () => (await ticketOf(ctx, s)).queueId === s.queues[1]!.id);
    expect(bodyOf(callsFor(s.customer)[1]!).message.text).toBe("Pix");
    expect((await receivedNow(ctx, s, 3))[2]).toBe("Certo, um humano segue.");
    expect(await ticketOf(ctx, s)).toMatchObject({ status: "pending", userId: null, useIntegration: false });
  });

  it("a network error is retried twice with the same signed body", async () => {
    const s = await webhookScript();
    let n = 0;
    script.set(s.customer, () => (++n <= 2 ? { destroy: true } : { json: { replies: ["Cheguei!"] } }));
    await s.say("oi");
    expect(await receivedNow(ctx, s, 1)).toEqual(["Cheguei!"]);
    const calls = callsFor(s.customer);
    expect(calls.length).toBe(3);
    expect(new Set(calls.map((c) => c.raw.toString("utf8"))).size).toBe(1);
    expect(new Set(calls.map((c) => c.headers["x-atende-signature"])).size).toBe(1);
  });

  it("an error answer hands the ticket over silently; a transfer to another company's queue or user is ignored", async () => {
    const s = await webhookScript();
    script.set(s.customer, () => ({ status: 500, json: { message: "workflow crashed" } }));
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");
    expect(await received(ctx, s)).toEqual([]);

    const other = await setup(ctx, { queues: ["Deles"] });
    const t = await webhookScript();
    script.set(t.customer, () => ({
      json: { action: "transfer", queueId: other.queues[0]!.id, userId: other.admin.id },
    }));
    await t.say("oi");
    expect((await sessionBecomes(ctx, t, "stopped")).stopReason).toBe("transfer");
    expect(await ticketOf(ctx, t)).toMatchObject({ queueId: null, userId: null, status: "pending" });
  });

  it("the close action resolves the ticket", async () => {
    const s = await webhookScript();
    script.set(s.customer, () => ({ json: { replies: ["Resolvido, até logo!"], action: "close" } }));
    await s.say("era só isso");
    await eventually(async () => (await ticketOf(ctx, s)).status === "closed");
    expect(await receivedNow(ctx, s, 1)).toEqual(["Resolvido, até logo!"]);
  });

  it("media reaches the bot as a short-lived signed link to that one file", async () => {
    ctx.deps.config.PUBLIC_URL = await ctx.url();
    const s = await webhookScript();
    script.set(s.customer, () => ({ json: { replies: ["Recebi a foto"] } }));
    await sendsMedia(ctx, s, { filename: "comprovante.png", mimetype: "image/png", data: PNG }, "segue");
    await receivedNow(ctx, s, 1);
    const media = bodyOf(callsFor(s.customer)[0]!).message;
    expect(media.text).toBe("segue");
    expect(media.media).toMatchObject([{ kind: "image", mimetype: "image/png" }]);
    const link = new URL(media.media[0]!.url);
    const ok = await fetch(link);
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer()).equals(PNG)).toBe(true);
    const forged = new URL(link);
    forged.searchParams.set("sig", "0".repeat(64));
    expect((await fetch(forged)).status).toBe(404);
    const extended = new URL(link);
    extended.searchParams.set("exp", String(Number(link.searchParams.get("exp")) + 3600));
    expect((await fetch(extended)).status).toBe(404);
    ctx.clock.now = new Date(Date.now() + 11 * 60_000);
    try {
      expect((await fetch(link)).status).toBe(404);
    } finally {
      ctx.clock.real();
    }
  });
});

describe("Dialogflow", { timeout: 60_000 }, () => {
  async function dialogflowScript(language = "en") {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    const bot = await addIntegration(ctx, s.company.id, {
      type: "dialogflow",
      projectName: "atende-df",
      language,
      jsonContent: dialogflow.serviceAccount,
    });
    await bindConnection(ctx, s, { integrationId: bot.id });
    return s;
  }

  it("detectIntent with a token signed from the service account, in the integration's language; the end of the conversation hands over", async () => {
    const s = await dialogflowScript("en");
    await s.say("hello there");
    expect(await receivedNow(ctx, s, 2)).toEqual(["(en) You said: hello there", "Anything else?"]);
    const [detect] = dialogflow.detects();
    expect(detect).toMatchObject({
      project: "atende-df",
      queryInput: { text: { text: "hello there", languageCode: "en" } },
    });
    const session = (await sessionOf(ctx, s))!.externalId;
    await s.say("bye");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("end");
    expect((await receivedNow(ctx, s, 3))[2]).toBe("Bye!");
    // One Dialogflow session for the whole conversation.
    expect(dialogflow.detects().filter((d) => d.session === session).length).toBe(2);
    expect(dialogflow.requests.filter((r) => r.path === "/token").length).toBe(1);
  });

  it("a service account Google refuses hands the ticket over silently", async () => {
    const s = await setup(ctx, { queues: ["Vendas", "Suporte"] });
    const forged = JSON.parse(dialogflow.serviceAccount) as Record<string, string>;
    const other = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    forged.private_key = other.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const bot = await addIntegration(ctx, s.company.id, {
      type: "dialogflow",
      projectName: "atende-df",
      language: "pt-BR",
      jsonContent: JSON.stringify(forged),
    });
    await bindConnection(ctx, s, { integrationId: bot.id });
    await s.say("oi");
    expect((await sessionBecomes(ctx, s, "stopped")).stopReason).toBe("error");
    expect(await received(ctx, s)).toEqual([]);
  });
});
