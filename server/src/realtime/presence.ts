import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.js";
import * as q from "./queries.js";

/**
 * How long one company's presence changes gather before they are written and announced. The first
 * change of a quiet company goes out at once (next tick); later ones wait for the window's end, so a
 * reconnect storm of 1,000 agents costs a few statements per second, not one per socket.
 */
export const PRESENCE_WINDOW_MS = 250;

interface Batch {
  /** Users with a live socket (connected, or asked for userStatus): online and seen now. */
  online: Set<number>;
  /** Users whose socket closed, or still connected at a sweep: seen now. */
  stamped: Set<number>;
  written: (() => void)[];
}

interface CompanyPresence {
  batch: Batch;
  timer: NodeJS.Timeout | null;
  /** When the last statement of this company started (performance clock). */
  lastRun: number;
  /** One statement of a company at a time: each run waits for the one before. */
  running: Promise<void>;
}

export interface PresenceBatcher {
  /** The user has a live socket: marked online and seen in the company's next statement; resolves once written. */
  online(companyId: number, userId: number): Promise<void>;
  /** The user was seen now (a socket closed, or one is still open at a sweep); written with the next statement. */
  stamp(companyId: number, userId: number): void;
  /** Writes everything pending now (on close, and at the end of a sweep). */
  flush(): Promise<void>;
}

/**
 * Batches the live channel's presence writes per company: one statement per company per window
 * updates every user seen (`where company_id = ? and id in (...)`), and the users it found offline
 * are announced once each (`announce`). A user already online (another socket or session) is not
 * announced again.
 */
export function createPresenceBatcher(opts: {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  announce: (companyId: number, userIds: number[]) => Promise<void>;
  windowMs?: number;
}): PresenceBatcher {
  const { db, now, log, announce } = opts;
  const windowMs = opts.windowMs ?? PRESENCE_WINDOW_MS;
  const companies = new Map<number, CompanyPresence>();
  const emptyBatch = (): Batch => ({ online: new Set(), stamped: new Set(), written: [] });

  function stateOf(companyId: number): CompanyPresence {
    let state = companies.get(companyId);
    if (!state) {
      state = { batch: emptyBatch(), timer: null, lastRun: -Infinity, running: Promise.resolve() };
      companies.set(companyId, state);
    }
    return state;
  }

  function schedule(companyId: number, state: CompanyPresence) {
    if (state.timer) return;
    const delay = Math.max(0, state.lastRun + windowMs - performance.now());
    state.timer = setTimeout(() => void run(companyId, state), delay);
    state.timer.unref();
  }

  /** Takes the company's batch when its turn comes (what arrived while waiting goes in too), writes it. */
  function run(companyId: number, state: CompanyPresence): Promise<void> {
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    state.running = state.running.then(async () => {
      const batch = state.batch;
      if (batch.online.size === 0 && batch.stamped.size === 0) return;
      state.batch = emptyBatch();
      state.lastRun = performance.now();
      const online = [...batch.online];
      const stamped = [...batch.stamped].filter((id) => !batch.online.has(id));
      let cameOnline: number[] = [];
      try {
        cameOnline = await q.stampPresence(db, companyId, online, stamped, now());
      } catch (err) {
        log.warn({ err, companyId, users: online.length + stamped.length }, "presence update failed");
      } finally {
        for (const done of batch.written) done();
      }
      if (cameOnline.length === 0) return;
      try {
        await announce(companyId, cameOnline);
      } catch (err) {
        log.warn({ err, companyId }, "presence announcement failed");
      }
    });
    return state.running;
  }

  return {
    online(companyId, userId) {
      const state = stateOf(companyId);
      state.batch.online.add(userId);
      const written = new Promise<void>((resolve) => state.batch.written.push(resolve));
      schedule(companyId, state);
      return written;
    },
    stamp(companyId, userId) {
      const state = stateOf(companyId);
      state.batch.stamped.add(userId);
      schedule(companyId, state);
    },
    async flush() {
      await Promise.all([...companies].map(([companyId, state]) => run(companyId, state)));
    },
  };
}
