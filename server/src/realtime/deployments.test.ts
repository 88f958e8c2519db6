import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { redisPrefix } from "../db/redisPrefix.js";
import { buildCompany, buildUser, login } from "../test/factories.js";
import {
  type TestContext,
  connectSocket,
  createTestContext,
  openTestDatabase,
  record,
  waitFor,
  TEST_REDIS_URL,
} from "../test/harness.js";

/**
 * Two deployments (two databases: production and staging) on one Redis: each hears only its own
 * events, although their companies and users have the same ids.
 */
let production: Awaited<ReturnType<typeof openTestDatabase>>;
let staging: Awaited<ReturnType<typeof openTestDatabase>>;
let prod: TestContext;
let prod2: TestContext;
let stag: TestContext;
/** A second staging instance: what it sends crosses Redis to `stag` the way a leak from production would. */
let stag2: TestContext;
const sockets: Socket[] = [];

beforeAll(async () => {
  production = await openTestDatabase();
  staging = await openTestDatabase();
  [prod, prod2, stag, stag2] = await Promise.all([
    createTestContext({ REDIS_URL: TEST_REDIS_URL }, { database: production }),
    createTestContext({ REDIS_URL: TEST_REDIS_URL }, { database: production }),
    createTestContext({ REDIS_URL: TEST_REDIS_URL }, { database: staging }),
    createTestContext({ REDIS_URL: TEST_REDIS_URL }, { database: staging }),
  ]);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await prod.close();
  await prod2.close();
  await stag.close();
  await stag2.close();
  await production.drop();
  await staging.drop();
});

describe("two deployments on one Redis", () => {
  it("each database gets its own prefix; the instances of one deployment share theirs; REDIS_PREFIX overrides", async () => {
    const p1 = await redisPrefix(prod.deps.config, production.db);
    expect(await redisPrefix(prod2.deps.config, production.db)).toBe(p1);
    expect(await redisPrefix(stag.deps.config, staging.db)).not.toBe(p1);
    expect(await redisPrefix({ REDIS_PREFIX: "acme-staging" }, production.db)).toBe("acme-staging");
  });

  it("an event of a company in one deployment never reaches the same company id in the other", async () => {
    const prodCompany = await buildCompany(production.db);
    const stagCompany = await buildCompany(staging.db);
    // Same ids on both sides: only the prefix keeps them apart.
    expect(stagCompany.id).toBe(prodCompany.id);
    const prodAdmin = await buildUser(production.db, prodCompany.id, { profile: "admin" });
    const prodWatcher = await buildUser(production.db, prodCompany.id, { profile: "admin" });
    const stagAdmin = await buildUser(staging.db, stagCompany.id, { profile: "admin" });
    const stagActor = await buildUser(staging.db, stagCompany.id, { profile: "admin" });
    const prodSession = await login(prod, prodAdmin.email);
    const stagActorSession = await login(stag2, stagActor.email);

    const onProd2 = await connectSocket(await prod2.url(), (await login(prod2, prodWatcher.email)).token);
    const onStaging = await connectSocket(await stag.url(), (await login(stag, stagAdmin.email)).token);
    sockets.push(onProd2, onStaging);
    const heardInProduction = record<{ action: string; user: { email: string } }>(
      onProd2,
      `company-${prodCompany.id}-user`,
    );
    const heardInStaging: { name: string; email?: string }[] = [];
    onStaging.onAny((name: string, payload?: { user?: { email?: string } }) =>
      heardInStaging.push({ name, email: payload?.user?.email }),
    );

    const res = await prod.app.inject({
      method: "POST",
      url: "/users",
      headers: prodSession.auth,
      payload: { name: "Prod only", email: "prod-only@deploy.test", password: "12345" },
    });
    expect(res.statusCode).toBe(201);
    // It crossed instances within production through Redis...
    await waitFor(() => heardInProduction.some((e) => e.user.email === "prod-only@deploy.test"));
    // ...and never reached staging. Staging's own event, sent after it through the same Redis, arrives
    // on the staging instance behind anything Redis handed it before: it is the first thing heard.
    const marker = await stag2.app.inject({
      method: "POST",
      url: "/users",
      headers: stagActorSession.auth,
      payload: { name: "Staging only", email: "staging-only@deploy.test", password: "12345" },
    });
    expect(marker.statusCode).toBe(201);
    await waitFor(() => heardInStaging.length > 0);
    expect(heardInStaging).toEqual([
      { name: `company-${stagCompany.id}-user`, email: "staging-only@deploy.test" },
    ]);
  });
});
