/**
 * Asks that arrive while the same one is still being answered share its answer: one read for a
 * burst. The answer is not kept once it is in (a cache, where one is wanted, stores it); a failure is
 * shared by those who waited for it and forgotten too. Keys say what an answer depends on: put a
 * cache's generation in them, so an ask made after a forgetting never joins a read begun before it.
 */
export class SingleFlight<K, V> {
  private readonly pending = new Map<K, Promise<V>>();

  run(key: K, work: () => Promise<V>): Promise<V> {
    const running = this.pending.get(key);
    if (running) return running;
    const started = work().finally(() => this.pending.delete(key));
    this.pending.set(key, started);
    return started;
  }
}
