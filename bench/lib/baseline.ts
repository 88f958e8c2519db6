import { performance } from "node:perf_hooks";
import pg from "pg";
import { type PostgresCpu, threadCpuMs } from "./cpu.js";

/** The columns the inbound pipeline writes for a message, in the order the baseline inserts them. */
const COLUMNS = [
  "company_id",
  "ticket_id",
  "contact_id",
  "whatsapp_id",
  "wid",
  "body",
  "from_me",
  "read",
  "ack",
  "media_type",
  "media_path",
  "media_mime",
  "media_name",
  "quoted_msg_id",
  "participant",
  "is_forwarded",
  "created_at",
  "updated_at",
] as const;

export interface BaselineResult {
  /** How long the database took to settle before the baseline (see settle). */
  settleMs: number;
  rows: number;
  clients: number;
  wallMs: number;
  rowsPerSecond: number;
  /** Per INSERT (its own transaction: INSERT + COMMIT in one autocommit statement), ms. */
  latencies: number[];
  /** CPU ms of PostgreSQL's backends and of this thread during the timed inserts. */
  cpu: { postgres: number; client: number };
}

/**
 * Lets the work phase A left behind finish before the baseline is timed, so it is charged to
 * neither: the server's due jobs (the bot's last turns) drained (up to 15 s), then the vacuum of
 * the rows phase A updated and inserted done now (VACUUM ANALYZE), instead of an autovacuum worker
 * doing it on the same cores in the middle of the baseline. Answers the milliseconds it took.
 */
async function settle(db: pg.Client): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 15_000) {
    const { rows } = await db.query<{ due: number }>(
      "select count(*)::int as due from jobs where status in ('pending', 'running') and run_at <= now()",
    );
    if (rows[0]!.due === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await db.query("vacuum (analyze) messages, tickets, contacts, simulator_messages, jobs");
  return performance.now() - started;
}

/**
 * The raw rate of the database for the pipeline's essential write: each of the given message rows
 * inserted alone, in its own transaction (one autocommit INSERT, so one COMMIT and one WAL flush),
 * by `clients` concurrent connections, into `bench_messages`: a copy of `messages` with the same
 * columns, defaults and indexes (LIKE ... INCLUDING ALL; foreign keys are not copied).
 */
export async function rawInsertBaseline(
  databaseUrl: string,
  sourceWhere: string,
  clients: number,
  postgres: PostgresCpu,
): Promise<BaselineResult> {
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  const pool: pg.Client[] = [];
  try {
    const settleMs = await settle(setup);
    await setup.query("drop table if exists bench_messages");
    await setup.query("create table bench_messages (like messages including all)");
    const { rows } = await setup.query<Record<string, unknown>>(
      `select ${COLUMNS.join(", ")} from messages where ${sourceWhere} order by id`,
    );
    if (rows.length === 0) throw new Error("the baseline found no message rows to copy");
    const insert = {
      name: "bench_insert",
      text: `insert into bench_messages (${COLUMNS.join(", ")}) values (${COLUMNS.map((_, i) => `$${i + 1}`).join(", ")})`,
    };
    for (let i = 0; i < clients; i++) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      pool.push(client);
    }
    const latencies: number[] = [];
    let next = 0;
    const pgCpu = await postgres.start();
    const clientCpu = threadCpuMs();
    const started = performance.now();
    await Promise.all(
      pool.map(async (client) => {
        while (next < rows.length) {
          const row = rows[next++]!;
          const t0 = performance.now();
          await client.query({ ...insert, values: COLUMNS.map((c) => row[c]) });
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const wallMs = performance.now() - started;
    const cpu = { client: threadCpuMs() - clientCpu, postgres: await pgCpu.stop() };
    return {
      settleMs,
      rows: rows.length,
      clients,
      wallMs,
      rowsPerSecond: (rows.length / wallMs) * 1000,
      latencies,
      cpu,
    };
  } finally {
    await Promise.all(pool.map((c) => c.end().catch(() => undefined)));
    await setup.query("drop table if exists bench_messages").catch(() => undefined);
    await setup.end();
  }
}
