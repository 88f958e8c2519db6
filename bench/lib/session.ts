import { performance } from "node:perf_hooks";
import pg from "pg";
import { PostgresCpu } from "./cpu.js";
import { intEnv } from "./env.js";
import { createScratchDatabase, serverUrl } from "./db.js";
import { idleCheck } from "./machine.js";
import { type RunningServer, type ServerInfo, startServer } from "./server.js";
import { type CompanyShape, type Workspace, loadWorkspace } from "./workspace.js";

/**
 * What bench/tickets and bench/dashboard run in: a scratch database, the app's server in this
 * thread (so a call's statements can be captured), the workspace loaded with SQL, a plain client
 * on the database and PostgreSQL's CPU meter. All of it goes away at the end, or on Ctrl-C.
 */
export interface WorkspaceSession {
  info: ServerInfo;
  ws: Workspace;
  db: pg.Client;
  postgres: PostgresCpu;
  /** Seconds the load took. */
  loadSeconds: number;
}

export interface SessionOptions {
  poolSize: number;
  logLevel: string;
  /** Leave the database behind (for EXPLAIN by hand); the run prints its URL. */
  keep: boolean;
  measured: CompanyShape;
  others: { count: number; shape: CompanyShape };
}

/**
 * The settings bench/tickets and bench/dashboard share (BENCH_* environment variables), and the
 * companies they load: the measured one, and `otherCompanies` each holding 2 % of its rows.
 */
export function workspaceSettings(defaults: {
  messages: number;
  callSeconds: number;
  heavyMessagesMax: number;
}) {
  const settings = {
    tickets: intEnv("BENCH_TICKETS", 100_000),
    messages: intEnv("BENCH_TICKETS_MESSAGES", defaults.messages),
    contacts: intEnv("BENCH_TICKETS_CONTACTS", 30_000),
    otherCompanies: intEnv("BENCH_OTHER_COMPANIES", 9),
    /** Requests per call, unless the call's time runs out first (at least 20 are made). */
    iterations: intEnv("BENCH_ITERATIONS", 200),
    callSeconds: intEnv("BENCH_CALL_SECONDS", defaults.callSeconds),
    poolSize: intEnv("BENCH_POOL_SIZE", 10),
    logLevel: process.env.BENCH_LOG_LEVEL ?? "warn",
    /** SQL run after the load and before measuring, e.g. a proposed CREATE INDEX, to see its effect. */
    trySql: process.env.BENCH_TRY_SQL ?? "",
    /** Only the calls whose label matches this regular expression. */
    calls: new RegExp(process.env.BENCH_CALLS ?? "", "i"),
    /** Leave the database behind (for EXPLAIN by hand); the run prints its URL. */
    keep: process.env.BENCH_KEEP_DATABASE === "1",
  };
  const measured: CompanyShape = {
    tickets: settings.tickets,
    messages: settings.messages,
    contacts: settings.contacts,
    queues: 5,
    agents: 20,
    tags: 12,
    heavyTickets: 10,
    heavyMessages: Math.min(defaults.heavyMessagesMax, Math.floor(settings.messages / 200)),
  };
  const other: CompanyShape = {
    tickets: Math.ceil(settings.tickets / 50),
    messages: Math.ceil(settings.messages / 50),
    contacts: Math.ceil(settings.contacts / 50),
    queues: 3,
    agents: 5,
    tags: 6,
    heavyTickets: 0,
    heavyMessages: 0,
  };
  const session: SessionOptions = {
    poolSize: settings.poolSize,
    logLevel: settings.logLevel,
    keep: settings.keep,
    measured,
    others: { count: settings.otherCompanies, shape: other },
  };
  return { settings, measured, other, session };
}

let interrupted = false;

/** Throws once Ctrl-C was pressed, so a long loop stops and the cleanup runs. */
export function checkInterrupted(): void {
  if (interrupted) throw new Error("interrupted");
}

export async function withWorkspace(
  opts: SessionOptions,
  run: (session: WorkspaceSession) => Promise<void>,
): Promise<void> {
  await idleCheck();
  const database = await createScratchDatabase("atende_bench");
  console.log(`database ${database.name} on ${new URL(serverUrl()).host}`);
  let server: RunningServer | null = null;
  let db: pg.Client | null = null;
  let postgres: PostgresCpu | null = null;
  const cleanup = async () => {
    const c = db;
    db = null;
    await c?.end().catch(() => undefined);
    const p = postgres;
    postgres = null;
    await p?.close().catch(() => undefined);
    const s = server;
    server = null;
    await s?.stop().catch((err) => console.error("stopping the server failed:", err));
    if (opts.keep && !interrupted) {
      console.log(`\nkept (BENCH_KEEP_DATABASE=1): ${database.url}; drop it with: dropdb ${database.name}`);
      return;
    }
    await database.drop().catch((err) => console.error(`dropping ${database.name} failed:`, err));
  };
  process.once("SIGINT", () => {
    console.error("\ninterrupted: cleaning up");
    interrupted = true;
    const giveUp = new Promise((resolve) => setTimeout(resolve, 15_000));
    void Promise.race([cleanup(), giveUp])
      .then(() => database.forceDrop())
      .catch((err) => console.error(`dropping ${database.name} failed:`, err))
      .finally(() => process.exit(130));
  });

  try {
    server = await startServer({
      databaseUrl: database.url,
      poolSize: opts.poolSize,
      logLevel: opts.logLevel,
      profile: false,
    });
    const info = server.info;
    console.log("\nLoading (SQL in the database, not through the API)");
    const loadStarted = performance.now();
    const ws = await loadWorkspace(
      database.url,
      {
        companyId: info.companyId,
        whatsappId: info.whatsappId,
        queueId: info.queueId,
        agentId: info.agentId,
      },
      opts.measured,
      opts.others,
      (line) => {
        checkInterrupted();
        console.log(`  ${line}`);
      },
    );
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    postgres = await PostgresCpu.open(database.url, database.name);
    await run({ info, ws, db, postgres, loadSeconds });
  } finally {
    await cleanup();
  }
}

/** Runs a bench's main: exit 0 when done, 1 on an error (after Ctrl-C, the SIGINT handler exits). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      if (interrupted) return;
      console.error(err);
      process.exit(1);
    },
  );
}
