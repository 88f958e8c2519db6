/**
 * bench/inbound: customers' messages through the simulator API → inbound pipeline → PostgreSQL →
 * the agent's socket, against a raw INSERT + COMMIT baseline measured in the same run on the same
 * database. Prints figures and goal checks; exits non-zero only on errors, never on a missed goal.
 *
 *   node --import tsx bench/inbound.ts      (npm run bench:inbound -w bench)
 */
import os from "node:os";
import { type EventLoopUtilization, performance } from "node:perf_hooks";
import { AgentSocket } from "./lib/agent.js";
import { rawInsertBaseline } from "./lib/baseline.js";
import { PostgresCpu, threadCpuMs } from "./lib/cpu.js";
import { createScratchDatabase, serverUrl } from "./lib/db.js";
import { addHistory } from "./lib/history.js";
import { type Message, type PhaseResult, Phones } from "./lib/load.js";
import type { ServerProfile } from "./lib/server.js";
import { type ServerHandle, launchServer } from "./lib/serverHost.js";
import { machineCpu, ms, pct, printTable, rate, summarize } from "./lib/stats.js";
import { startWebhookReceiver } from "./lib/webhookReceiver.js";

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

const settings = {
  contacts: intEnv("BENCH_CONTACTS", 50),
  // 50 × 100: 5,000 messages, about 2.5 s, and a 0.7 s baseline. At 50 × 40 both phases lasted
  // about a second, mostly the new conversations' first second (their tickets, the bot's first
  // turns, the JIT): the same tree measured 0.20 to 0.26 in consecutive runs (bench/README.md).
  messagesPerContact: intEnv("BENCH_MESSAGES", 100),
  rate: intEnv("BENCH_RATE", 500),
  seconds: intEnv("BENCH_SECONDS", 10),
  rawClients: intEnv("BENCH_RAW_CLIENTS", 32),
  warmup: intEnv("BENCH_WARMUP", 200),
  /** Earlier customers of the company, each with a closed ticket (lib/history.ts); none by default. */
  historyContacts: process.env.BENCH_HISTORY_CONTACTS ? intEnv("BENCH_HISTORY_CONTACTS", 0) : 0,
  /** Phase A stops sending after this long, so a slow server cannot stretch the run past a few minutes. */
  maxSecondsA: intEnv("BENCH_MAX_SECONDS", 60),
  /** Phase B's cap on requests open at once (each holds an HTTP connection). */
  maxInflight: intEnv("BENCH_MAX_INFLIGHT", 256),
  /** The server's pool, as main.ts opens it (openPostgres' default of 10) unless set. */
  poolSize: intEnv("BENCH_POOL_SIZE", 10),
  where: process.env.BENCH_SERVER === "inline" ? ("inline" as const) : ("thread" as const),
  profile: process.env.BENCH_PROFILE === "1" || Boolean(process.env.BENCH_CPU_PROFILE),
  /** A directory for V8 CPU profiles of the server's thread, one per phase (implies BENCH_PROFILE). */
  cpuProfileDir: process.env.BENCH_CPU_PROFILE || undefined,
  /** With BENCH_CPU_PROFILE: a sampling heap profile per phase too (1, promoted or live; lib/server.ts). */
  heapProfile: process.env.BENCH_HEAP_PROFILE || undefined,
  logLevel: process.env.BENCH_LOG_LEVEL ?? "warn",
};

/** Set by Ctrl-C: the phases stop, the run cleans up, and the SIGINT handler exits. */
let interrupted = false;
const checkInterrupted = () => {
  if (interrupted) throw new Error("interrupted");
};

const GOAL_RATIO = 0.25;
const GOAL_P99_MS = 50;

interface Measured<R extends PhaseResult> {
  result: R;
  wallMs: number;
  serverElu: EventLoopUtilization;
  clientElu: EventLoopUtilization;
  /** How busy the whole machine was (0..1 of all cores). */
  machine: number;
  /** CPU ms used during the phase by the server's thread, the load generator's thread, and PostgreSQL's backends. */
  cpu: { server: number; serverKernel: number; client: number; postgres: number };
  profile: ServerProfile | null;
}

/** Runs one phase while measuring both event loops, their CPU time, PostgreSQL's, and the machine's. */
async function measure<R extends PhaseResult>(
  server: ServerHandle,
  postgres: PostgresCpu,
  run: () => Promise<R>,
): Promise<Measured<R>> {
  if (settings.profile) await server.resetProfile();
  const pgCpu = await postgres.start();
  const serverCpu = await server.cpu();
  const clientCpu = threadCpuMs();
  const serverStart = server.elu();
  const clientStart = performance.eventLoopUtilization();
  const machine = machineCpu();
  const result = await run();
  const busy = machine.stop();
  const serverElu = server.elu(serverStart);
  const clientElu = performance.eventLoopUtilization(clientStart);
  const serverCpuEnd = await server.cpu();
  const cpu = {
    server: serverCpuEnd.total - serverCpu.total,
    serverKernel: serverCpuEnd.kernel - serverCpu.kernel,
    client: threadCpuMs() - clientCpu,
    postgres: await pgCpu.stop(),
  };
  const profile = settings.profile ? await server.profile() : null;
  const wallMs = result.lastEventAt - result.firstSendAt;
  return { result, wallMs, serverElu, clientElu, machine: busy, cpu, profile };
}

function printProfile(title: string, profile: ServerProfile, messages: number) {
  const q = profile.queries;
  const rows: [string, string][] = [
    ["SQL statements per message", (q.statements / messages).toFixed(1)],
    [
      "pool acquisitions per message",
      `${(q.poolWaits / messages).toFixed(1)} (mean wait ${ms(q.poolWaitMs / Math.max(1, q.poolWaits))})`,
    ],
    [
      "server request time (Fastify)",
      `p50 ${ms(profile.requests.p50)}  p99 ${ms(profile.requests.p99)}  mean ${ms(profile.requests.mean)}`,
    ],
    [
      "inbound.handle time",
      `p50 ${ms(profile.inbound.p50)}  p99 ${ms(profile.inbound.p99)}  mean ${ms(profile.inbound.mean)}`,
    ],
  ];
  printTable(title, rows);
  console.log("  statements by total time (per message: count, mean round trip):");
  for (const s of q.byStatement.slice(0, 18)) {
    console.log(
      `    ${(s.count / messages).toFixed(2).padStart(5)}×  ${ms(s.totalMs / s.count).padStart(9)}  ${s.sql}`,
    );
  }
}

const busy = <R extends PhaseResult>(m: Measured<R>) =>
  `event loops: server ${pct(m.serverElu.utilization)}, client ${pct(m.clientElu.utilization)}; machine CPU ${pct(m.machine)}`;

const cpuMs = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : "n/a");
const cpuPer = <R extends PhaseResult>(m: Measured<R>) => {
  const n = Math.max(1, m.result.sent);
  const pg = `PostgreSQL ${cpuMs(m.cpu.postgres / n)}`;
  if (settings.where === "inline")
    return `server + load generator (one thread) ${cpuMs(m.cpu.server / n)} (kernel ${cpuMs(m.cpu.serverKernel / n)}), ${pg}`;
  return `server thread ${cpuMs(m.cpu.server / n)} (kernel ${cpuMs(m.cpu.serverKernel / n)}), ${pg}, load generator ${cpuMs(m.cpu.client / n)}`;
};

function outcome(result: PhaseResult): string {
  const bad = result.failed + result.lost;
  return bad === 0
    ? `${result.sent} sent, all answered 201 and seen on the agent's socket`
    : `${result.sent} sent, ${result.failed} failed, ${result.lost} never seen on the socket`;
}

/** How busy the machine is before the run: other work on a 2-core machine moves every figure. */
async function idleCheck(): Promise<number> {
  const cpu = machineCpu();
  await new Promise((r) => setTimeout(r, 1000));
  const busy = cpu.stop();
  const load = os.loadavg().map((l) => l.toFixed(1));
  console.log(
    `machine before the run: CPU ${pct(busy)} busy, load average ${load.join(" ")}, ${os.cpus().length} cores`,
  );
  if (busy > 0.25)
    console.log("  warning: other work is running on this machine; the figures below are disturbed by it.");
  return busy;
}

async function main() {
  console.log(
    `bench/inbound: ${settings.contacts} contacts × ${settings.messagesPerContact} messages, ` +
      `each phone sending its next once the last was answered; then ${settings.rate} msg/s for ${settings.seconds} s; ` +
      `baseline with ${settings.rawClients} clients. Server ${settings.where === "thread" ? "in its own thread" : "inline"}, ` +
      `pool ${settings.poolSize}${settings.profile ? ", profiling" : ""}.`,
  );
  await idleCheck();
  const database = await createScratchDatabase("atende_bench");
  console.log(`database ${database.name} on ${new URL(serverUrl()).host}`);
  let postgres: PostgresCpu | null = await PostgresCpu.open(database.url, database.name);
  let server: ServerHandle | null = null;
  let agent: AgentSocket | null = null;
  let stopLoad: () => void = () => undefined;
  const cleanup = async () => {
    stopLoad(); // closes the load generator's kept-alive connections
    agent?.close();
    agent = null;
    const s = server;
    server = null;
    await s?.stop().catch((err) => console.error("stopping the server failed:", err));
    const p = postgres;
    postgres = null;
    await p?.close().catch(() => undefined);
    await database.drop().catch((err) => console.error(`dropping ${database.name} failed:`, err));
  };
  process.once("SIGINT", () => {
    console.error("\ninterrupted: cleaning up");
    interrupted = true;
    stopLoad();
    const giveUp = new Promise((resolve) => setTimeout(resolve, 15_000));
    void Promise.race([cleanup(), giveUp])
      .then(() => database.forceDrop())
      .catch((err) => console.error(`dropping ${database.name} failed:`, err))
      .finally(() => process.exit(130));
  });

  const problems: string[] = [];
  const note = (phase: string, result: PhaseResult) => {
    if (result.failed || result.lost)
      problems.push(
        `${phase}: ${result.failed} sends failed, ${result.lost} socket events never came` +
          result.errors.map((e) => `\n    ${e}`).join(""),
      );
  };

  // The company subscribes an outbound webhook to its tickets and contacts (issue 40: the back
  // office's features stay on the path, and their cost is measured).
  // BENCH_WEBHOOK=0 leaves it out (to see what it costs).
  const webhooks = process.env.BENCH_WEBHOOK === "0" ? null : await startWebhookReceiver();
  try {
    server = await launchServer(
      {
        databaseUrl: database.url,
        poolSize: settings.poolSize,
        logLevel: settings.logLevel,
        profile: settings.profile,
        cpuProfileDir: settings.cpuProfileDir,
        heapProfile: settings.heapProfile,
        webhookUrl: webhooks?.url,
      },
      settings.where,
    );
    const info = server.info;
    if (settings.historyContacts > 0) {
      const t0 = performance.now();
      await addHistory(database.url, info.companyId, info.whatsappId, settings.historyContacts);
      console.log(
        `history: ${settings.historyContacts} earlier contacts with a closed ticket each ` +
          `(${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );
    }
    agent = await AgentSocket.connect(info.url, info.agentToken, info.companyId);
    const phones = new Phones(info, agent);
    stopLoad = () => phones.stop();

    // Warm-up: JIT, pools, prepared paths; its own contacts, so phase A still opens its tickets.
    if (settings.warmup > 0) {
      const warm: Message[] = Array.from({ length: settings.warmup }, (_, i) => ({
        contact: 900_000 + (i % 10),
        body: phones.body("W"),
      }));
      const w = await phones.closedLoop(warm, 8);
      checkInterrupted();
      note("warm-up", w);
      if (problems.length) throw new Error(problems.join("\n"));
    }

    // Phase A: throughput. Every contact is a phone sending its messages one after another (the
    // next once the last was answered), all contacts at once: N phones, N messages in flight.
    const phaseA: Message[][] = Array.from({ length: settings.contacts }, (_, c) =>
      Array.from({ length: settings.messagesPerContact }, () => ({ contact: c, body: phones.body("A") })),
    );
    const a = await measure(server, postgres, () => phones.perPhone(phaseA, settings.maxSecondsA * 1000));
    checkInterrupted();
    note("phase A", a.result);
    const aRate = (a.result.latencies.length / a.wallMs) * 1000;
    const aLat = summarize(a.result.latencies);
    const aHttp = summarize(a.result.httpLatencies);
    printTable(`Phase A: throughput (${a.result.sent} messages, ${settings.contacts} phones in flight)`, [
      ["messages/s (first send → last socket event)", rate(aRate, "msg")],
      ["wall time", `${(a.wallMs / 1000).toFixed(2)} s`],
      [
        "ingest → agent socket",
        `p50 ${ms(aLat.p50)}  p95 ${ms(aLat.p95)}  p99 ${ms(aLat.p99)}  max ${ms(aLat.max)}`,
      ],
      ["HTTP answer (201)", `p50 ${ms(aHttp.p50)}  p99 ${ms(aHttp.p99)}`],
      [
        "outcome",
        outcome(a.result) +
          (a.result.unsent ? `; ${a.result.unsent} not sent (stopped after ${settings.maxSecondsA} s)` : ""),
      ],
      ["CPU per message", cpuPer(a)],
      ["busy", busy(a)],
    ]);

    // Baseline: the same rows, raw, on the same database.
    const baseline = await rawInsertBaseline(
      database.url,
      `whatsapp_id = ${info.whatsappId} and body like 'bench:A:%'`,
      settings.rawClients,
      postgres,
    );
    const rawLat = summarize(baseline.latencies);
    const ratio = aRate / baseline.rowsPerSecond;
    printTable(`Baseline: single-row INSERT + COMMIT, ${baseline.clients} clients, phase A's rows`, [
      [
        "settled first",
        `${(baseline.settleMs / 1000).toFixed(1)} s (phase A's due jobs drained, VACUUM ANALYZE)`,
      ],
      ["rows/s", rate(baseline.rowsPerSecond, "row")],
      ["rows", String(baseline.rows)],
      ["per INSERT", `p50 ${ms(rawLat.p50)}  p99 ${ms(rawLat.p99)}`],
      [
        "CPU per row",
        `PostgreSQL ${cpuMs(baseline.cpu.postgres / baseline.rows)}, client ${cpuMs(baseline.cpu.client / baseline.rows)}`,
      ],
    ]);

    // Phase B: latency at a fixed rate, open loop, over the contacts whose tickets phase A opened.
    const b = await measure(server, postgres, () =>
      phones.openLoop(
        (i) => ({ contact: i % settings.contacts, body: phones.body("B") }),
        settings.rate,
        settings.seconds,
        settings.maxInflight,
      ),
    );
    checkInterrupted();
    note("phase B", b.result);
    const bSendSpan = (b.result.lastSendAt - b.result.firstSendAt) / 1000;
    const bRate = (b.result.sent - 1) / Math.max(bSendSpan, 1e-9);
    const bLat = summarize(b.result.latencies);
    const bHttp = summarize(b.result.httpLatencies);
    printTable(`Phase B: latency at ${settings.rate} msg/s for ${settings.seconds} s (open loop)`, [
      ["achieved send rate", rate(bRate, "msg")],
      [
        "ingest → agent socket",
        `p50 ${ms(bLat.p50)}  p95 ${ms(bLat.p95)}  p99 ${ms(bLat.p99)}  max ${ms(bLat.max)}`,
      ],
      ["HTTP answer (201)", `p50 ${ms(bHttp.p50)}  p99 ${ms(bHttp.p99)}`],
      [
        "requests open at once",
        `peak ${b.result.peakInflight}${b.result.capped ? ` (cap ${settings.maxInflight} reached: the sender waited ${b.result.capped}×)` : ""}`,
      ],
      [
        "outcome",
        outcome(b.result) +
          (b.result.unsent ? `; ${b.result.unsent} not sent (the window closed with the server behind)` : ""),
      ],
      ["CPU per message", cpuPer(b)],
      ["busy", busy(b)],
    ]);

    const ratioMet = ratio >= GOAL_RATIO;
    const rateHeld = bRate >= settings.rate * 0.95 && b.result.unsent === 0;
    const p99Met = bLat.p99 <= GOAL_P99_MS && rateHeld && b.result.failed + b.result.lost === 0;
    printTable("Goals", [
      [
        `messages/s ≥ ${GOAL_RATIO} × raw rows/s`,
        `${ratio.toFixed(3)} × (${aRate.toFixed(0)} / ${baseline.rowsPerSecond.toFixed(0)})  ${ratioMet ? "MET" : "NOT MET"}`,
      ],
      [
        `p99 ≤ ${GOAL_P99_MS} ms at ${settings.rate} msg/s`,
        `p99 ${ms(bLat.p99)} at ${bRate.toFixed(0)} msg/s  ${p99Met ? "MET" : "NOT MET"}${rateHeld ? "" : " (rate not held)"}`,
      ],
    ]);
    if (agent.unexpected) console.log(`\nnote: ${agent.unexpected} create events for unknown bodies`);
    if (webhooks)
      console.log(`\nwebhook deliveries received (ticket and contact events): ${webhooks.summary()}`);

    if (a.profile) printProfile("Profile of phase A (server thread)", a.profile, a.result.sent);
    if (b.profile) printProfile("Profile of phase B (server thread)", b.profile, b.result.sent);
    if (problems.length) throw new Error(`errors during the run:\n  ${problems.join("\n  ")}`);
  } finally {
    await cleanup();
    await webhooks?.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    if (interrupted) return; // the SIGINT handler finishes the cleanup and exits
    console.error(err);
    process.exit(1);
  },
);
