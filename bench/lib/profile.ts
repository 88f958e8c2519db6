import { performance } from "node:perf_hooks";
import pg from "pg";

/**
 * Counts and times every SQL statement the process sends through `pg`, and how long callers waited
 * for a pooled connection. Patches `pg` in this thread only (the server's thread), for BENCH_PROFILE.
 */
export interface QueryProfile {
  statements: number;
  poolWaits: number;
  poolWaitMs: number;
  byStatement: { sql: string; count: number; totalMs: number }[];
}

interface Entry {
  count: number;
  totalMs: number;
}

const entries = new Map<string, Entry>();
let statements = 0;
let poolWaits = 0;
let poolWaitMs = 0;
let installed = false;

/** Statement text with parameters and whitespace folded, so one query shape is one line. */
function shape(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\$\d+/g, "?").trim().slice(0, 110);
}

function note(text: string, elapsed: number) {
  statements++;
  const key = shape(text);
  const e = entries.get(key) ?? { count: 0, totalMs: 0 };
  e.count++;
  e.totalMs += elapsed;
  entries.set(key, e);
}

type AnyFn = (...args: unknown[]) => unknown;

export function installQueryProfile(): void {
  if (installed) return;
  installed = true;
  const clientProto = pg.Client.prototype as unknown as { query: AnyFn };
  const query = clientProto.query;
  clientProto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : (first?.text ?? "?");
    const started = performance.now();
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (...cbArgs: unknown[]) => {
        note(text, performance.now() - started);
        return (last as AnyFn)(...cbArgs);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === "function") {
      (result as Promise<unknown>).then(
        () => note(text, performance.now() - started),
        () => note(text, performance.now() - started),
      );
    }
    return result;
  };

  const poolProto = pg.Pool.prototype as unknown as { connect: AnyFn };
  const connect = poolProto.connect;
  poolProto.connect = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const done = () => {
      poolWaits++;
      poolWaitMs += performance.now() - started;
    };
    const cb = args[0];
    if (typeof cb === "function") {
      return connect.call(this, (...cbArgs: unknown[]) => {
        done();
        return (cb as AnyFn)(...cbArgs);
      });
    }
    const result = connect.apply(this, args) as Promise<unknown>;
    result.then(done, done);
    return result;
  };
}

export function resetQueryProfile(): void {
  entries.clear();
  statements = 0;
  poolWaits = 0;
  poolWaitMs = 0;
}

export function queryProfile(): QueryProfile {
  return {
    statements,
    poolWaits,
    poolWaitMs,
    byStatement: [...entries.entries()]
      .map(([sql, e]) => ({ sql, ...e }))
      .sort((a, b) => b.totalMs - a.totalMs),
  };
}
