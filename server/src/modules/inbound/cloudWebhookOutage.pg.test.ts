import { and, eq, gte, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../../db/client.js";
import { jobs, messages } from "../../db/schema/index.js";
import { cloudWebhookPayload } from "../../test/fakes/graph.js";
import { buildCompany, buildConnection } from "../../test/factories.js";
import { type TestContext, clonePostgresTemplate, createTestContext, waitFor } from "../../test/harness.js";
import { type TcpProxy, startTcpProxy } from "../../test/tcpProxy.js";
import { CLOUD_WEBHOOK_JOB, webhookSignature } from "./cloudWebhook.js";

/**
 * Meta's webhook while PostgreSQL is away: the app (its background work running) reaches the
 * database through a proxy the test cuts. A notification that cannot be stored answers 503, so
 * Meta sends it again; once the database is back the same notification is stored, the job runner
 * resumes by itself and the message lands once, however often Meta repeats it.
 */

const APP_SECRET = "outage-secret";
const PHONE_NUMBER_ID = "106540352242922";
const pgUrl = new URL(process.env.TEST_DATABASE_URL!);
let clone: Awaited<ReturnType<typeof clonePostgresTemplate>>;
let direct: ReturnType<typeof openPostgres>;
let proxy: TcpProxy;
let ctx: TestContext;
let whatsappId: number;
let companyId: number;

beforeAll(async () => {
  clone = await clonePostgresTemplate();
  direct = openPostgres(clone.url, 2);
  proxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
  const throughProxy = openPostgres(proxy.urlFor(clone.url), 5, { warn: () => undefined });
  ctx = await createTestContext({}, { database: throughProxy });
  const company = await buildCompany(direct.db);
  companyId = company.id;
  const row = await buildConnection(direct.db, companyId, {
    name: "Cloud",
    provider: "cloud",
    status: "DISCONNECTED", // no live session: this suite is about the webhook and its job
    number: "15550783881",
    providerConfig: {
      phoneNumberId: PHONE_NUMBER_ID,
      accessToken: "t",
      appSecret: APP_SECRET,
      verifyToken: "v",
    },
  });
  whatsappId = row.id;
  ctx.built.startBackground();
});
afterAll(async () => {
  await ctx?.close();
  await ctx?.deps.database.close();
  await proxy.close();
  await direct.close();
  await clone.drop();
});

function deliver(id: string, body: string) {
  const raw = Buffer.from(
    JSON.stringify(
      cloudWebhookPayload(PHONE_NUMBER_ID, {
        contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: "16505551234" }],
        messages: [{ from: "16505551234", id, timestamp: "1749416383", type: "text", text: { body } }],
      }),
    ),
  );
  return ctx.app.inject({
    method: "POST",
    url: `/webhooks/cloud/${whatsappId}`,
    headers: { "content-type": "application/json", "x-hub-signature-256": webhookSignature(APP_SECRET, raw) },
    payload: raw,
  });
}

const stored = (wid: string) =>
  direct.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.whatsappId, whatsappId), eq(messages.wid, wid)));

describe("the Cloud API webhook while PostgreSQL is away", () => {
  it("answers 503 so Meta retries; after the restore the retry is stored once and the runner resumes", async () => {
    expect((await deliver("wamid.BEFORE", "before")).statusCode).toBe(200);
    await waitFor(async () => (await stored("wamid.BEFORE")).length === 1, 5_000);

    proxy.cut();
    const refused = await deliver("wamid.DURING", "during the outage");
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: "ERR_DATABASE_UNAVAILABLE" });
    expect((await ctx.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(503);
    // The background loops (jobs, leases, timers) keep failing for a while, and keep the process up.
    // Kept as a sleep: the outage itself must last; no event marks "long enough" (a job runner
    // caught writing a job's outcome retries quietly instead of failing its rounds).
    await new Promise((r) => setTimeout(r, 1500));
    proxy.restore();

    await waitFor(
      async () => (await ctx.app.inject({ method: "GET", url: "/health" })).statusCode === 200,
      5_000,
    );
    // Meta's retry, and a duplicate of it, and of the one before the outage.
    const retriedAt = new Date();
    expect((await deliver("wamid.DURING", "during the outage")).statusCode).toBe(200);
    expect((await deliver("wamid.DURING", "during the outage")).statusCode).toBe(200);
    expect((await deliver("wamid.BEFORE", "before")).statusCode).toBe(200);
    await waitFor(async () => (await stored("wamid.DURING")).length === 1, 5_000);
    // The three deliveries' jobs have run (not every job: one cut off by the outage stays "running"
    // until its lock expires).
    await waitFor(async () => {
      const open = await direct.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.type, CLOUD_WEBHOOK_JOB),
            gte(jobs.createdAt, retriedAt),
            inArray(jobs.status, ["pending", "running"]),
          ),
        );
      return open.length === 0;
    });
    expect((await stored("wamid.DURING")).length).toBe(1);
    expect((await stored("wamid.BEFORE")).length).toBe(1);
  });
});
