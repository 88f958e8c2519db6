import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema/index.js";
import { lockDataDir } from "./lock.js";

export type Schema = typeof schema;
/** One type for both drivers: every query module takes this and runs unchanged on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

/** Runs raw SQL and answers its rows, the same on both drivers. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    async migrate() {
      // Several instances may start at once: one migrates, the others wait on the advisory lock.
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(727274)");
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query("SELECT pg_advisory_unlock(727274)").catch(() => undefined);
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

/**
 * PGlite runs one statement at a time: a query on the database made while a transaction is open
 * waits for that transaction, so code inside a transaction that reaches for the database instead
 * of its `tx` hangs forever (PostgreSQL's pool would hide it). With `guard`, such a query fails at
 * once with a clear error instead; the test harness turns it on.
 */
function guardNestedQueries(client: PGlite): void {
  const open = new AsyncLocalStorage<{ open: boolean }>();
  const refuse = () => {
    if (open.getStore()?.open)
      throw new Error("query on the database inside an open transaction: use the transaction's tx");
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<typeof query>) => {
    refuse();
    return query(...args);
  }) as typeof client.query;
  client.exec = ((...args: Parameters<typeof exec>) => {
    refuse();
    return exec(...args);
  }) as typeof client.exec;
  client.transaction = (async (fn: Parameters<typeof transaction>[0]) => {
    refuse();
    const state = { open: true };
    try {
      return await open.run(state, () => transaction(fn));
    } finally {
      state.open = false;
    }
  }) as typeof client.transaction;
}

/** PGlite in `dir` (locked against a second process), or in memory when dir is undefined. */
export async function openPglite(
  dir?: string,
  loadDataDir?: Blob,
  opts: { guard?: boolean } = {},
): Promise<Database> {
  const release = dir ? lockDataDir(dir) : () => undefined;
  try {
    const client = dir ? new PGlite(path.join(dir, "pgdata")) : new PGlite({ loadDataDir });
    await client.waitReady;
    if (opts.guard) guardNestedQueries(client);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    return {
      db,
      kind: "pglite",
      migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
      async ping() {
        await client.query("select 1");
      },
      async close() {
        await client.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
