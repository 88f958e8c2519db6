import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { redisPrefix } from "../../db/redisPrefix.js";
import { type TestContext, createTestContext, openTestDatabase, TEST_REDIS_URL } from "../../test/harness.js";

/**
 * Two instances of one deployment (one database, one Redis): the login limits are counted in Redis,
 * so attempts spread over the instances count against one limit.
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: TestContext;
let b: TestContext;

beforeAll(async () => {
  database = await openTestDatabase();
  const config = { REDIS_URL: TEST_REDIS_URL, LOGIN_MAX_PER_IP: 3, LOGIN_MAX_PER_EMAIL: 3 };
  a = await createTestContext(config, { database });
  b = await createTestContext(config, { database });
});
afterAll(async () => {
  await a.close();
  await b.close();
  await database.drop();
});

const attempt = (ctx: TestContext, email: string, remoteAddress: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email, password: "wrong" },
    remoteAddress,
  });

describe("login limits across instances", () => {
  it("attempts from one address spread over two instances count against one limit", async () => {
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await attempt(i % 2 ? b : a, `ip${i}@x.test`, "10.7.7.7")).statusCode);
    expect(codes).toEqual([401, 401, 401]);
    const onA = await attempt(a, "ip9@x.test", "10.7.7.7");
    const onB = await attempt(b, "ip9@x.test", "10.7.7.7");
    expect([onA.statusCode, onB.statusCode]).toEqual([429, 429]);
    expect(onB.json().retryAfter).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await attempt(b, "ip9@x.test", "10.7.7.8")).statusCode).toBe(401);
  });

  it("failed attempts on one email spread over two instances count against one limit", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await attempt(i % 2 ? b : a, "victim@x.test", `10.8.0.${i}`)).statusCode).toBe(401);
    }
    expect((await attempt(a, "victim@x.test", "10.8.0.50")).statusCode).toBe(429);
    expect((await attempt(b, "victim@x.test", "10.8.0.51")).statusCode).toBe(429);
  });

  it("the counters live under this deployment's prefix and expire with the window", async () => {
    const redis = createClient({ url: TEST_REDIS_URL });
    await redis.connect();
    try {
      const prefix = await redisPrefix(a.deps.config, database.db);
      expect(prefix).toMatch(/^atende:[0-9a-f]{16}$/);
      const ttl = await redis.pTTL(`${prefix}:login:ip:10.7.7.7`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(a.deps.config.LOGIN_WINDOW_SECONDS * 1000);
    } finally {
      await redis.quit();
    }
  });
});
