import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { ProviderName } from "@atende/contracts";
import type { Db } from "../db/client.js";
import { dbAuthStore } from "./authStore.js";
import { exponentialBackoff } from "./backoff.js";
import type { Inbound } from "./sink.js";
import {
  type AuthStore,
  type ChannelEvent,
  type ChannelProvider,
  type ChannelSession,
  type ConnectionInfo,
  connectionInfoOf,
} from "./provider.js";
import {
  claimLease,
  claimableConnections,
  dropLease,
  findConnectionById,
  holdsLease,
  idleConnectionIds,
  purgeLeases,
  purgeSentMessages,
  releaseLeases,
  renewLeases,
} from "./sessionState/queries.js";
import { type ProviderRegistry, providerFor } from "./registry.js";

interface Running {
  connection: ConnectionInfo;
  provider: ProviderName;
  session: ChannelSession | null;
  starting: Promise<void> | null;
  /** When our lease row last written for it runs out (ms): past it, another instance may own it. */
  leaseUntil: number;
  /** Failed starts in a row; the next one is tried after a closed socket's backoff for that many. */
  failures: number;
  retry?: NodeJS.Timeout;
}

/** Failed starts in a row after which the connection shows TIMEOUT (it keeps trying), as a socket's drops do. */
const START_FAILURES_BEFORE_TIMEOUT = 6;

/**
 * Statuses in which a connection wants a live session. TIMEOUT is one of them: a session that kept
 * failing still retries, and one left TIMEOUT by a dead instance (or an older release, which gave
 * up there) is claimed and retried by whoever is alive. DISCONNECTED waits for a person.
 */
const LIVE_STATUSES = ["OPENING", "qrcode", "PAIRING", "CONNECTED", "TIMEOUT"] as const;
/** How long a sent message can still be sent again to a phone that asks (a phone offline for days). */
const SENT_MESSAGE_RETENTION_MS = 14 * 24 * 3600_000;

/**
 * Runs the live sessions this instance owns. Ownership is a lease row per connection, renewed on
 * every tick; a lease not renewed within its time is taken over by another instance, so the
 * connections of an instance that died move within seconds.
 */
export class SessionManager {
  readonly instanceId = crypto.randomUUID();
  private readonly running = new Map<number, Running>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      inbound: Inbound;
      providers: ProviderRegistry;
      now: () => Date;
      log: FastifyBaseLogger;
      leaseSeconds: number;
    },
  ) {}

  /**
   * How long a session may take to start (its credentials loaded) before the start counts as
   * failed: one lease round, so a start that hangs (a database that does not answer) never holds
   * the lease round up long enough for this instance's other leases to run out.
   */
  private get startTimeoutMs(): number {
    return Math.max(1000, (this.deps.leaseSeconds * 1000) / 3);
  }

  /** The job lanes this instance serves: one per connection it owns. */
  lanes(): string[] {
    return [...this.running.keys()].map((id) => `wa:${id}`);
  }

  ownedIds(): number[] {
    return [...this.running.keys()];
  }

  /** The live session of a connection when this instance runs it. */
  session(whatsappId: number): ChannelSession | null {
    return this.running.get(whatsappId)?.session ?? null;
  }

  start(): void {
    const every = Math.max(1000, (this.deps.leaseSeconds * 1000) / 3);
    const loop = () => {
      void this.tick()
        .catch(async (err: unknown) => {
          // The database is away: the leases cannot be renewed. A session whose lease runs out
          // before the next tick may then become another instance's, so it stops now (never two
          // owners at once); the next tick that reaches the database takes free leases back.
          this.deps.log.warn({ err }, "session leases could not be renewed");
          await this.stopExpiring(every);
        })
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, every);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking?.catch(() => undefined);
    const ids = this.ownedIds();
    await Promise.all(ids.map((id) => this.stopLocal(id)));
    if (ids.length) await releaseLeases(this.deps.db, this.instanceId, ids);
  }

  /** Stops the sessions whose lease runs out before the next tick could renew it. */
  private async stopExpiring(every: number): Promise<void> {
    const at = this.deps.now().getTime() + every;
    for (const [id, entry] of [...this.running]) {
      if (entry.leaseUntil > at) continue;
      this.deps.log.warn(
        { whatsappId: id },
        "session lease runs out while the database is away; stopping it",
      );
      await this.stopLocal(id);
    }
  }

  /** Renews our leases, drops the ones we lost, and takes the free ones. */
  async tick(): Promise<void> {
    while (this.ticking) await this.ticking.catch(() => undefined);
    this.ticking = this.renewAndClaim();
    try {
      await this.ticking;
    } finally {
      this.ticking = null;
    }
  }

  private async renewAndClaim(): Promise<void> {
    const { db, now, leaseSeconds } = this.deps;
    const at = now();
    const until = new Date(at.getTime() + leaseSeconds * 1000);
    const owned = this.ownedIds();
    if (owned.length) {
      const kept = await renewLeases(db, this.instanceId, owned, until);
      const keptIds = new Set(kept.map((k) => k.id));
      for (const id of owned) {
        const entry = this.running.get(id);
        if (keptIds.has(id)) {
          if (entry) entry.leaseUntil = until.getTime();
        } else await this.stopLocal(id);
      }
    }
    // Connections that want a session and whose lease is free or stale.
    const candidates = await claimableConnections(db, LIVE_STATUSES, at);
    const claimed: typeof candidates = [];
    for (const c of candidates) {
      if (await claimLease(db, c.company_id, c.id, { ownerId: this.instanceId, until, at })) claimed.push(c);
    }
    await Promise.all(claimed.map((c) => this.startLocal(c.company_id, c.id, until)));
    // Sessions whose connection went to DISCONNECTED (a logout, a person's "disconnect") end here.
    if (owned.length) {
      const idle = await idleConnectionIds(db, owned);
      for (const { id } of idle) await this.release(id);
    }
    await purgeLeases(db, new Date(at.getTime() - 3600_000));
    await purgeSentMessages(db, new Date(at.getTime() - SENT_MESSAGE_RETENTION_MS));
  }

  private async startLocal(companyId: number, whatsappId: number, leaseUntil: Date): Promise<void> {
    const row = await findConnectionById(this.deps.db, whatsappId);
    if (!row) return;
    const provider = providerFor(this.deps.providers, row.provider);
    const connection = connectionInfoOf(row);
    const entry: Running = {
      connection,
      provider: row.provider,
      session: null,
      starting: null,
      leaseUntil: leaseUntil.getTime(),
      failures: 0,
    };
    this.running.set(whatsappId, entry);
    if (!provider) {
      this.deps.log.warn(
        { whatsappId, provider: row.provider },
        "no provider registered; connection left as it is",
      );
      return;
    }
    await this.attemptStart(entry, provider, companyId);
  }

  /**
   * Starts the entry's session. A start that fails (its credentials could not be loaded: a database
   * error, no answer within the start time) is tried again with a closed socket's backoff for as
   * long as the lease is ours, the connection showing OPENING, then TIMEOUT, meanwhile; there is no
   * session meanwhile, so sends answer that the connection is not running instead of waiting.
   */
  private attemptStart(entry: Running, provider: ChannelProvider, companyId: number): Promise<void> {
    const whatsappId = entry.connection.id;
    const sink = { emit: (event: ChannelEvent) => this.deliver(entry, event) };
    const store = this.ownedStore(entry, dbAuthStore(this.deps.db, companyId, whatsappId));
    entry.starting = this.withinStartTime(provider.start(entry.connection, sink, store))
      .then((session) => {
        if (this.running.get(whatsappId) !== entry) return void session.stop().catch(() => undefined);
        entry.session = session;
        entry.failures = 0;
      })
      .catch((err: unknown) => this.startFailed(entry, provider, companyId, err))
      .finally(() => {
        entry.starting = null;
      });
    return entry.starting;
  }

  private async withinStartTime(starting: Promise<ChannelSession>): Promise<ChannelSession> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the session did not start within ${this.startTimeoutMs} ms`)),
        this.startTimeoutMs,
      );
    });
    try {
      return await Promise.race([starting, late]);
    } catch (err) {
      // A start that completes after all is no session of ours: the retry makes its own.
      void starting.then((session) => session.stop()).catch(() => undefined);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private async startFailed(
    entry: Running,
    provider: ChannelProvider,
    companyId: number,
    err: unknown,
  ): Promise<void> {
    const whatsappId = entry.connection.id;
    if (this.running.get(whatsappId) !== entry) return; // stopped meanwhile: nothing to retry
    entry.failures += 1;
    const retryInMs = Math.round(exponentialBackoff(entry.failures));
    this.deps.log.error(
      { err, whatsappId, attempt: entry.failures, retryInMs },
      "session failed to start; trying again",
    );
    const status = entry.failures >= START_FAILURES_BEFORE_TIMEOUT ? "TIMEOUT" : "OPENING";
    await this.deliver(entry, { type: "connection", status, qrcode: "", retries: entry.failures }).catch(
      (e: unknown) => this.deps.log.warn({ err: e, whatsappId }, "the failed start could not be shown"),
    );
    if (this.running.get(whatsappId) !== entry) return;
    entry.retry = setTimeout(() => {
      entry.retry = undefined;
      if (this.running.get(whatsappId) === entry) void this.attemptStart(entry, provider, companyId);
    }, retryInMs);
  }

  /** Whether `entry` is still this instance's session of its connection, lease included. */
  private async owns(entry: Running): Promise<boolean> {
    const whatsappId = entry.connection.id;
    return (
      this.running.get(whatsappId) === entry && (await holdsLease(this.deps.db, this.instanceId, whatsappId))
    );
  }

  /**
   * Hands a session's event to the inbound pipeline. Its state (connection status, logged out) only
   * while the session is ours: a stale owner, whose lease another instance took while its renewals
   * failed, sees its socket replaced (440) or closed; writing that DISCONNECTED would make the live
   * owner release the connection at its next lease round. Its messages still go in (same ids, no
   * duplicates): what a customer wrote is never dropped.
   */
  private async deliver(entry: Running, event: ChannelEvent): Promise<void> {
    if ((event.type === "connection" || event.type === "loggedOut") && !(await this.owns(entry))) {
      this.deps.log.warn(
        { whatsappId: entry.connection.id, event: event.type === "connection" ? event.status : event.type },
        "a session this instance no longer owns reported its state; ignored",
      );
      return;
    }
    await this.deps.inbound.handle(entry.connection, event);
  }

  /** The session's store, whose credentials only the session's owner may wipe. */
  private ownedStore(entry: Running, store: AuthStore): AuthStore {
    return {
      get: (category, ids) => store.get(category, ids),
      set: (entries) => store.set(entries),
      clear: async () => {
        if (await this.owns(entry)) return store.clear();
        this.deps.log.warn(
          { whatsappId: entry.connection.id },
          "a session this instance no longer owns asked to forget its credentials; kept",
        );
      },
    };
  }

  private async stopLocal(whatsappId: number): Promise<void> {
    const entry = this.running.get(whatsappId);
    if (!entry) return;
    this.running.delete(whatsappId);
    clearTimeout(entry.retry);
    await entry.starting;
    await entry.session
      ?.stop()
      .catch((err) => this.deps.log.warn({ err, whatsappId }, "session stop failed"));
  }

  /** Stops our session of a connection and frees its lease for whoever should run it next. */
  async release(whatsappId: number): Promise<void> {
    await this.stopLocal(whatsappId);
    await releaseLeases(this.deps.db, this.instanceId, [whatsappId]);
  }

  /**
   * Starts the connection again from scratch (a person's "restart" or "new QR"): marks it OPENING,
   * frees the lease wherever it is held (the holder stops at its next renewal), and claims it now.
   */
  async restart(companyId: number, whatsappId: number): Promise<void> {
    await this.stopLocal(whatsappId);
    await dropLease(this.deps.db, whatsappId);
    await this.deps.inbound.handle(
      { id: whatsappId, companyId, name: "", number: "", config: {} },
      { type: "connection", status: "OPENING", retries: 0 },
    );
    await this.tick();
  }

  /**
   * A pairing code for the connection's phone, the QR code's alternative. The session must run here
   * to answer at once: when another instance runs it (or none does), it is started here first, as a
   * person's "new QR" would. Null when no session could be started here; `unavailable` when the
   * provider pairs no phone by code. Throws the session's ChannelError.
   */
  async pairingCode(
    companyId: number,
    whatsappId: number,
    number: string,
  ): Promise<{ code: string } | "unavailable" | null> {
    if (!this.running.has(whatsappId)) await this.restart(companyId, whatsappId);
    const entry = this.running.get(whatsappId);
    await entry?.starting;
    const session = entry?.session;
    if (!session) return null;
    if (!session.requestPairingCode) return "unavailable";
    return { code: await session.requestPairingCode(number) };
  }

  /** Logs out (when we run the session) and leaves the connection DISCONNECTED. */
  async disconnect(companyId: number, whatsappId: number): Promise<void> {
    const entry = this.running.get(whatsappId);
    await entry?.starting;
    if (entry?.session) {
      await entry.session.logout().catch((err) => this.deps.log.warn({ err, whatsappId }, "logout failed"));
    }
    await dbAuthStore(this.deps.db, companyId, whatsappId).clear();
    await this.deps.inbound.handle(
      { id: whatsappId, companyId, name: "", number: "", config: {} },
      { type: "loggedOut" },
    );
    await this.release(whatsappId);
    await dropLease(this.deps.db, whatsappId);
  }
}
