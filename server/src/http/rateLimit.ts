import type { createClient } from "redis";

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
