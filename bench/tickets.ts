/**
 * bench/tickets: the agent workspace's hot reads over HTTP against the real app (GET /tickets for
 * each tab, deep pages, queue filters, show-all and text search; GET /tickets/{id}; GET
 * /messages/{ticketId}), as an admin and as a queue agent, on a company of 100,000 tickets and
 * 1,000,000 messages among nine other companies. Each call is set against a bare SELECT by primary
 * key of the very rows it answered, timed in the same run. Prints figures, goal checks and, for a
 * missed goal, EXPLAIN (ANALYZE, BUFFERS) of the statements the call ran; exits non-zero only on
 * errors, never on a missed goal.
 *
 *   node --import tsx bench/tickets.ts      (npm run bench:tickets -w bench)
 */
import { performance } from "node:perf_hooks";
import type pg from "pg";
import { type Explained, captureStatements, explainReads } from "./lib/capture.js";
import { type PostgresCpu, threadCpuMs } from "./lib/cpu.js";
import { intEnv } from "./lib/env.js";
import { checkInterrupted, runBench, withWorkspace, workspaceSettings } from "./lib/session.js";
import { ms, printColumns, summarize } from "./lib/stats.js";
import { type Call, Client, type Kind, buildCalls, matchesOf, rowsOf } from "./lib/workspaceCalls.js";

const { settings, measured, other, session } = workspaceSettings({
  messages: 1_000_000,
  callSeconds: 15,
  heavyMessagesMax: 5000,
});
const deepPage = intEnv("BENCH_DEEP_PAGE", 100);
const olderMessagesPage = intEnv("BENCH_OLDER_PAGE", 50);

/**
 * Issue 4: p95 ≤ 20 ms for the list and messages, ≤ 150 ms for search.
 * GET /tickets/{id} is held to the list's (the issue names no goal for it).
 */
const GOAL_P95_MS: Record<Kind, number> = { list: 20, ticket: 20, messages: 20, search: 150 };

interface Measured {
  call: Call;
  matches: number;
  times: number[];
  baseline: number[];
  rows: number;
  /**
   * CPU ms per request of this thread (the server and the HTTP client) and of PostgreSQL's
   * backends: unlike wall time, it hardly grows when other work takes the cores away.
   */
  cpu: { node: number; postgres: number };
}

const n = (v: number) => v.toLocaleString("en");

/** Times one call, then a bare SELECT by primary key of the same rows, as many times. */
async function measure(client: Client, db: pg.Client, postgres: PostgresCpu, call: Call): Promise<Measured> {
  for (let i = 0; i < 3; i++) await client.get(call.who, call.paths[i % call.paths.length]!);
  const times: number[] = [];
  const pgCpu = await postgres.start();
  const nodeCpu = threadCpuMs();
  const answered: { table: string; ids: number[] }[] = [];
  let matches = 0;
  const until = performance.now() + settings.callSeconds * 1000;
  for (let i = 0; i < settings.iterations && (i < 20 || performance.now() < until); i++) {
    checkInterrupted();
    const { ms: elapsed, body } = await client.get(call.who, call.paths[i % call.paths.length]!);
    times.push(elapsed);
    answered.push(rowsOf(call.kind, body));
    if (i === 0) matches = matchesOf(call.kind, body);
  }
  const cpu = {
    node: (threadCpuMs() - nodeCpu) / times.length,
    postgres: (await pgCpu.stop()) / times.length,
  };
  const baseline: number[] = [];
  for (const { table, ids } of answered) {
    const started = performance.now();
    await db.query(`select * from ${table} where id = any($1)`, [ids]);
    baseline.push(performance.now() - started);
  }
  return { call, matches, times, baseline, rows: answered[0]?.ids.length ?? 0, cpu };
}

async function measureAll(client: Client, db: pg.Client, postgres: PostgresCpu, calls: Call[]) {
  const results: Measured[] = [];
  for (const call of calls) {
    checkInterrupted();
    const r = await measure(client, db, postgres, call);
    const s = summarize(r.times);
    console.log(
      `  ${call.who} · ${call.label}: p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  (${r.times.length} requests)`,
    );
    results.push(r);
  }
  return results;
}

const met = (r: Measured) => summarize(r.times).p95 <= GOAL_P95_MS[r.call.kind];

const cpuMs = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "n/a");

function printResults(title: string, results: Measured[]) {
  if (!results.length) return;
  const header = [
    "who",
    "call",
    "matches",
    "rows",
    "p50",
    "p95",
    "p99",
    "PK SELECT p50",
    "× PK",
    "CPU node+pg",
    "goal p95",
    "",
  ];
  const lines = results.map((r) => {
    const t = summarize(r.times);
    const b = summarize(r.baseline);
    const goal = GOAL_P95_MS[r.call.kind];
    return [
      r.call.who,
      r.call.label,
      n(r.matches),
      String(r.rows),
      ms(t.p50),
      ms(t.p95),
      ms(t.p99),
      ms(b.p50),
      `${(t.p50 / b.p50).toFixed(0)}×`,
      `${cpuMs(r.cpu.node)}+${cpuMs(r.cpu.postgres)} ms`,
      `≤ ${goal} ms`,
      met(r) ? "MET" : "NOT MET",
    ];
  });
  const counts = results.map((r) => r.times.length);
  console.log(
    `\n${title}: ${Math.min(...counts)} to ${Math.max(...counts)} requests per call, one at a time. ` +
      "PK SELECT: the same rows by primary key (a bare SELECT ... WHERE id = any($1)); " +
      "CPU: per request, this thread (server and client) + PostgreSQL",
  );
  printColumns(header, lines, new Set([2, 3, 4, 5, 6, 7, 8, 9]));
  console.log(
    `Goals (issue 4: p95 ≤ ${GOAL_P95_MS.list} ms for the list, GET /tickets/{id} and messages, ≤ ${GOAL_P95_MS.search} ms for search): ` +
      `${results.filter(met).length} of ${results.length} MET`,
  );
}

/** The same calls before and after BENCH_TRY_SQL, measured in one run. */
function printComparison(before: Measured[], after: Measured[]) {
  const lines = before.map((b, i) => {
    const a = after[i]!;
    const tb = summarize(b.times);
    const ta = summarize(a.times);
    return [
      b.call.who,
      b.call.label,
      `${ms(tb.p50)} → ${ms(ta.p50)}`,
      `${ms(tb.p95)} → ${ms(ta.p95)}`,
      `${cpuMs(b.cpu.postgres)} → ${cpuMs(a.cpu.postgres)} ms`,
      `${met(b) ? "MET" : "NOT MET"} → ${met(a) ? "MET" : "NOT MET"}`,
    ];
  });
  console.log("\nBefore → after BENCH_TRY_SQL");
  printColumns(["who", "call", "p50", "p95", "PostgreSQL CPU/request", "goal"], lines, new Set([2, 3, 4]));
}

const oneLine = (sql: string, max = 400) => {
  const flat = sql.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)} …` : flat;
};
const showValues = (values: unknown[]) =>
  values.length
    ? `  [${values.map((v, i) => `$${i + 1}=${oneLine(JSON.stringify(v) ?? "null", 60)}`).join(", ")}]`
    : "";

/** For each missed goal: the statements the call runs, their time alone, and the plans of the slowest. */
async function explainMisses(client: Client, db: pg.Client, results: Measured[]) {
  const shown = new Map<string, string>();
  const misses = results.filter((r) => !met(r));
  if (!misses.length) return;
  console.log(
    "\nPlans of the calls that missed their goal (EXPLAIN (ANALYZE, BUFFERS), each statement run alone)",
  );
  for (const r of misses) {
    checkInterrupted();
    const label = `${r.call.who} · ${r.call.label}`;
    const path = r.call.paths[0]!;
    const statements = await captureStatements(() => client.get(r.call.who, path));
    const reads = await explainReads(db, statements);
    const total = reads.reduce((sum, e) => sum + e.executionMs + e.planningMs, 0);
    console.log(
      `\n■ ${label}: p95 ${ms(summarize(r.times).p95)} (goal ${GOAL_P95_MS[r.call.kind]} ms), GET ${path}\n` +
        `  ${statements.length} statements during one request (a background job's among them, if one ran), ` +
        `${reads.length} reads taking ${ms(total)} run alone (planning + execution)`,
    );
    const slow = reads.filter((x, i) => i < 3 && x.executionMs >= 1);
    if (!slow.length)
      console.log(
        "  no statement takes 1 ms alone: the time goes to round trips and the server's own work (CPU node)",
      );
    for (const e of slow) printPlan(e, label, shown);
  }
}

function printPlan(e: Explained, label: string, shown: Map<string, string>) {
  const key = e.text;
  const seen = shown.get(key);
  console.log(
    `  ${ms(e.executionMs)} execution, ${ms(e.planningMs)} planning: ${oneLine(e.text)}${showValues(e.values)}`,
  );
  if (seen) {
    console.log(`    (the same statement's plan is shown under ${seen})`);
    return;
  }
  shown.set(key, label);
  const plan = e.plan.filter((l) => !/^(Planning|Execution) Time/.test(l));
  for (const l of plan.slice(0, 30)) console.log(`    ${l}`);
  if (plan.length > 30) console.log(`    … ${plan.length - 30} more lines`);
}

async function main() {
  console.log(
    `bench/tickets: ${n(measured.tickets)} tickets, ${n(measured.messages)} messages, ${n(measured.contacts)} contacts in one company, ` +
      `${settings.otherCompanies} other companies of ${n(other.tickets)} tickets and ${n(other.messages)} messages; ` +
      `${settings.iterations} requests per call (at most ${settings.callSeconds} s each), pool ${settings.poolSize}.`,
  );
  await withWorkspace(session, async ({ info, ws, db, postgres, loadSeconds }) => {
    const t = ws.totals;
    console.log(
      `loaded in ${loadSeconds.toFixed(0)} s: ${t.companies} companies, ${n(t.tickets)} tickets, ${n(t.messages)} messages, ${n(t.contacts)} contacts in all`,
    );
    console.log(
      `  search terms: "${ws.search.word}" is in ${n(ws.search.wordMessages)} of the company's messages, ` +
        `"${ws.search.commonWord}" in ${n(ws.search.commonWordMessages)}`,
    );

    const client = new Client(info.url, { admin: ws.adminEmail, agent: ws.agentEmail });
    const calls = (await buildCalls(client, ws, { deep: deepPage, olderMessages: olderMessagesPage })).filter(
      (c) => settings.calls.test(`${c.who} · ${c.label}`),
    );
    console.log(`\nMeasuring ${calls.length} calls`);
    let results = await measureAll(client, db, postgres, calls);
    printResults("Results", results);
    if (settings.trySql) {
      const started = performance.now();
      await db.query(settings.trySql);
      console.log(
        `\nBENCH_TRY_SQL run in ${((performance.now() - started) / 1000).toFixed(1)} s: ${oneLine(settings.trySql)}\n` +
          `Measuring the ${calls.length} calls again`,
      );
      const after = await measureAll(client, db, postgres, calls);
      printResults("Results after BENCH_TRY_SQL", after);
      printComparison(results, after);
      results = after;
    }
    console.log(`\nLoad time: ${loadSeconds.toFixed(0)} s`);
    await explainMisses(client, db, results);
  });
}

runBench(main);
