import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { migrationsFolder, openPostgres } from "../db/client.js";
import type { TestProject } from "vitest/node";

/**
 * Migrates one database before the suite: a PGlite snapshot file (each test file loads it in a
 * fraction of the cost of a fresh PGlite), or, with TEST_DATABASE_URL, a PostgreSQL template
 * database that each test file clones.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `atende_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const tplUrl = new URL(url);
    tplUrl.pathname = `/${template}`;
    const database = openPostgres(tplUrl.toString(), 1);
    await database.migrate();
    await database.close();
    project.provide("pgTemplate", template);
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder });
  const snapshot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "atende-test-")), "migrated.tar.gz");
  fs.writeFileSync(snapshot, Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer()));
  await client.close();
  project.provide("pgliteSnapshot", snapshot);
  return () => fs.rmSync(path.dirname(snapshot), { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate?: string;
    pgliteSnapshot?: string;
  }
}
