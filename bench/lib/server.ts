import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import type { LoginAnswer, WhatsappDetailDTO } from "@atende/contracts";
import { buildApp } from "../../server/src/app.js";
import { loadConfig } from "../../server/src/config.js";
import { openPostgres } from "../../server/src/db/client.js";
import type { Deps } from "../../server/src/deps.js";
import { EventBus } from "../../server/src/events/bus.js";
import { TokenService } from "../../server/src/http/tokens.js";
import { LocalMediaStore } from "../../server/src/storage/media.js";
import { TEST_PASSWORD, buildCompany, buildQueue, buildUser } from "../../server/src/test/factories.js";
import { type QueryProfile, installQueryProfile, queryProfile, resetQueryProfile } from "./profile.js";
import { type Summary, summarize } from "./stats.js";

export interface ServerOptions {
  databaseUrl: string;
  /** Connections in the server's pool; the server's own default (10) unless BENCH_POOL_SIZE says. */
  poolSize: number;
  logLevel: string;
  /** Count and time SQL statements, request handling and the inbound pipeline. */
  profile: boolean;
  /** Where to write a V8 CPU profile of the server's thread for each measured phase, if anywhere. */
  cpuProfileDir?: string;
  /** With cpuProfileDir: a V8 heap profile of the same phases too (BENCH_HEAP_PROFILE, see cpuProfiler). */
  heapProfile?: string;
  /** Socket.IO through Redis (several instances of one deployment); none by default. */
  redisUrl?: string;
  /** false: another instance of a deployment already set up (info then holds only `url`). */
  seed?: boolean;
  /**
   * The company's outbound webhook: a subscription to its tickets' and contacts' creation and its
   * tickets' close, delivered to this URL (a receiver of the benchmark's), so the dispatch and its
   * deliveries are paid on the path as a company that uses them pays them. None unless given.
   */
  webhookUrl?: string;
}

/** What the load generator needs to know about the running server. */
export interface ServerInfo {
  url: string;
  companyId: number;
  whatsappId: number;
  queueId: number;
  agentId: number;
  /** The admin plays the customers' phones through the simulator API (it needs `simulator:use`). */
  adminToken: string;
  /** The agent is in the connection's queue; the bench watches the agent's socket. */
  agentToken: string;
}

export interface ServerProfile {
  queries: QueryProfile;
  /** Server-side time of each POST /simulator/{id}/messages, from Fastify's request start to response. */
  requests: Summary;
  /** Time inside the inbound pipeline (`inbound.handle`) per message event. */
  inbound: Summary;
}

export interface RunningServer {
  info: ServerInfo;
  resetProfile(): Promise<void>;
  profile(): Promise<ServerProfile>;
  stop(): Promise<void>;
}

/** Which allocations a heap profile keeps (BENCH_HEAP_PROFILE). */
type HeapProfileKind = "all" | "promoted" | "live";

/** BENCH_HEAP_PROFILE: `1` or `all`, `promoted`, `live`; anything else is refused at once. */
function heapProfileKind(value: string | undefined): HeapProfileKind | null {
  if (!value) return null;
  if (value === "1" || value === "all") return "all";
  if (value === "promoted" || value === "live") return value;
  throw new Error(`BENCH_HEAP_PROFILE: 1, all, promoted or live, not ${value}`);
}

/**
 * V8's sampling profiler on the calling thread, one .cpuprofile file per phase; with a heap profile
 * kind, V8's sampling heap profiler beside it, one .heapprofile per phase (open both in Chrome
 * DevTools). `all`: every allocation, also those the garbage collector took back (where the
 * allocations, and so the scavenges, come from); `promoted`: those that lived long enough to reach
 * the old generation (died there, or still live: what the full collections pay for); `live`: what
 * is still held at the phase's end (a leak).
 */
function cpuProfiler(dir: string | undefined, heap: HeapProfileKind | null = null) {
  let session: Session | null = null;
  let phase = 0;
  return {
    async start() {
      if (!dir) return;
      session ??= new Session();
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
      if (heap) {
        await session.post("HeapProfiler.enable");
        // The two flags are V8's (Chromium 110+), newer than Node's typings of the protocol.
        await session.post("HeapProfiler.startSampling", {
          samplingInterval: 16_384,
          includeObjectsCollectedByMajorGC: heap !== "live",
          includeObjectsCollectedByMinorGC: heap === "all",
        } as { samplingInterval: number });
      }
    },
    async stop() {
      if (!dir || !session) return;
      const { profile } = await session.post("Profiler.stop");
      const sampled = heap ? (await session.post("HeapProfiler.stopSampling")).profile : null;
      session.disconnect();
      fs.mkdirSync(dir, { recursive: true });
      phase++;
      fs.writeFileSync(path.join(dir, `server-phase-${phase}.cpuprofile`), JSON.stringify(profile));
      if (sampled)
        fs.writeFileSync(path.join(dir, `server-phase-${phase}.heapprofile`), JSON.stringify(sampled));
    },
  };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Migrates the database, builds the whole app as main.ts does (Fastify + Socket.IO + channels + jobs),
 * listens on a random local port, seeds a company with an admin and an agent in the connection's
 * queue, and pairs a simulator connection the way a person does (create, scan the QR, CONNECTED).
 */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  if (opts.profile) installQueryProfile();
  const database = openPostgres(opts.databaseUrl, opts.poolSize);
  await database.migrate();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "atende-bench-"));
  const config = loadConfig({
    // Production, except where the benchmark's webhook receiver listens on loopback: only the
    // outbound guard (private addresses allowed) and the mailer (none sent here) read it.
    NODE_ENV: opts.webhookUrl ? "development" : "production",
    LOG_LEVEL: opts.logLevel,
    DATA_DIR: dataDir,
    DATABASE_URL: opts.databaseUrl,
    SEED_DEMO: "false",
    // A long run (10,000 campaign recipients on a loaded machine) outlasts the default 15 minutes.
    ACCESS_TOKEN_TTL: "24h",
    ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
    // The metrics are kept whether or not anyone scrapes them; a token makes /metrics answer too.
    METRICS_TOKEN: "bench-metrics-token-0123456789",
    // The benchmark's webhook receiver listens on loopback.
    ...(opts.webhookUrl ? { OUTBOUND_ALLOW_PRIVATE: "127.0.0.0/8" } : {}),
  });
  const deps: Deps = {
    config,
    database,
    db: database.db,
    tokens: new TokenService("bench-secret-".padEnd(48, "x"), config.ACCESS_TOKEN_TTL),
    bus: new EventBus(),
    now: () => new Date(),
    media: new LocalMediaStore(path.join(dataDir, "media"), config.MEDIA_MAX_BYTES),
  };
  const built = await buildApp(deps, { logger: { level: opts.logLevel } });
  const { app } = built;

  const profiler = cpuProfiler(opts.cpuProfileDir, heapProfileKind(opts.heapProfile));
  const requestTimes: number[] = [];
  const inboundTimes: number[] = [];
  if (opts.profile) {
    app.addHook("onResponse", async (req, reply) => {
      if (req.method === "POST" && req.url.endsWith("/messages")) requestTimes.push(reply.elapsedTime);
    });
    const inbound = built.channels.inbound;
    const handle = inbound.handle.bind(inbound);
    inbound.handle = async (connection, event) => {
      const started = performance.now();
      try {
        return await handle(connection, event);
      } finally {
        if (event.type === "message") inboundTimes.push(performance.now() - started);
      }
    };
  }

  await app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  built.startBackground();
  const stop = async () => {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  if (opts.seed === false) {
    const none = { url, companyId: 0, whatsappId: 0, queueId: 0, agentId: 0, adminToken: "", agentToken: "" };
    return {
      info: none,
      resetProfile: async () => undefined,
      profile: async () => ({ queries: queryProfile(), requests: summarize([]), inbound: summarize([]) }),
      stop,
    };
  }

  try {
    const db = deps.db;
    const company = await buildCompany(db, { name: "Bench Company" });
    const queue = await buildQueue(db, company.id, { name: "Bench Queue" });
    const admin = await buildUser(db, company.id, { profile: "admin", name: "Bench Admin" });
    const agent = await buildUser(db, company.id, {
      profile: "user",
      name: "Bench Agent",
      queueIds: [queue.id],
    });

    const login = async (email: string) => {
      const res = await app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email, password: TEST_PASSWORD },
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return res.json<LoginAnswer>().token;
    };
    const adminToken = await login(admin.email);
    const agentToken = await login(agent.email);
    const headers = { authorization: `Bearer ${adminToken}` };

    const created = await app.inject({
      method: "POST",
      url: "/whatsapp",
      headers,
      payload: { name: "Bench simulator", provider: "simulator", queueIds: [queue.id] },
    });
    if (created.statusCode !== 201)
      throw new Error(`creating the connection failed: ${created.statusCode} ${created.body}`);
    const whatsappId = created.json<WhatsappDetailDTO>().id;
    const status = async () =>
      (await app.inject({ method: "GET", url: `/whatsapp/${whatsappId}`, headers })).json<WhatsappDetailDTO>()
        .status;
    await waitFor(async () => (await status()) === "qrcode", "the QR code");
    const scan = await app.inject({ method: "POST", url: `/simulator/${whatsappId}/scan`, headers });
    if (scan.statusCode !== 204) throw new Error(`scan failed: ${scan.statusCode} ${scan.body}`);
    await waitFor(async () => (await status()) === "CONNECTED", "CONNECTED");

    if (opts.webhookUrl) {
      const subscribed = await app.inject({
        method: "POST",
        url: "/webhooks",
        headers,
        payload: { url: opts.webhookUrl, events: ["ticket.created", "ticket.closed", "contact.created"] },
      });
      if (subscribed.statusCode !== 201)
        throw new Error(`the webhook subscription failed: ${subscribed.statusCode} ${subscribed.body}`);
    }

    return {
      info: {
        url,
        companyId: company.id,
        whatsappId,
        queueId: queue.id,
        agentId: agent.id,
        adminToken,
        agentToken,
      },
      async resetProfile() {
        resetQueryProfile();
        requestTimes.length = 0;
        inboundTimes.length = 0;
        await profiler.start();
      },
      async profile() {
        await profiler.stop();
        return {
          queries: queryProfile(),
          requests: summarize(requestTimes),
          inbound: summarize(inboundTimes),
        };
      },
      async stop() {
        await app.close();
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
