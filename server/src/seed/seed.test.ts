import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { loadConfig } from "../config.js";
import { companies, users } from "../db/schema/index.js";
import { openTestDatabase } from "../test/harness.js";
import { DEMO_LOGINS, seed } from "./index.js";

/**
 * Several instances of one deployment start at once on an empty database: exactly one seeds it,
 * the others find it seeded and carry on (none crashes on a half-made copy of the demo).
 */
let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.drop());

const log = { info: () => undefined } as unknown as FastifyBaseLogger;

describe("seed", () => {
  it("three instances starting at once on an empty database seed it once, and all say the demo logins", async () => {
    const config = loadConfig({ NODE_ENV: "development", SEED_DEMO: "auto", LOG_LEVEL: "silent" });
    const deps = { db: database.db, config, now: () => new Date() };
    const results = await Promise.all([seed(deps, log), seed(deps, log), seed(deps, log)]);
    for (const r of results) expect(r.logins.map((l) => l.email)).toEqual(DEMO_LOGINS.map((l) => l.email));
    const [c] = await database.db.select({ n: count() }).from(companies);
    const [u] = await database.db.select({ n: count() }).from(users);
    expect({ companies: c!.n, users: u!.n }).toEqual({ companies: 2, users: DEMO_LOGINS.length });
  });
});

describe("seed outside the demo", () => {
  it("on PostgreSQL (DATABASE_URL) without SEED_DEMO: no demo users; without ADMIN_EMAIL nobody, and the start says how", async () => {
    const fresh = await openTestDatabase();
    try {
      const config = loadConfig({ DATABASE_URL: "postgres://db/atende", LOG_LEVEL: "silent" });
      expect(config.demo).toBe(false);
      expect(loadConfig({ DATABASE_URL: "postgres://db/atende", SEED_DEMO: "true" }).demo).toBe(true);
      const deps = { db: fresh.db, config, now: () => new Date() };
      expect(await seed(deps, log)).toEqual({ logins: [], needsSuperUser: true });
      const [u] = await fresh.db.select({ n: count() }).from(users);
      expect(u!.n).toBe(0);

      const withAdmin = { ...deps, config: { ...config, ADMIN_EMAIL: "ops@empresa.test" } };
      const first = await seed(withAdmin, log);
      expect(first.generatedPassword?.email).toBe("ops@empresa.test");
      expect(first.generatedPassword?.password).toMatch(/^[\w-]{16}$/);
      // Started again: nothing more, and nothing to say.
      expect(await seed(withAdmin, log)).toEqual({ logins: [] });
      expect(await seed(deps, log)).toEqual({ logins: [], needsSuperUser: false });
      const supers = await fresh.db.select({ email: users.email, isSuper: users.super }).from(users);
      expect(supers).toEqual([{ email: "ops@empresa.test", isSuper: true }]);
    } finally {
      await fresh.drop();
    }
  });
});
