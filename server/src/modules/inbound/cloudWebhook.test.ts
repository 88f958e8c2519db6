import { SessionManager } from "../../channels/sessions.js";
import { eq } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobs, whatsapps } from "../../db/schema/index.js";
import { registerErrorHandler } from "../../http/errors.js";
import { EventBus } from "../../events/bus.js";
import { JobRunner } from "../../jobs/runner.js";
import { type FakeGraph, cloudWebhookPayload, startFakeGraph } from "../../test/fakes/graph.js";
import { buildCompany, buildConnection } from "../../test/factories.js";
import { openTestDatabase } from "../../test/harness.js";
import type { Inbound } from "../../channels/sink.js";
import type { ChannelEvent, ConnectionInfo } from "../../channels/provider.js";
import { createGraphClient } from "../../channels/cloud/graph.js";
import { CLOUD_WEBHOOK_JOB, cloudWebhookJob, cloudWebhookRoutes, webhookSignature } from "./cloudWebhook.js";

/**
 * The webhook as Meta calls it: routes on a Fastify app over a real, migrated database, jobs run by
 * the real JobRunner, media fetched from the fake Graph API. The inbound pipeline is an interface
 * owned elsewhere; a recording double of it shows what the Cloud provider hands over.
 */

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let app: FastifyInstance;
let runner: JobRunner;
let fake: FakeGraph;
let pokes = 0;
const received: { connection: ConnectionInfo; event: ChannelEvent }[] = [];
const inbound: Inbound = {
  async handle(connection, event) {
    received.push({ connection, event });
  },
};

/** What the job logged at warn. */
const warnings: { obj: unknown; msg?: string }[] = [];
const APP_SECRET = "app-secret-123";
const VERIFY_TOKEN = "verify-me";
const PHONE_NUMBER_ID = "106540352242922";
let cloud: typeof whatsapps.$inferSelect;

beforeAll(async () => {
  database = await openTestDatabase();
  fake = await startFakeGraph();
  app = Fastify({ logger: false });
  registerErrorHandler(app);
  // Another JSON route of the app: it must keep Fastify's own JSON parser.
  app.post("/echo", async (req) => ({ got: req.body }));
  await cloudWebhookRoutes(app, {
    db: database.db,
    inbound,
    jobs: { poke: () => void pokes++ },
    now: () => new Date(),
  });
  runner = new JobRunner({ db: database.db, now: () => new Date(), log: app.log });
  runner.register(
    CLOUD_WEBHOOK_JOB,
    cloudWebhookJob({
      db: database.db,
      bus: new EventBus(),
      inbound,
      graph: createGraphClient({ baseUrl: fake.url }),
      now: () => new Date(),
      log: { warn: (obj: unknown, msg?: string) => void warnings.push({ obj, msg }) },
      // The real session manager, never started (these webhooks reinstate no account).
      sessions: new SessionManager({
        db: database.db,
        inbound,
        providers: {},
        now: () => new Date(),
        log: app.log,
        leaseSeconds: 15,
      }),
    }),
  );
  const company = await buildCompany(database.db);
  cloud = await insertConnection(company.id, "cloud", {
    phoneNumberId: PHONE_NUMBER_ID,
    wabaId: "102290129340398",
    verifyToken: VERIFY_TOKEN,
    accessToken: fake.accessToken,
    appSecret: APP_SECRET,
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
  await database.drop();
});
beforeEach(async () => {
  received.length = 0;
  pokes = 0;
  await database.db.delete(jobs);
});

async function insertConnection(
  companyId: number,
  provider: "cloud" | "beta",
  config: Record<string, string>,
) {
  return buildConnection(database.db, companyId, { provider, number: "15550783881", providerConfig: config });
}

function textWebhook(id: string, body: string, phoneNumberId = PHONE_NUMBER_ID) {
  return cloudWebhookPayload(phoneNumberId, {
    contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: "16505551234" }],
    messages: [{ from: "16505551234", id, timestamp: "1749416383", type: "text", text: { body } }],
  });
}

/** POSTs the exact bytes Meta would, signed with `secret` unless a signature is given. */
function deliver(whatsappId: number, payload: unknown, signature?: string | null, secret = APP_SECRET) {
  const raw = Buffer.from(JSON.stringify(payload));
  const headers: Record<string, string> = { "content-type": "application/json" };
  const sig = signature === undefined ? webhookSignature(secret, raw) : signature;
  if (sig !== null) headers["x-hub-signature-256"] = sig;
  return app.inject({ method: "POST", url: `/webhooks/cloud/${whatsappId}`, headers, payload: raw });
}

const jobRows = () => database.db.select().from(jobs);

async function runJobs() {
  while ((await runner.runDue()) > 0);
}

describe("GET /webhooks/cloud/:whatsappId (verification)", () => {
  const verify = (id: number | string, token: string, mode = "subscribe") =>
    app.inject({
      method: "GET",
      url: `/webhooks/cloud/${id}`,
      query: { "hub.mode": mode, "hub.verify_token": token, "hub.challenge": "1158201444" },
    });

  it("answers the challenge as text when the verify token matches", async () => {
    const res = await verify(cloud.id, VERIFY_TOKEN);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.body).toBe("1158201444");
  });

  it("refuses a wrong token or another mode with 403", async () => {
    for (const res of [
      await verify(cloud.id, "guess"),
      await verify(cloud.id, VERIFY_TOKEN, "unsubscribe"),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: "ERR_NO_PERMISSION" });
    }
  });

  it("answers 404 for an unknown id, a malformed id, or a connection on another provider", async () => {
    const beta = await insertConnection(cloud.companyId, "beta", { verifyToken: VERIFY_TOKEN });
    for (const id of [999_999, "abc", beta.id]) {
      const res = await verify(id, VERIFY_TOKEN);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: "ERR_NO_WAPP_FOUND" });
    }
  });
});

describe("POST /webhooks/cloud/:whatsappId (notifications)", () => {
  it("refuses a missing, wrong or foreign signature with 401 and stores nothing", async () => {
    const payload = textWebhook("wamid.BAD", "hi");
    const attempts = [
      await deliver(cloud.id, payload, null),
      await deliver(cloud.id, payload, "sha256=deadbeef"),
      await deliver(cloud.id, payload, undefined, "another-app-secret"),
      await deliver(cloud.id, payload, webhookSignature(APP_SECRET, Buffer.from("{}"))),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: "ERR_WEBHOOK_SIGNATURE" });
    }
    expect(await jobRows()).toHaveLength(0);
    expect(pokes).toBe(0);
  });

  it("acknowledges a signed notification at once with 200 and stores one job", async () => {
    const payload = textWebhook("wamid.GOOD", "hello");
    const res = await deliver(cloud.id, payload);
    expect(res.statusCode).toBe(200);
    const rows = await jobRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: CLOUD_WEBHOOK_JOB,
      companyId: cloud.companyId,
      orderKey: `cloud:${cloud.id}`,
      status: "pending",
      payload: { whatsappId: cloud.id, body: payload },
    });
    expect(pokes).toBe(1);
    expect(received).toHaveLength(0);
  });

  it("leaves other routes with Fastify's JSON parser", async () => {
    const res = await app.inject({ method: "POST", url: "/echo", payload: { a: 1 } });
    expect(res.json()).toEqual({ got: { a: 1 } });
  });

  it("refuses a signed body that is not JSON with 400", async () => {
    const raw = Buffer.from("not json");
    const res = await app.inject({
      method: "POST",
      url: `/webhooks/cloud/${cloud.id}`,
      headers: {
        "content-type": "application/json",
        "x-hub-signature-256": webhookSignature(APP_SECRET, raw),
      },
      payload: raw,
    });
    expect(res.statusCode).toBe(400);
    expect(await jobRows()).toHaveLength(0);
  });
});

describe("the cloud-webhook job", () => {
  it("hands the mapped events to the inbound pipeline with the connection", async () => {
    await deliver(cloud.id, textWebhook("wamid.JOB", "Does it come in another color?"));
    await runJobs();
    expect(received).toEqual([
      {
        connection: {
          id: cloud.id,
          companyId: cloud.companyId,
          name: cloud.name,
          number: "15550783881",
          config: cloud.providerConfig,
        },
        event: {
          type: "message",
          message: {
            id: "wamid.JOB",
            chat: { number: "16505551234", isGroup: false },
            fromMe: false,
            pushName: "Sheena Nelson",
            timestamp: new Date(1749416383 * 1000),
            kind: "text",
            body: "Does it come in another color?",
          },
        },
      },
    ]);
    const [row] = await jobRows();
    expect(row!.status).toBe("done");
  });

  it("downloads a message's media from Graph with the connection's token when the pipeline asks", async () => {
    const bytes = Buffer.from("jpeg bytes");
    const mediaId = fake.addMedia(bytes, "image/jpeg");
    const payload = textWebhook("wamid.IMG", "");
    const value = payload.entry[0]!.changes[0]!.value;
    value.messages = [
      {
        from: "16505551234",
        id: "wamid.IMG",
        timestamp: "1749416383",
        type: "image",
        image: { id: mediaId },
      },
    ] as never;
    await deliver(cloud.id, payload);
    await runJobs();
    const event = received[0]?.event;
    if (event?.type !== "message") throw new Error("expected a message event");
    expect((await event.message.media!.download()).equals(bytes)).toBe(true);
  });

  it("delivers a webhook sent twice twice, with the same ids (the pipeline deduplicates)", async () => {
    const payload = textWebhook("wamid.TWICE", "again");
    expect((await deliver(cloud.id, payload)).statusCode).toBe(200);
    expect((await deliver(cloud.id, payload)).statusCode).toBe(200);
    await runJobs();
    const ids = received.map(({ event }) => (event.type === "message" ? event.message.id : null));
    expect(ids).toEqual(["wamid.TWICE", "wamid.TWICE"]);
  });

  it("keeps statuses in payload order; a phone number id no connection has is logged with its id, not delivered", async () => {
    warnings.length = 0;
    const payload = textWebhook("wamid.OTHER", "not ours", "999999");
    const statuses = cloudWebhookPayload(PHONE_NUMBER_ID, {
      statuses: [
        { id: "wamid.OUT", status: "read", timestamp: "1749416390", recipient_id: "16505551234" },
        { id: "wamid.OUT", status: "delivered", timestamp: "1749416389", recipient_id: "16505551234" },
      ],
    });
    payload.entry.push(...statuses.entry);
    await deliver(cloud.id, payload);
    await runJobs();
    expect(received.map(({ event }) => event)).toEqual([
      { type: "ack", id: "wamid.OUT", ack: 4 },
      { type: "ack", id: "wamid.OUT", ack: 3 },
    ]);
    expect(warnings).toEqual([
      {
        obj: { whatsappId: cloud.id, phoneNumberId: "999999", event: "message" },
        msg: expect.stringContaining("phone number id no connection has"),
      },
    ]);
  });

  it("finishes quietly when the connection was deleted before the job ran", async () => {
    const company = await buildCompany(database.db);
    const gone = await insertConnection(company.id, "cloud", {
      phoneNumberId: PHONE_NUMBER_ID,
      appSecret: APP_SECRET,
    });
    await deliver(gone.id, textWebhook("wamid.GONE", "bye"));
    await database.db.delete(whatsapps).where(eq(whatsapps.id, gone.id));
    await runJobs();
    expect(received).toHaveLength(0);
    expect((await jobRows()).map((j) => j.status)).toEqual(["done"]);
  });
});
