import crypto from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import Fastify from "fastify";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { expectError, expectOk } from "../test/calls.js";
import { type LoggedIn, buildTeam } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import { registerErrorHandler } from "./errors.js";
import { limiterStore, makeRateLimitGuard } from "./rateLimit.js";
import { routes } from "./route.js";

/**
 * Declared rate limits (RouteDeclaration.rateLimit) through the real app: routes declared here, on
 * top of every module's, are limited by the app's own hook, on the test clock.
 */
let ctx: TestContext;
let admin: LoggedIn;
let agent: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext();
  const r = routes(ctx.app);
  r.post(
    "/test/limited",
    {
      access: "public",
      body: z.object({ name: z.string() }),
      rateLimit: { max: 2, windowSeconds: 60 },
    },
    ({ body }) => ({ hello: body.name }),
  );
  r.get(
    "/test/mine",
    { access: "user", rateLimit: { max: 1, windowSeconds: 60, by: "user" } },
    ({ auth }) => ({
      userId: auth.userId,
    }),
  );
  r.get("/test/free", { access: "public" }, () => ({ ok: true }));
  const team = await buildTeam(ctx);
  admin = team.adminLogin;
  agent = team.agentLogin;
});
afterAll(async () => {
  await ctx.close();
});

const post = (remoteAddress: string, payload: object, lang = "en") =>
  ctx.app.inject({
    method: "POST",
    url: "/test/limited",
    payload,
    remoteAddress,
    headers: { "accept-language": lang },
  });

describe("declared rate limits", () => {
  it("counts every call per address: over the limit 429 with the wait; another address and a new window pass", async () => {
    const start = Date.now();
    ctx.clock.now = new Date(start);
    expect(expectOk(await post("10.1.0.1", { name: "a" }))).toEqual({ hello: "a" });
    // A refused call counts too.
    expectError(await post("10.1.0.1", {}), 400, "ERR_VALIDATION");
    const over = await post("10.1.0.1", { name: "a" });
    expectError(over, 429, "ERR_TOO_MANY_REQUESTS");
    expect(over.json()).toMatchObject({
      message: "Too many requests. Wait a moment and try again.",
      retryAfter: 60,
    });
    expect(over.headers["retry-after"]).toBe("60");
    expect((await post("10.1.0.1", { name: "a" }, "pt")).json().message).toBe(
      "Muitas requisições. Aguarde um pouco e tente novamente.",
    );
    // Another address has its own count; a route without a limit has none.
    expectOk(await post("10.1.0.2", { name: "b" }));
    for (let i = 0; i < 5; i++)
      expectOk(await ctx.app.inject({ method: "GET", url: "/test/free", remoteAddress: "10.1.0.1" }));

    ctx.clock.now = new Date(start + 30_000);
    expect((await post("10.1.0.1", { name: "a" })).json().retryAfter).toBe(30);
    // The window ends: the count starts again.
    ctx.clock.now = new Date(start + 60_000);
    expect(expectOk(await post("10.1.0.1", { name: "a" }))).toEqual({ hello: "a" });
  });

  it("a per-user limit counts the signed-in user wherever they call from, not the address", async () => {
    const mine = (who: LoggedIn, remoteAddress: string) =>
      ctx.app.inject({ method: "GET", url: "/test/mine", headers: who.auth, remoteAddress });
    expectOk(await mine(admin, "10.2.0.1"));
    expectError(await mine(admin, "10.2.0.2"), 429, "ERR_TOO_MANY_REQUESTS");
    // Another user behind the same address is not held back.
    expect(expectOk(await mine(agent, "10.2.0.1"))).toEqual({ userId: agent.user.id });
    // Without a session the guard answers first.
    expectError(
      await ctx.app.inject({ method: "GET", url: "/test/mine", remoteAddress: "10.2.0.3" }),
      401,
      "ERR_NO_SESSION",
    );
  });

  it("the API document shows the limit: a 429 answer, the description and x-rateLimit", async () => {
    const doc = (await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" })).json<{
      paths: Record<string, Record<string, { description: string; responses: Record<string, unknown> }>>;
    }>();
    const limited = doc.paths["/test/limited"]!.post!;
    expect(limited).toMatchObject({ "x-rateLimit": { max: 2, windowSeconds: 60, by: "ip" } });
    expect(limited.description).toContain("At most 2 calls per 60 s per client address.");
    expect(limited.responses["429"]).toMatchObject({ headers: { "retry-after": expect.any(Object) } });
    expect(doc.paths["/test/mine"]!.get).toMatchObject({ "x-rateLimit": { by: "user" } });
    expect(Object.keys(doc.paths["/test/free"]!.get!.responses)).not.toContain("429");
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
  });
});

describe("declared rate limits with Redis", () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const REDIS_PREFIX = `atende-test:${crypto.randomUUID()}`;

  /** An instance of the deployment: its own limiter store, on the one Redis. */
  async function instance() {
    const app = Fastify();
    app.decorateRequest("auth", null);
    registerErrorHandler(app);
    const store = limiterStore({ REDIS_URL, REDIS_PREFIX }, undefined as never);
    app.addHook("preHandler", makeRateLimitGuard(store));
    app.addHook("onClose", async () => store.close());
    routes(app).get("/signup", { access: "public", rateLimit: { max: 3, windowSeconds: 60 } }, () => ({
      ok: true,
    }));
    await app.ready();
    return app;
  }

  it("calls spread over two instances count against one limit, under the deployment's prefix", async () => {
    const a = await instance();
    const b = await instance();
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    try {
      const call = (app: typeof a, remoteAddress: string) =>
        app.inject({ method: "GET", url: "/signup", remoteAddress });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await call(i % 2 ? b : a, "10.3.0.1")).statusCode);
      expect(codes).toEqual([200, 200, 200]);
      expectError(await call(b, "10.3.0.1"), 429, "ERR_TOO_MANY_REQUESTS");
      expectError(await call(a, "10.3.0.1"), 429, "ERR_TOO_MANY_REQUESTS");
      expectOk(await call(a, "10.3.0.2"));
      const ttl = await redis.pTTL(`${REDIS_PREFIX}:route:GET /signup:ip:10.3.0.1`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await redis.del(await redis.keys(`${REDIS_PREFIX}:*`));
      await redis.quit();
      await a.close();
      await b.close();
    }
  });
});
