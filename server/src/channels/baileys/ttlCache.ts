import type { CacheStore } from "./lib.js";

/**
 * Baileys' CacheStore (with the batch calls its device cache uses) as a Map whose entries expire:
 * what node-cache gives Baileys inside a socket, but owned by the connection's supervisor, so the
 * message retry counters and the devices known outlive a reconnect instead of starting over.
 */
export class TtlCache implements CacheStore {
  private readonly entries = new Map<string, { value: unknown; expires: number }>();
  private nextSweep: number;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.nextSweep = now() + ttlMs;
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set<T>(key: string, value: T): void {
    const now = this.now();
    // Keys nobody reads again (a contact's devices asked once) leave at the next sweep.
    if (now >= this.nextSweep) this.sweep(now);
    this.entries.set(key, { value, expires: now + this.ttlMs });
  }

  del(key: string): void {
    this.entries.delete(key);
  }

  flushAll(): void {
    this.entries.clear();
  }

  async mget<T>(keys: string[]): Promise<Record<string, T | undefined>> {
    return Object.fromEntries(keys.map((key) => [key, this.get<T>(key)]));
  }

  async mset<T>(entries: { key: string; value: T }[]): Promise<void> {
    for (const { key, value } of entries) this.set(key, value);
  }

  async mdel(keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
    this.nextSweep = now + this.ttlMs;
  }
}
