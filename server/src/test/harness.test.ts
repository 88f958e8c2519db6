import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "../db/client.js";
import { companies } from "../db/schema/index.js";
import { buildCompany } from "./factories.js";
import { openTestDatabase } from "./harness.js";

/**
 * Every test file starts on a database as the migrations leave it, whether the harness cloned one
 * (PostgreSQL) or emptied the worker's PGlite for it: no rows, ids from 1, no table another file
 * added; and a file that let its database go can no longer write into it.
 */
describe("a test file's database", () => {
  it("starts empty with ids from 1, whatever the file before it left; a dropped one refuses queries", async () => {
    const first = await openTestDatabase();
    await buildCompany(first.db);
    await buildCompany(first.db);
    await first.db.execute(sql`create table left_behind (id serial primary key)`);
    await first.drop();
    await expect(first.db.select({ n: count() }).from(companies)).rejects.toThrow();

    const second = await openTestDatabase();
    try {
      const [row] = await second.db.select({ n: count() }).from(companies);
      expect(row!.n).toBe(0);
      expect((await buildCompany(second.db)).id).toBe(1);
      const [table] = await queryRows<{ name: string | null }>(
        second.db,
        sql`select to_regclass('public.left_behind')::text as name`,
      );
      expect(table!.name).toBeNull();
    } finally {
      await second.drop();
    }
  });
});
