import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookDTO, WebhookDeliveryDTO, WebhookWithSecretDTO } from "@atende/contracts";
import { webhookSubscriptions } from "../../db/schema/index.js";
import { expectError, expectOk } from "../../test/calls.js";
import { buildTeam } from "../../test/factories.js";
import { PROBE_HOSTS, ownHost } from "../../test/internalAddresses.js";
import { type TestContext, createTestContext, openTestDatabase, waitFor } from "../../test/harness.js";
import { jobsIdle } from "../../test/settled.js";

/**
 * No SSRF through webhooks (issue 32, findings 1 and 6): with no private address allowed, as in
 * production, internal receivers are refused when saved, and a delivery to a receiver that turned
 * internal afterwards is refused when it connects: logged as a forbidden address, the receiver never
 * reached, and counted as a failing delivery (switched off after a day, the admins told).
 */
let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildTeam>>;

beforeAll(async () => {
  ctx = await createTestContext({ OUTBOUND_ALLOW_PRIVATE: "" });
  team = await buildTeam(ctx);
});
afterAll(async () => ctx?.close());

const subscribe = (c: TestContext, auth: Record<string, string>, url: string) =>
  c.app.inject({
    method: "POST",
    url: "/webhooks",
    headers: auth,
    payload: { url, events: ["ticket.created"] },
  });

describe("SSRF", () => {
  it("refuses loopback, private, link-local, metadata, documentation and this host's own receivers with 400 ERR_WEBHOOK_URL_FORBIDDEN", async () => {
    const own = ownHost();
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://10.1.2.3/x",
      "http://192.168.0.10/x",
      "http://172.20.0.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://0.0.0.0/x",
      ...PROBE_HOSTS.map((host) => `http://${host}/x`),
      ...(own ? [`http://${own}:${ctx.deps.config.PORT}/health`] : []),
    ])
      expectError(await subscribe(ctx, team.adminLogin.auth, url), 400, "ERR_WEBHOOK_URL_FORBIDDEN");
    expectError(await subscribe(ctx, team.adminLogin.auth, "ftp://x"), 400, "ERR_WEBHOOK_URL_INVALID");
  });

  it("accepts a receiver whose name does not resolve yet (judged again at every delivery)", async () => {
    const url = "https://receiver.invalid/hook";
    expect(expectOk<WebhookWithSecretDTO>(await subscribe(ctx, team.adminLogin.auth, url), 201).url).toBe(
      url,
    );
  });

  it("refuses at delivery a receiver that is internal now, without reaching it, as a failing delivery that switches the webhook off after a day", async () => {
    let reached = 0;
    const server = http.createServer((_req, res) => {
      reached++;
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const receiver = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
    // Two instances of one deployment: the receiver was saved where it was allowed (it resolved to a
    // public address then, say), and is delivered where nothing private is.
    const database = await openTestDatabase();
    const shared = { SECRETS_KEY: "ssrf-test-secrets-key-".padEnd(40, "k") };
    const saving = await createTestContext({ ...shared }, { database });
    const delivering = await createTestContext({ ...shared, OUTBOUND_ALLOW_PRIVATE: "" }, { database });
    try {
      delivering.built.startBackground();
      const t = await buildTeam(saving);
      const sub = expectOk<WebhookWithSecretDTO>(await subscribe(saving, t.adminLogin.auth, receiver), 201);
      const inject = (method: "GET" | "POST", url: string) =>
        delivering.app.inject({ method, url, headers: t.adminLogin.auth });
      expectOk(await inject("POST", `/webhooks/${sub.id}/test`), 204);
      const log = async () =>
        expectOk<WebhookDeliveryDTO[]>(await inject("GET", `/webhooks/${sub.id}/deliveries`));
      await waitFor(async () => (await log())[0]?.attempts === 1);
      await jobsIdle(delivering);
      // A generic outcome (no status, no socket error, no address), retried later like any failure,
      // and the subscription's failure clock started.
      expect((await log())[0]).toMatchObject({
        status: "pending",
        attempts: 1,
        responseCode: null,
        lastError: "forbidden address",
      });
      const [row] = await delivering.deps.db
        .select()
        .from(webhookSubscriptions)
        .where(eq(webhookSubscriptions.id, sub.id));
      expect(row!.failingSince).not.toBeNull();
      // Failing for a day: switched off, as any failing receiver is. (Another subscription: this
      // one's next test waits behind its pending retry, deliveries of one entity keep their order.)
      const old = expectOk<WebhookWithSecretDTO>(await subscribe(saving, t.adminLogin.auth, receiver), 201);
      await delivering.deps.db
        .update(webhookSubscriptions)
        .set({ failingSince: new Date(Date.now() - 25 * 3600_000) })
        .where(eq(webhookSubscriptions.id, old.id));
      expectOk(await inject("POST", `/webhooks/${old.id}/test`), 204);
      const listed = async () =>
        expectOk<WebhookDTO[]>(await inject("GET", "/webhooks")).find((w) => w.id === old.id);
      await waitFor(async () => (await listed())?.active === false, 10_000);
      expect(await listed()).toMatchObject({ active: false, disabledReason: "failing" });
      expect(reached).toBe(0);
    } finally {
      await delivering.close();
      await saving.close();
      await database.drop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
