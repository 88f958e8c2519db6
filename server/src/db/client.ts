import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { serverRoot } from "../paths.js";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations, SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import { someCause } from "./errors.js";
import { lockDataDir } from "./lock.js";

/**
 * One type for both drivers: every query module takes this and runs unchanged on PGlite and PostgreSQL.
 * Drizzle is opened without the schema: queries name their tables, and none uses the relational API
 * (`db.query.<table>`), whose builders Drizzle would otherwise make again, one per table, for every
 * transaction it opens (2.5 % of the server thread's CPU in bench/inbound, issue 40).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

/** Runs raw SQL and answers its rows, the same on both drivers. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

export const migrationsFolder = path.join(serverRoot, "drizzle");

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Runs the migrations (of another folder: a restore builds an older level, db/transfer.ts). */
  migrate(folder?: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Where the PostgreSQL driver reports what it survives (a lost connection, a failed reconnect). */
export interface DbLog {
  warn(obj: object, msg: string): void;
}

/** The console, as JSON lines, for the database's log before (or without) the app's logger. */
export const consoleLog: DbLog = {
  warn: (obj, msg) => console.warn(JSON.stringify({ level: "warn", msg, ...describe(obj) })),
};

function describe(obj: object): Record<string, unknown> {
  const { err, ...rest } = obj as { err?: unknown };
  return err instanceof Error ? { ...rest, err: { message: err.message, code: errCode(err) } } : rest;
}

function errCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A lost or refused database connection, through any wrapping (Drizzle puts the driver's error in
 * `cause`): the server shut down or restarted (57P01-57P03), the connection broke (class 08), the
 * socket was refused, reset or timed out, or the pool's client died under the query. Such an error
 * says nothing about the request: it is answered 503 and the work is tried again later.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return someCause(
    err,
    /^(57P0[123]|08\w{3}|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/,
    /Connection terminated|not queryable|timeout exceeded when trying to connect/,
  );
}

/**
 * A DATABASE_URL that will never work, however long we wait: wrong password or user (class 28),
 * a database that does not exist (3D000).
 */
export function isDatabaseMisconfigured(err: unknown): boolean {
  return someCause(err, /^(28\w{3}|3D000)$/);
}

/**
 * Migrates once the database answers: a database still starting, restarting or out of reach is
 * waited for, with a backoff up to `maxDelayMs`, each attempt logged. Anything else (a bad
 * password, a database that does not exist) throws at once.
 */
export async function migrateWhenReachable(database: Database, log: DbLog, maxDelayMs = 10_000) {
  for (let attempt = 1; ; attempt++) {
    try {
      await database.migrate();
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      const retryInMs = Math.min(maxDelayMs, 500 * 2 ** (attempt - 1));
      log.warn({ err, attempt, retryInMs }, "database unreachable at start; waiting for it");
      await new Promise((r) => setTimeout(r, retryInMs));
    }
  }
}

export function openPostgres(url: string, poolSize = 10, log: DbLog = consoleLog): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A database that does not answer fails the request (503) instead of holding it forever.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
  });
  // A connection lost (a restart, a failover, a network blip) emits 'error' on its client, and on
  // the pool when the client sat idle in it; an 'error' event without a listener is thrown by Node
  // and kills the process. The client's own listener covers both cases (a client checked out by a
  // transaction has no pool listener) and logs once; the pool drops a broken client (idle at once,
  // checked out when released, since it is no longer queryable) and opens a new one when needed.
  pool.on("connect", (client) => {
    client.on("error", (err) => log.warn({ err }, "database connection lost; it will be replaced"));
  });
  pool.on("error", () => undefined); // already logged by the client's listener above
  const db = drizzlePg(pool) as unknown as Db;
  return {
    db,
    kind: "postgres",
    async migrate(folder = migrationsFolder) {
      // Several instances may start at once: one migrates, the others wait on the advisory lock.
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(727274)");
        await migratePg(drizzlePg(client), { migrationsFolder: folder });
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
    return pgliteDatabase(client, async () => {
      await client.close();
      release();
    });
  } catch (err) {
    release();
    throw err;
  }
}

/** An in-memory PGlite from a data-folder snapshot, with the nested-query guard (the tests' kind). */
export async function openGuardedPglite(loadDataDir: Blob): Promise<PGlite> {
  const client = new PGlite({ loadDataDir });
  await client.waitReady;
  guardNestedQueries(client);
  return client;
}

/** The Database over an open PGlite; `close` is what closing it does. */
export function pgliteDatabase(client: PGlite, close: () => Promise<void>): Database {
  return {
    db: drizzlePglite(client) as unknown as Db,
    kind: "pglite",
    migrate: (folder = migrationsFolder) =>
      migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
    async ping() {
      await client.query("select 1");
    },
    close,
  };
}
