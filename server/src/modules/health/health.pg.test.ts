import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../../db/client.js";
import { type TestContext, clonePostgresTemplate, createTestContext, waitFor } from "../../test/harness.js";
import { type TcpProxy, startTcpProxy } from "../../test/tcpProxy.js";

/** PostgreSQL going away: /readyz names the database (503), /livez stays 200, and both recover. */
let ctx: TestContext;
let proxy: TcpProxy;
let clone: Awaited<ReturnType<typeof clonePostgresTemplate>>;
let database: ReturnType<typeof openPostgres>;

beforeAll(async () => {
  clone = await clonePostgresTemplate();
  const url = new URL(clone.url);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  database = openPostgres(proxy.urlFor(clone.url), 4, { warn: () => undefined });
  ctx = await createTestContext({}, { database });
});
afterAll(async () => {
  await ctx.close();
  await database.close();
  proxy.restore();
  await proxy.close();
  await clone.drop();
});

const get = (url: string) => ctx.app.inject({ method: "GET", url });

describe("GET /readyz while PostgreSQL is away", () => {
  it("answers 503 naming the database while /livez answers 200; ready again once it is back", async () => {
    expect((await get("/readyz")).statusCode).toBe(200);
    proxy.cut();
    const away = await get("/readyz");
    expect(away.statusCode).toBe(503);
    expect(away.json()).toEqual({
      status: "error",
      checks: { database: "unreachable", redis: "not configured" },
    });
    expect((await get("/livez")).json()).toEqual({ status: "ok" });
    proxy.restore();
    await waitFor(async () => (await get("/readyz")).statusCode === 200, 10_000);
  });
});
