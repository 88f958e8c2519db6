import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { createClient } from "redis";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { redisPrefix } from "../db/redisPrefix.js";
import { bearerToken } from "./auth.js";
import { AppError } from "./errors.js";
import type { RateLimit } from "./route.js";

/** Fixed-window counters: how long a key must wait, one more hit, and a fresh start. */
export interface Limiter {
  /** Seconds to wait when `key` is over its limit, else 0. Does not count. */
  blockedFor(key: string): Promise<number>;
  hit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/** Counters in this process's memory: the limit of a single instance. */
export class RateLimiter implements Limiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async blockedFor(key: string): Promise<number> {
    const entry = this.hits.get(key);
    const now = this.now();
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.max ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  async hit(key: string): Promise<void> {
    const now = this.now();
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.hits.size > 50_000) this.prune(now);
    } else {
      entry.count++;
    }
  }

  async reset(key: string): Promise<void> {
    this.hits.delete(key);
  }

  private prune(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

type Redis = ReturnType<typeof createClient>;

/** Counters in Redis under `prefix`: every instance of the deployment counts against one limit. */
export class RedisRateLimiter implements Limiter {
  constructor(
    private readonly redis: () => Promise<Redis>,
    private readonly prefix: () => Promise<string>,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private async key(key: string) {
    return `${await this.prefix()}:${key}`;
  }

  async blockedFor(key: string): Promise<number> {
    const k = await this.key(key);
    const [count, ttl] = await (await this.redis()).multi().get(k).pTTL(k).exec();
    if (Number(count ?? 0) < this.max || Number(ttl) <= 0) return 0;
    return Math.ceil(Number(ttl) / 1000);
  }

  async hit(key: string): Promise<void> {
    const k = await this.key(key);
    // The window starts with the first hit; INCR keeps the expiry SET gave it.
    await (await this.redis()).multi().set(k, "0", { PX: this.windowMs, NX: true }).incr(k).exec();
  }

  async reset(key: string): Promise<void> {
    await (await this.redis()).del(await this.key(key));
  }
}

/** Where limits count: a limiter per name, and the connection to let go of at shutdown. */
export interface LimiterStore {
  /** A limiter of `max` hits per window; two names never share counters. */
  limiter(name: string, max: number, windowMs: number): Limiter;
  close(): Promise<void>;
}

/**
 * Limits in this process's memory alone (on `now`'s clock), or, with REDIS_URL, in Redis under the
 * deployment's prefix, so every instance counts against one limit. Redis is reached on first use.
 */
export function limiterStore(
  config: Pick<Config, "REDIS_URL" | "REDIS_PREFIX">,
  db: Db,
  now: () => number = Date.now,
): LimiterStore {
  if (!config.REDIS_URL) {
    return {
      limiter: (_name, max, windowMs) => new RateLimiter(max, windowMs, now),
      close: async () => undefined,
    };
  }
  const url = config.REDIS_URL;
  let client: Redis | null = null;
  let connecting: Promise<Redis> | null = null;
  const redis = () =>
    (connecting ??= (async () => {
      const c = createClient({ url });
      client = c;
      // Trouble reaching Redis surfaces in the request that needed it; the realtime adapter logs it.
      c.on("error", () => undefined);
      try {
        await c.connect();
      } catch (err) {
        // The next request tries again rather than failing forever.
        connecting = client = null;
        c.destroy();
        throw err;
      }
      return c;
    })());
  let prefix: Promise<string> | null = null;
  const deploymentPrefix = () =>
    (prefix ??= redisPrefix(config, db).catch((err: unknown) => {
      prefix = null;
      throw err;
    }));
  return {
    limiter: (name, max, windowMs) =>
      new RedisRateLimiter(redis, async () => `${await deploymentPrefix()}:${name}`, max, windowMs),
    async close() {
      await connecting?.catch(() => undefined);
      if (client?.isOpen) await client.quit();
    },
  };
}

/** Whom a call counts against: the signed-in user, the bearer token sent (hashed), or the address. */
function callerKey(req: FastifyRequest, by: "ip" | "user" | "token"): string {
  if (by === "user" && req.auth) return `user:${req.auth.userId}`;
  const token = by === "token" ? bearerToken(req) : null;
  if (token) return `token:${crypto.createHash("sha256").update(token).digest("base64url").slice(0, 32)}`;
  return `ip:${req.ip}`;
}

/**
 * The preHandler that enforces declared rate limits (RouteDeclaration.rateLimit), after the route
 * guard so a `user` limit knows the caller. Every call counts, answered or refused by its handler,
 * per route and per caller: the client's address, or the signed-in user (the address on a public
 * route). Over the limit: 429 ERR_TOO_MANY_REQUESTS with the seconds to wait, as the login's limit
 * answers them (`retryAfter`), and in Retry-After.
 */
export function makeRateLimitGuard(store: LimiterStore) {
  const limiters = new Map<string, Limiter>();
  async function limit(req: FastifyRequest, reply: FastifyReply, rateLimit: RateLimit) {
    const { max, windowSeconds, by = "ip" } = rateLimit;
    // The HEAD Fastify adds beside a GET is the same route: one count.
    const route = `${req.method === "HEAD" ? "GET" : req.method} ${req.routeOptions.url}`;
    let limiter = limiters.get(route);
    if (!limiter) {
      limiter = store.limiter(`route:${route}`, max, windowSeconds * 1000);
      limiters.set(route, limiter);
    }
    const key = callerKey(req, by);
    const wait = await limiter.blockedFor(key);
    if (wait > 0) {
      reply.header("retry-after", String(wait));
      throw new AppError("ERR_TOO_MANY_REQUESTS", { retryAfter: wait });
    }
    await limiter.hit(key);
  }
  // Written with `done`: most routes declare no limit, and an async hook would cost them a promise.
  return function rateLimitGuard(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) {
    const decl = req.routeOptions.config.route;
    if (req.is404 || !decl || decl === "asset" || !decl.rateLimit) return done();
    limit(req, reply, decl.rateLimit).then(() => done(), done);
  };
}
