import fs from "node:fs";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { inject } from "vitest";
import { io as ioClient, type Socket } from "socket.io-client";
import { buildApp, type BuiltApp } from "../app.js";
import { loadConfig, type Config } from "../config.js";
import type { PGlite } from "@electric-sql/pglite";
import { type Database, openGuardedPglite, openPostgres, pgliteDatabase } from "../db/client.js";
import type { Deps } from "../deps.js";
import { EventBus } from "../events/bus.js";
import { TokenService } from "../http/tokens.js";
import type { ProviderRegistry } from "../channels/registry.js";
import { baileysProvider } from "../channels/baileys/provider.js";
import { FakeSocket } from "../channels/baileys/fixtures/fakeSocket.js";
import { silent } from "../channels/baileys/fixtures/harness.js";
import { LocalMediaStore, type MediaStore } from "../storage/media.js";
import { leakCheckingLogger } from "./logLeaks.js";
import { NO_GOOGLE_URL, NO_GRAPH_URL, NO_OPENAI_URL } from "./network.js";
import os from "node:os";
import path from "node:path";

/**
 * A fresh PostgreSQL database cloned from the suite's migrated template (TEST_DATABASE_URL only): its
 * URL, for a test that connects its own way (a spawned server, a proxy), and how to drop it.
 */
export async function clonePostgresTemplate(): Promise<{ url: string; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject("pgTemplate");
  if (!url || !template) throw new Error("clonePostgresTemplate needs TEST_DATABASE_URL");
  const name = `atende_t_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  return {
    url: dbUrl.toString(),
    async drop() {
      // pool.end() resolves before every backend has gone; a forced drop would kill one mid-goodbye.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`drop database if exists ${name}`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== "55006" || attempt >= 50) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await admin.end();
    },
  };
}

/** A fresh, migrated database for one test file: PGlite from the snapshot, or a PostgreSQL clone. */
export async function openTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  if (process.env.TEST_DATABASE_URL && inject("pgTemplate")) {
    const clone = await clonePostgresTemplate();
    const database = openPostgres(clone.url, 5);
    return {
      ...database,
      async drop() {
        await database.close();
        await clone.drop();
      },
    };
  }
  return leasePglite();
}

/**
 * The worker's PGlite between two test files (files share their worker's modules: isolate: false):
 * opening one from the snapshot costs 2-4 s of CPU, emptying it a few milliseconds. Only one that
 * comes back as the snapshot made it (same tables, triggers and functions) is kept.
 */
let sparePglite: { client: PGlite; shape: string } | null = null;

/** What a database is made of, beyond its rows: a test that adds a table or a trigger leaves it here. */
async function shapeOf(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ shape: string }>(`
    select coalesce(string_agg(x, ',' order by x), '') as shape from (
      select 'r:' || c.relname || ':' || c.relkind::text as x from pg_class c
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'
      union all select 't:' || tgname from pg_trigger where not tgisinternal
      union all select 'f:' || p.proname from pg_proc p
        join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
    ) parts`);
  return rows[0]!.shape;
}

/** Empties every table and restarts every sequence: the migrated snapshot again, as far as rows go. */
async function emptyPglite(client: PGlite): Promise<void> {
  await client.exec(`
    do $$ declare r record; begin
      execute (select 'truncate ' || string_agg(format('%I.%I', schemaname, tablename), ', ')
        || ' restart identity cascade' from pg_tables where schemaname = 'public');
      for r in select schemaname, sequencename from pg_sequences where schemaname = 'public' loop
        execute format('alter sequence %I.%I restart', r.schemaname, r.sequencename);
      end loop;
    end $$;`);
  await client.exec("discard all");
}

/**
 * A test file's PGlite: the worker's spare, emptied, or a new one from the snapshot. The file gets
 * a handle that stops working once it is dropped, so a timer left running by one file can never
 * write into the next file's database.
 */
async function leasePglite(): Promise<Database & { drop(): Promise<void> }> {
  let kept = sparePglite;
  sparePglite = null;
  if (!kept) {
    const snapshot = inject("pgliteSnapshot");
    if (!snapshot) throw new Error("globalSetup did not provide a database snapshot");
    const client = await openGuardedPglite(new Blob([fs.readFileSync(snapshot)]));
    kept = { client, shape: await shapeOf(client) };
  }
  const { client, shape } = kept;
  let dropped = false;
  const handle = new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (dropped) throw new Error("this test file's database was dropped");
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    try {
      await emptyPglite(client);
      if ((await shapeOf(client)) === shape && !sparePglite) {
        sparePglite = { client, shape };
        return;
      }
    } catch {
      // Whatever broke it, the next file gets a new one.
    }
    await client.close();
  };
  return { ...pgliteDatabase(handle, drop), drop };
}

/** What outbound calls of the tests may reach besides public addresses: loopback, where fakes listen. */
export const TEST_OUTBOUND_ALLOWANCE = "127.0.0.0/8,::1";

/** The Redis the multi-instance suites share (TEST_REDIS_URL, or the local one). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestContext<M extends MediaStore = LocalMediaStore> {
  /** The media on this test's own disk folder (`media.root`), unless the test gave a store of its own. */
  deps: Deps & { media: M };
  built: BuiltApp;
  app: BuiltApp["app"];
  /** The clock the server reads: real time, until a test sets `now` (then frozen there); `real()` lets it follow real time again. */
  clock: { now: Date; real(): void };
  url(): Promise<string>;
  close(): Promise<void>;
}

/** A test context whatever its media store (what the factories need). */
export type AnyTestContext = TestContext<MediaStore>;

export async function createTestContext<M extends MediaStore = LocalMediaStore>(
  overrides: Partial<Config> = {},
  opts: {
    /** A media store of the test's own (an S3 bucket shared by two instances). */
    media?: (config: Config) => M;
    authOptions?: { reuseGraceMs: number };
    database?: Database;
    providers?: ProviderRegistry;
    /** The app's logger options (default: none), for a test that reads what the server logs. */
    logger?: NonNullable<Parameters<typeof buildApp>[1]>["logger"];
  } = {},
): Promise<TestContext<M>> {
  // A shared database plays several instances of one deployment; its owner drops it.
  const database = opts.database
    ? { ...opts.database, drop: async () => undefined }
    : await openTestDatabase();
  // Follows real time until a test sets `clock.now`, which freezes it there.
  let frozen: Date | null = null;
  const clock = {
    get now(): Date {
      return frozen ?? new Date();
    },
    set now(at: Date) {
      frozen = at;
    },
    real() {
      frozen = null;
    },
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-test-data-"));
  const config = {
    ...loadConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      DATA_DIR: dataDir,
      GRAPH_API_URL: NO_GRAPH_URL,
      GOOGLE_TOKEN_URL: NO_GOOGLE_URL,
      DIALOGFLOW_API_URL: NO_GOOGLE_URL,
      OPENAI_BASE_URL: NO_OPENAI_URL,
      // The fakes listen on loopback; a test that proves a refusal narrows or empties this.
      OUTBOUND_ALLOW_PRIVATE: TEST_OUTBOUND_ALLOWANCE,
    }),
    ...overrides,
  };
  const deps: Deps & { media: M } = {
    config,
    database,
    db: database.db,
    tokens: new TokenService("test-secret-".padEnd(48, "x"), config.ACCESS_TOKEN_TTL),
    bus: new EventBus(),
    now: () => clock.now,
    media:
      opts.media?.(config) ??
      (new LocalMediaStore(path.join(dataDir, "media"), config.MEDIA_MAX_BYTES) as unknown as M),
  };
  // Without a logger of the test's own, the server logs into a sink that fails the file at its end
  // if any line carried a test password (issue 32: logs never carry one).
  const sink = opts.logger ? null : leakCheckingLogger();
  const built = await buildApp(deps, {
    logger: opts.logger ?? sink!.logger,
    authOptions: opts.authOptions,
    // WhatsApp Web (Baileys) on a fake socket that never connects: a test that creates a "beta"
    // connection (the guard suite's fuzzing does) must not dial web.whatsapp.com.
    providers: {
      beta: baileysProvider({ logger: silent, makeSocket: () => new FakeSocket() }),
      ...opts.providers,
    },
  });
  let listening: string | null = null;
  return {
    deps,
    built,
    app: built.app,
    clock,
    async url() {
      if (!listening) {
        await built.app.listen({ port: 0, host: "127.0.0.1" });
        listening = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
      }
      return listening;
    },
    async close() {
      await built.app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (sink?.leaks.length)
        throw new Error(`a log line carried a test password:\n${sink.leaks.join("\n")}`);
    },
  };
}

/**
 * A socket.io client as the web app opens it; resolves once the server says "ready". `listen` runs
 * before it connects, so listeners it adds hear the first packets too (what comes right with ready).
 */
export function connectSocket(
  baseUrl: string,
  token: string | undefined,
  listen?: (socket: Socket) => void,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = ioClient(baseUrl, {
      auth: token ? { token } : {},
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
    });
    listen?.(socket);
    const timer = setTimeout(() => reject(new Error("socket did not become ready")), 5_000);
    socket.on("ready", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.on("connect_error", (err) => {
      clearTimeout(timer);
      socket.close();
      reject(err);
    });
  });
}

/** Collects what a socket receives for one event name. */
export function record<T = unknown>(socket: Socket, event: string): T[] {
  const got: T[] = [];
  socket.on(event, (payload: T) => got.push(payload));
  return got;
}

/** Polls `check` until it holds; the generous default only matters when it never does (a busy CI machine). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
