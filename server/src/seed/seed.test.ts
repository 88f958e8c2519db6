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
