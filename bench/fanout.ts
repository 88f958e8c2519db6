import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { type Socket, io } from "socket.io-client";
import { companyEvent } from "@atende/contracts";
import { TokenService } from "../server/src/http/tokens.js";
import { createScratchDatabase } from "./lib/db.js";
import { intEnv } from "./lib/env.js";
import { idleCheck } from "./lib/machine.js";
import type { ThreadMemory } from "./lib/memory.js";
import { type ServerHandle, launchServer } from "./lib/serverHost.js";
import { machineCpu, ms, pct, printTable, summarize } from "./lib/stats.js";

/**
 * bench/fanout (issue 19, item 6): how long one ticket update takes to reach the last of 1,000
 * agent sockets of one company, through the real server path (PUT /tickets/{id} → service →
 * PostgreSQL → event bus → Socket.IO rooms), against a bare Socket.IO server emitting the same
 * payload to as many sockets from the same client process, in the same run; then two instances
 * behind Redis with half the sockets on each. Prints figures; never fails on a goal.
 */

const SOCKETS = intEnv("BENCH_FANOUT_SOCKETS", 1000);
const EVENTS = intEnv("BENCH_FANOUT_EVENTS", 50);
const WARMUP = intEnv("BENCH_FANOUT_WARMUP", 5);
const CONNECT_BATCH = intEnv("BENCH_FANOUT_CONNECT_BATCH", 50);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const WITH_REDIS = process.env.BENCH_FANOUT_REDIS !== "0";
const GOAL_P99_MS = 200;
const GOAL_RATIO = 3;
/** The secret lib/server.ts signs with: the bench signs its agents' access tokens with it too. */
const SECRET = "bench-secret-".padEnd(48, "x");

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/**
 * Many sockets of one client process. Each round waits for one matching event on every socket and
 * answers when the last one arrived.
 */
class Fleet {
  readonly sockets: Socket[] = [];
  /** Every event any socket received but "ready" (presence updates included): quiet when it stops moving. */
  received = 0;
  private round = 0;
  private seen: number[] = [];
  private arrived = 0;
  private finish: ((at: number) => void) | null = null;

  constructor(
    private readonly event: string,
    private readonly matches: (payload: unknown) => boolean,
  ) {}

  async connect(url: string, tokens: (string | null)[]): Promise<void> {
    for (let i = 0; i < tokens.length; i += CONNECT_BATCH)
      await Promise.all(tokens.slice(i, i + CONNECT_BATCH).map((token) => this.open(url, token)));
  }

  private open(url: string, token: string | null): Promise<void> {
    const index = this.sockets.length;
    this.seen.push(0);
    return new Promise((resolve, reject) => {
      const socket = io(url, {
        auth: token ? { token } : {},
        transports: ["websocket"],
        reconnection: false,
        forceNew: true,
      });
      this.sockets.push(socket);
      // Not its own "ready": what the socket is told by the company, not the handshake's end.
      socket.onAny((name: string) => {
        if (name !== "ready") this.received++;
      });
      socket.on(this.event, (payload: unknown) => {
        const at = performance.now();
        if (!this.matches(payload) || this.seen[index] === this.round) return;
        this.seen[index] = this.round;
        if (++this.arrived === this.sockets.length) this.finish?.(at);
      });
      const timer = setTimeout(() => reject(new Error(`socket ${index} not ready in 30 s`)), 30_000);
      socket.on("ready", () => {
        clearTimeout(timer);
        resolve();
      });
      socket.on("connect_error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  /** Runs `raise` and answers the ms from its start until the last socket had the event. */
  async measure(raise: () => Promise<void>): Promise<number> {
    this.round++;
    this.arrived = 0;
    const done = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`only ${this.arrived} of ${this.sockets.length} sockets got the event in 30 s`)),
        30_000,
      );
      this.finish = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
    const started = performance.now();
    await raise();
    return (await done) - started;
  }

  /** Waits until no socket has received anything for `quietMs` (the connections' presence updates). */
  async settle(quietMs = 1000, maxMs = 120_000): Promise<void> {
    const until = Date.now() + maxMs;
    let last = -1;
    while (last !== this.received && Date.now() < until) {
      last = this.received;
      await sleep(quietMs);
    }
  }

  close(): void {
    for (const s of this.sockets) s.close();
  }
}

async function rounds(fleet: Fleet, raise: (i: number) => Promise<void>) {
  for (let i = 0; i < WARMUP; i++) {
    await fleet.measure(() => raise(i));
    await sleep(20);
  }
  const times: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    times.push(await fleet.measure(() => raise(WARMUP + i)));
    await sleep(20);
  }
  return summarize(times);
}

async function call(url: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as { id: number };
}

/** The bare Socket.IO server in its own thread (lib/bareWorker.ts). */
async function launchBare() {
  const tsx = import.meta.resolve("tsx/esm/api");
  const entry = new URL("./lib/bareWorker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  const worker = new Worker(boot, { eval: true });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const on = (msg: Record<string, unknown>) => {
        if (msg.type !== type) return;
        worker.off("message", on);
        resolve(msg);
      };
      worker.on("message", on);
      worker.once("error", reject);
    });
  const url = (await next("ready")).url as string;
  return {
    url,
    async memory() {
      const answer = next("memory");
      worker.postMessage({ type: "memory" });
      return (await answer).memory as ThreadMemory;
    },
    async stop() {
      const answer = next("stopped");
      worker.postMessage({ type: "stop" });
      await Promise.race([answer, sleep(5_000)]);
      await worker.terminate();
    },
  };
}

/**
 * One more socket (the admin's), outside the fleet: counts the `company-{id}-user` events it hears
 * and which of `agentIds` it heard come online.
 */
function openWatcher(url: string, token: string, event: string, agentIds: Set<number>) {
  const socket = io(url, { auth: { token }, transports: ["websocket"], reconnection: false, forceNew: true });
  const watcher = { socket, events: 0, agentsOnline: new Set<number>() };
  socket.on(event, (payload: { action?: string; user?: { id?: number; online?: boolean } }) => {
    watcher.events++;
    const id = payload.user?.id;
    if (payload.action === "update" && payload.user?.online && id !== undefined && agentIds.has(id))
      watcher.agentsOnline.add(id);
  });
  return new Promise<typeof watcher>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the admin's socket not ready in 30 s")), 30_000);
    socket.on("ready", () => {
      clearTimeout(timer);
      resolve(watcher);
    });
    socket.on("connect_error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

const perSocket = (before: ThreadMemory, after: ThreadMemory, n: number) =>
  `${((after.heapUsed - before.heapUsed) / n / 1024).toFixed(1)} KiB heap + ${((after.external - before.external) / n / 1024).toFixed(1)} KiB external`;

async function main() {
  await idleCheck();
  const scratch = await createScratchDatabase("atende_bench_fanout");
  const servers: ServerHandle[] = [];
  const fleets: Fleet[] = [];
  let bare: Awaited<ReturnType<typeof launchBare>> | null = null;
  const cleanUp = async () => {
    for (const f of fleets) f.close();
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    await bare?.stop().catch(() => undefined);
    await scratch.forceDrop().catch(() => undefined);
  };
  process.once("SIGINT", () => void cleanUp().then(() => process.exit(130)));
  const busy = machineCpu();
  try {
    const opts = {
      databaseUrl: scratch.url,
      poolSize: intEnv("BENCH_POOL_SIZE", 10),
      logLevel: process.env.BENCH_LOG_LEVEL ?? "error",
      profile: false,
    };
    const app = await launchServer(opts, "thread");
    servers.push(app);
    const { url, companyId, whatsappId, queueId, adminToken, agentId } = app.info;

    // SOCKETS agents in the queue, each with a live session, their access tokens signed as login does.
    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const { rows: agents } = await db.query<{ id: number }>(
      `insert into users (company_id, name, email, password_hash, profile)
       select $1::int, 'Fanout ' || i, 'fanout-' || i || '@bench.local',
              (select password_hash from users where id = $2), 'user'
       from generate_series(1, $3::int) i returning id`,
      [companyId, agentId, SOCKETS],
    );
    const ids = agents.map((a) => a.id);
    await db.query(
      `insert into user_queues (user_id, queue_id, company_id) select unnest($1::int[]), $2, $3`,
      [ids, queueId, companyId],
    );
    const { rows: sessions } = await db.query<{ user_id: number; session_id: string }>(
      `insert into refresh_tokens (company_id, user_id, session_id, token_hash, expires_at)
       select $1, u, gen_random_uuid(), md5(random()::text || u), now() + interval '1 day'
       from unnest($2::int[]) u returning user_id, session_id`,
      [companyId, ids],
    );
    // The update the bench raises flips the ticket's useIntegration, a field gated by the plan's flag.
    await db.query(
      `update plans set use_integrations = true where id = (select plan_id from companies where id = $1)`,
      [companyId],
    );
    await db.end();
    const signer = new TokenService(SECRET, "1h");
    const tokens = await Promise.all(
      sessions.map((s) => signer.sign({ userId: s.user_id, companyId, sessionId: s.session_id })),
    );

    const contact = await call(url, "POST", "/contacts", adminToken, {
      name: "Fanout customer",
      number: "5511987650999",
    });
    const ticket = await call(url, "POST", "/tickets", adminToken, {
      contactId: contact.id,
      whatsappId,
      queueId,
      status: "open",
    });
    const ticketEvent = companyEvent(companyId, "ticket");
    const isUpdate = (p: unknown) => {
      const payload = p as { action?: string; ticket?: { id?: number } };
      return payload.action === "update" && payload.ticket?.id === ticket.id;
    };
    const raiseUpdate = (serverUrl: string) => (i: number) =>
      call(serverUrl, "PUT", `/tickets/${ticket.id}`, adminToken, { useIntegration: i % 2 === 0 }).then(
        () => undefined,
      );
    // The payload the sockets get for an update: the ticket as PUT answers it.
    const updated = await call(url, "PUT", `/tickets/${ticket.id}`, adminToken, { useIntegration: false });
    const body = JSON.stringify({ action: "update", ticket: updated });

    // ---- The bare Socket.IO server first (the app's server idle beside it): the same payload, as
    // many sockets, from this same process.
    bare = await launchBare();
    const bareMemBefore = await bare.memory();
    const bareFleet = new Fleet("bare", isUpdate);
    fleets.push(bareFleet);
    await bareFleet.connect(
      bare.url,
      tokens.map(() => null),
    );
    await bareFleet.settle(500);
    const bareMemAfter = await bare.memory();
    const bareUrl = bare.url;
    const bareRun = await rounds(bareFleet, async () => {
      const res = await fetch(`${bareUrl}/emit?event=bare`, { method: "POST", body });
      await res.arrayBuffer();
    });
    bareFleet.close();
    await bare.stop();
    bare = null;

    // ---- One instance. The admin watches too (outside the fleet, not timed): the users page and the
    // dashboard show who is online, so the admin must hear every agent come online.
    const watcher = await openWatcher(url, adminToken, companyEvent(companyId, "user"), new Set(ids));
    const memBefore = await app.memory();
    const fleet = new Fleet(ticketEvent, isUpdate);
    fleets.push(fleet);
    const connectStart = performance.now();
    await fleet.connect(url, tokens);
    const connectMs = performance.now() - connectStart;
    await fleet.settle();
    // What the agents' sockets heard while connecting and until quiet: presence updates (each agent
    // hears its own; the colleagues' go to whoever may see presence).
    const connectEvents = fleet.received;
    const adminHeard = watcher.agentsOnline.size;
    const adminEvents = watcher.events;
    watcher.socket.close();
    const memAfter = await app.memory();
    const single = await rounds(fleet, raiseUpdate(url));
    fleet.close();
    await sleep(500);

    // ---- Two instances behind Redis, half of the sockets on each; the update raised on the first.
    let redis: ReturnType<typeof summarize> | null = null;
    let redisError = "";
    if (WITH_REDIS) {
      try {
        await app.stop();
        servers.splice(servers.indexOf(app), 1);
        const a = await launchServer({ ...opts, redisUrl: REDIS_URL, seed: false }, "thread");
        servers.push(a);
        const b = await launchServer({ ...opts, redisUrl: REDIS_URL, seed: false }, "thread");
        servers.push(b);
        const pair = new Fleet(ticketEvent, isUpdate);
        fleets.push(pair);
        const half = Math.ceil(tokens.length / 2);
        await pair.connect(a.info.url, tokens.slice(0, half));
        await pair.connect(b.info.url, tokens.slice(half));
        await pair.settle();
        redis = await rounds(pair, raiseUpdate(a.info.url));
        pair.close();
      } catch (err) {
        redisError = err instanceof Error ? err.message : String(err);
      }
    }

    const ratio = single.p99 / bareRun.p99;
    const met = single.p99 <= GOAL_P99_MS && ratio <= GOAL_RATIO;
    printTable(
      `bench/fanout: ${SOCKETS} agent sockets of one company, ${EVENTS} ticket updates (after ${WARMUP} warm-up)`,
      [
        ["connecting the sockets", `${(connectMs / 1000).toFixed(1)} s (${CONNECT_BATCH} at a time)`],
        ["socket events heard while connecting (presence)", `${connectEvents}`],
        [
          "admin's socket: agents heard coming online / user events",
          `${adminHeard} of ${SOCKETS} / ${adminEvents}`,
        ],
        [
          "app, one instance: PUT → last socket p50 / p99 / max",
          `${ms(single.p50)} / ${ms(single.p99)} / ${ms(single.max)}`,
        ],
        [
          "bare Socket.IO: POST → last socket p50 / p99 / max",
          `${ms(bareRun.p50)} / ${ms(bareRun.p99)} / ${ms(bareRun.max)}`,
        ],
        ["app p99 ÷ bare p99", `${ratio.toFixed(2)}×`],
        [
          "two instances + Redis (half on each) p50 / p99 / max",
          redis
            ? `${ms(redis.p50)} / ${ms(redis.p99)} / ${ms(redis.max)}`
            : WITH_REDIS
              ? `failed: ${redisError}`
              : "skipped",
        ],
        ["server memory per connected socket (app)", perSocket(memBefore, memAfter, SOCKETS)],
        ["server memory per connected socket (bare)", perSocket(bareMemBefore, bareMemAfter, SOCKETS)],
        ["payload size", `${Buffer.byteLength(body)} bytes`],
        ["machine busy during the run", pct(busy.stop())],
        [`goal: p99 ≤ ${GOAL_P99_MS} ms and ≤ ${GOAL_RATIO}× bare`, met ? "MET" : "NOT MET"],
      ],
    );
    if (redisError) process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}

await main();
