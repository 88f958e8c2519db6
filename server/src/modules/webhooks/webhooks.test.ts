import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebhookDTO, type WebhookDeliveryDTO, type WebhookWithSecretDTO } from "@atende/contracts";
import { webhookSubscriptions } from "../../db/schema/index.js";
import { secretBoxFor } from "../../lib/secretBox.js";
import { sealSecretsAtRest } from "../../secretsAtRest.js";
import { buildSimulatorCompany, phoneSends } from "../../test/channels.js";
import { type LoggedIn, buildCompany, buildUser, login, newNumber } from "../../test/factories.js";
import { expectError, expectOk } from "../../test/calls.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";
import { jobsIdle } from "../../test/settled.js";
import { expectAsDocumented } from "../../test/webhookBodies.js";

/**
 * Outbound webhooks end to end: a receiver started here, written from the documentation alone
 * (X-Atende-Signature = "sha256=" + hex HMAC-SHA256(secret, X-Atende-Timestamp + "." + raw body)).
 */

interface Received {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { event: string; companyId: number; deliveryId: string; data: Record<string, unknown> };
}

/** A receiver that records every request and answers the statuses queued in `answers` (then 200). */
async function receiver() {
  const got: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const status = answers.shift() ?? 200;
      got.push({ status, headers: req.headers, raw, body: JSON.parse(raw) as Received["body"] });
      res.statusCode = status;
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { got, answers, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function verified(r: Received, secret: string): boolean {
  const ts = r.headers["x-atende-timestamp"] as string;
  const expected = `sha256=${crypto.createHmac("sha256", secret).update(`${ts}.${r.raw}`).digest("hex")}`;
  const sent = r.headers["x-atende-signature"] as string;
  return sent.length === expected.length && crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let agent: LoggedIn;
let stranger: LoggedIn;
let rx: Awaited<ReturnType<typeof receiver>>;
let strangerRx: Awaited<ReturnType<typeof receiver>>;

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, who: LoggedIn, payload?: object) =>
  ctx.app.inject({ method, url, headers: who.auth, payload });

async function subscribe(who: LoggedIn, url: string, events: string[]) {
  return expectOk<WebhookWithSecretDTO>(await call("POST", "/webhooks", who, { url, events }), 201);
}
const deliveries = async (id: number) =>
  expectOk<WebhookDeliveryDTO[]>(await call("GET", `/webhooks/${id}/deliveries`, team.adminLogin));

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_RETRY_BASE_SECONDS: 0.2,
    LOGIN_MAX_PER_EMAIL: 1000,
    LOGIN_MAX_PER_IP: 100_000,
  });
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx, { queues: 1, bot: false });
  agent = await login(ctx, (await buildUser(ctx.deps.db, team.company.id, { profile: "user" })).email);
  const other = await buildCompany(ctx.deps.db);
  stranger = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
  rx = await receiver();
  strangerRx = await receiver();
});
afterAll(async () => {
  await rx?.close();
  await strangerRx?.close();
  await ctx?.close();
});

describe("subscriptions", () => {
  it("answers the secret once, lists without it, and is for admins of the company only", async () => {
    const sub = await subscribe(team.adminLogin, rx.url, ["contact.created"]);
    expect(sub.secret).toMatch(/^whsec_/);
    const list = expectOk<WebhookDTO[]>(await call("GET", "/webhooks", team.adminLogin));
    expect(list.find((w) => w.id === sub.id)).not.toHaveProperty("secret");
    expectError(await call("GET", "/webhooks", agent), 403, "ERR_NO_PERMISSION");
    expect(expectOk<WebhookDTO[]>(await call("GET", "/webhooks", stranger))).toEqual([]);
    expectError(await call("GET", `/webhooks/${sub.id}/deliveries`, stranger), 404, "ERR_WEBHOOK_NOT_FOUND");
    expectError(await call("DELETE", `/webhooks/${sub.id}`, stranger), 404, "ERR_WEBHOOK_NOT_FOUND");
    expectError(
      await call("POST", "/webhooks", team.adminLogin, { url: "ftp://x", events: ["ticket.created"] }),
      400,
      "ERR_WEBHOOK_URL_INVALID",
    );
    expectOk(await call("DELETE", `/webhooks/${sub.id}`, team.adminLogin), 204);
  });
});

describe("deliveries", () => {
  it("signs each event verifiably, with its deliveryId, for the events chosen, and never another company's", async () => {
    const sub = await subscribe(team.adminLogin, rx.url, ["ticket.created", "message.created"]);
    await subscribe(stranger, strangerRx.url, ["ticket.created", "message.created", "contact.created"]);
    const number = newNumber();
    const sent = await phoneSends(ctx, team.adminLogin, team.connection.id, {
      from: number,
      name: "Cli",
      body: "Oi webhook",
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await waitFor(() => rx.got.some((r) => r.body.event === "message.created"), 10_000);
    const message = rx.got.find((r) => r.body.event === "message.created")!;
    expect(verified(message, sub.secret)).toBe(true);
    expect(verified(message, "whsec_wrong")).toBe(false);
    expect(message.body).toMatchObject({ companyId: team.company.id, deliveryId: expect.any(String) });
    // Every delivery's body is the one contracts describe (the API document's webhooks).
    for (const r of rx.got) expectAsDocumented(r.body);
    expect((message.body.data.message as { body: string }).body).toBe("Oi webhook");
    expect(rx.got.some((r) => r.body.event === "ticket.created")).toBe(true);
    // contact.created was not chosen.
    expect(rx.got.some((r) => r.body.event === "contact.created")).toBe(false);
    await waitFor(async () => (await deliveries(sub.id)).every((d) => d.status === "delivered"), 5_000);
    // Every delivery job has run: one for the other company, had it been queued, has reached its receiver.
    await jobsIdle(ctx);
    expect(strangerRx.got).toHaveLength(0);
    const log = await deliveries(sub.id);
    expect(log[0]).toMatchObject({ status: "delivered", responseCode: 200, attempts: 1 });
    expectOk(await call("DELETE", `/webhooks/${sub.id}`, team.adminLogin), 204);
  });

  it("retries a failing receiver with backoff and the same deliveryId; test event and resend", async () => {
    rx.got.length = 0;
    const sub = await subscribe(team.adminLogin, rx.url, ["ticket.created"]);
    rx.answers.push(500, 503);
    expectOk(await call("POST", `/webhooks/${sub.id}/test`, team.adminLogin), 204);
    await waitFor(() => rx.got.length >= 3, 10_000);
    expect(rx.got.slice(0, 3).map((r) => r.body.event)).toEqual([
      "webhook.test",
      "webhook.test",
      "webhook.test",
    ]);
    expect(new Set(rx.got.map((r) => r.body.deliveryId)).size).toBe(1);
    await waitFor(async () => (await deliveries(sub.id))[0]?.status === "delivered", 5_000);
    const [entry] = await deliveries(sub.id);
    expect(entry).toMatchObject({ attempts: 3, responseCode: 200, status: "delivered" });

    const resent = await call("POST", `/webhooks/${sub.id}/deliveries/${entry!.id}/resend`, team.adminLogin);
    expect(resent.statusCode, resent.body).toBe(200);
    await waitFor(() => rx.got.length >= 4, 10_000);
    expect(rx.got[3]!.body.deliveryId).toBe(entry!.deliveryId);
    expectOk(await call("DELETE", `/webhooks/${sub.id}`, team.adminLogin), 204);
  });

  it("a receiver down for a while gets one ticket's messages later, in order", async () => {
    rx.got.length = 0;
    const sub = await subscribe(team.adminLogin, rx.url, ["message.created"]);
    rx.answers.push(503, 503, 503, 503);
    const number = newNumber();
    for (const body of ["um", "dois", "três"]) {
      const res = await phoneSends(ctx, team.adminLogin, team.connection.id, {
        from: number,
        name: "Ord",
        body,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const delivered = () =>
      rx.got.filter((r) => r.status === 200).map((r) => (r.body.data.message as { body: string }).body);
    await waitFor(() => delivered().length >= 3, 15_000);
    expect(delivered()).toEqual(["um", "dois", "três"]);
    // The failed attempts were all the first message's, with one deliveryId.
    const failed = rx.got.filter((r) => r.status !== 200);
    expect(failed).toHaveLength(4);
    expect(new Set(failed.map((r) => r.body.deliveryId)).size).toBe(1);
    expectOk(await call("DELETE", `/webhooks/${sub.id}`, team.adminLogin), 204);
  });

  it("switches off a subscription failing for a day", async () => {
    const sub = await subscribe(team.adminLogin, rx.url, ["ticket.created"]);
    await ctx.deps.db
      .update(webhookSubscriptions)
      .set({ failingSince: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(webhookSubscriptions.id, sub.id));
    rx.answers.push(500);
    expectOk(await call("POST", `/webhooks/${sub.id}/test`, team.adminLogin), 204);
    await waitFor(async () => {
      const list = expectOk<WebhookDTO[]>(await call("GET", "/webhooks", team.adminLogin));
      return list.find((w) => w.id === sub.id)?.active === false;
    }, 10_000);
    const list = expectOk<WebhookDTO[]>(await call("GET", "/webhooks", team.adminLogin));
    expect(list.find((w) => w.id === sub.id)).toMatchObject({ active: false, disabledReason: "failing" });
    await waitFor(async () => (await deliveries(sub.id))[0]?.status === "failed", 5_000);
  });
});

describe("signing secrets at rest", () => {
  const rowOf = async (id: number) =>
    (await ctx.deps.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)))[0]!;

  it("are stored sealed, created or rotated; the receiver still verifies the signature", async () => {
    rx.got.length = 0;
    const sub = await subscribe(team.adminLogin, rx.url, ["ticket.created"]);
    const created = await rowOf(sub.id);
    expect(created.secretEnc).toMatch(/^v1\./);
    expect(JSON.stringify(created)).not.toContain(sub.secret);
    const rotated = expectOk<WebhookWithSecretDTO>(
      await call("POST", `/webhooks/${sub.id}/secret`, team.adminLogin),
    );
    expect(rotated.secret).not.toBe(sub.secret);
    const row = await rowOf(sub.id);
    expect(row.secretEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(rotated.secret);
    expectOk(await call("POST", `/webhooks/${sub.id}/test`, team.adminLogin), 204);
    await waitFor(() => rx.got.length >= 1, 10_000);
    expect(verified(rx.got[0]!, rotated.secret)).toBe(true);
    expect(verified(rx.got[0]!, sub.secret)).toBe(false);
    expectOk(await call("DELETE", `/webhooks/${sub.id}`, team.adminLogin), 204);
  });

  it("a secret stored in clear before sealing is sealed by the start-up step, and still signs", async () => {
    rx.got.length = 0;
    const sub = await subscribe(team.adminLogin, rx.url, ["ticket.created"]);
    const legacy = `whsec_${crypto.randomBytes(24).toString("base64url")}`;
    await ctx.deps.db
      .update(webhookSubscriptions)
      .set({ secretEnc: legacy })
      .where(eq(webhookSubscriptions.id, sub.id));
    const box = secretBoxFor(ctx.deps.config);
    expect((await sealSecretsAtRest(ctx.deps.db, box)).webhookSecrets).toBe(1);
    const row = await rowOf(sub.id);
    expect(row.secretEnc).toMatch(/^v1\./);
    expect(row.secretEnc).not.toContain(legacy);
    expect((await sealSecretsAtRest(ctx.deps.db, box)).webhookSecrets).toBe(0);
    expectOk(await call("POST", `/webhooks/${sub.id}/test`, team.adminLogin), 204);
    await waitFor(() => rx.got.length >= 1, 10_000);
    expect(verified(rx.got[0]!, legacy)).toBe(true);
    expectOk(await call("DELETE", `/webhooks/${sub.id}`, team.adminLogin), 204);
  });
});
