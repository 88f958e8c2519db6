import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { TicketsPage } from "@atende/contracts";
import { loadConfig } from "../../config.js";
import { type Manifest, restoreFrom } from "../backup.js";
import { readTar } from "../tar.js";
import { LocalBlobs } from "../../storage/blobs.js";
import { login } from "../../test/factories.js";
import { createTestContext, openTestDatabase } from "../../test/harness.js";
import { queryRows } from "../../db/client.js";
import { VERSION } from "../../version.js";
import { headLevel, tablesOf } from "../../db/transfer.js";

/**
 * Upgrades keep the data: every fixture in fixtures/ is a database an earlier release (or this
 * one) wrote (makeFixture.ts). Each is restored at its own migration level into a fresh database of
 * this run (PGlite, or PostgreSQL with TEST_DATABASE_URL), then migrated to the head as an upgrade
 * would: every row is still there, a column added since holds its default, and the app reads it
 * (the demo admin logs in and lists the tickets).
 */
const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const fixtures = fs
  .readdirSync(folder)
  .filter((f) => f.endsWith(".tar.gz"))
  .sort();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "atende-upgrade-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The fixture's manifest and each table's columns, read from the archive. */
async function contentsOf(file: string) {
  let manifest: Manifest | null = null;
  const columns: Record<string, string[]> = {};
  for await (const entry of readTar(fs.createReadStream(file).pipe(createGunzip()))) {
    const text = async () => {
      const chunks: Buffer[] = [];
      for await (const c of entry.read()) chunks.push(c);
      return Buffer.concat(chunks).toString("utf8");
    };
    if (entry.name === "manifest.json") manifest = JSON.parse(await text()) as Manifest;
    const m = /^database\/([\w-]+)\/columns\.json$/.exec(entry.name);
    if (m) columns[m[1]!] = JSON.parse(await text()) as string[];
  }
  return { manifest: manifest!, columns };
}

describe("upgrading a database an earlier release wrote", () => {
  it("this release has its fixture (npm run upgrade-fixture -w server, once per release)", () => {
    expect(fixtures).toContain(`${VERSION}.tar.gz`);
  });

  it.each(fixtures)(
    "%s: restored at its level, migrated to the head, every row kept and new columns defaulted",
    async (name) => {
      const file = path.join(folder, name);
      const { manifest, columns } = await contentsOf(file);
      const database = await openTestDatabase();
      const dataDir = path.join(scratch, name);
      try {
        await restoreFrom(
          {
            config: loadConfig({ DATA_DIR: dataDir }),
            database,
            blobs: new LocalBlobs(path.join(dataDir, "media")),
          },
          file,
        );
        const head = headLevel();
        const [level] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        expect(level!.n).toBe(head.applied);

        for (const [table, rows] of Object.entries(manifest.database.tables)) {
          const [counted] = await queryRows<{ n: number }>(
            database.db,
            sql`select count(*)::int as n from ${sql.identifier(table)}`,
          );
          expect({ table, rows: counted?.n }).toEqual({ table, rows });
        }

        // A column the fixture did not have holds its default in the rows it brought (when the default
        // is a constant: now() and sequences differ row by row).
        const defaults = await queryRows<{
          table_name: string;
          column_name: string;
          column_default: string | null;
        }>(
          database.db,
          sql`select table_name, column_name, column_default from information_schema.columns where table_schema = 'public'`,
        );
        for (const table of await tablesOf(database.db)) {
          const before = columns[table.name];
          if (!before || !manifest.database.tables[table.name]) continue;
          for (const column of table.columns.filter((c) => !before.includes(c))) {
            const def = defaults.find(
              (d) => d.table_name === table.name && d.column_name === column,
            )?.column_default;
            if (!def || /nextval|now\(\)|random|current_/i.test(def)) continue;
            const [off] = await queryRows<{ n: number }>(
              database.db,
              sql`select count(*)::int as n from ${sql.identifier(table.name)} where ${sql.identifier(column)} is distinct from ${sql.raw(def)}`,
            );
            expect({ table: table.name, column, notDefault: off?.n }).toEqual({
              table: table.name,
              column,
              notDefault: 0,
            });
          }
        }

        const ctx = await createTestContext({}, { database });
        try {
          const admin = await login(ctx, "admin@atende.demo", "Admin123");
          const res = await ctx.app.inject({
            method: "GET",
            url: "/tickets?status=open&showAll=true",
            headers: admin.auth,
          });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json<TicketsPage>().count).toBeGreaterThan(0);
        } finally {
          await ctx.close();
        }
      } finally {
        await database.drop();
      }
    },
  );
});
