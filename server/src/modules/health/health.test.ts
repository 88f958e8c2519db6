import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTeam } from "../../test/factories.js";
import { type TestContext, TEST_REDIS_URL, createTestContext, waitFor } from "../../test/harness.js";
import { logCapture } from "../../test/logLeaks.js";
import { type TcpProxy, startTcpProxy } from "../../test/tcpProxy.js";

/**
 * Probes for an orchestrator or a load balancer: /livez says only that the process answers;
 * /readyz says whether the database and Redis do, naming the one that does not. (The database going
 * away is in health.pg.test.ts: only a PostgreSQL server can be cut off.) Request log lines name
 * the company and user once the caller is known.
 */
let ctx: TestContext;
let redis: TcpProxy;
const log = logCapture();

beforeAll(async () => {
  const target = new URL(TEST_REDIS_URL);
  redis = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  ctx = await createTestContext({ REDIS_URL: redis.urlFor(TEST_REDIS_URL) }, { logger: log.logger });
});
afterAll(async () => {
  await ctx.close();
  await redis.close();
});

const get = (url: string) => ctx.app.inject({ method: "GET", url });

describe("GET /livez and /readyz", () => {
  it("ready with the database and Redis; Redis away: 503 naming it while /livez and /health stay 200; back: ready", async () => {
    expect((await get("/livez")).json()).toEqual({ status: "ok" });
    const ready = await get("/readyz");
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ok", checks: { database: "ok", redis: "ok" } });

    redis.cut();
    await waitFor(async () => (await get("/readyz")).statusCode === 503, 5_000);
    expect((await get("/readyz")).json()).toEqual({
      status: "error",
      checks: { database: "ok", redis: "unreachable" },
    });
    expect((await get("/livez")).statusCode).toBe(200);
    expect((await get("/health")).statusCode).toBe(200);

    redis.restore();
    await waitFor(async () => (await get("/readyz")).statusCode === 200, 10_000);
  });

  it("without REDIS_URL, Redis is not asked", async () => {
    const plain = await createTestContext();
    try {
      const ready = await plain.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.json()).toEqual({ status: "ok", checks: { database: "ok", redis: "not configured" } });
    } finally {
      await plain.close();
    }
  });
});

describe("request log lines", () => {
  it("carry the caller's companyId and userId once the token is read", async () => {
    const team = await buildTeam(ctx);
    const res = await ctx.app.inject({ method: "GET", url: "/tickets", headers: team.agentLogin.auth });
    expect(res.statusCode).toBe(200);
    const lines = log.text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.reqId === res.headers["x-request-id"]);
    const completed = lines.find((l) => l.msg === "request completed");
    expect(completed).toMatchObject({ companyId: team.company.id, userId: team.agent.id });
  });
});
