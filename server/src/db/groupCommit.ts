/**
 * Group commit: writes that arrive together go to the database as one batch (one statement or one
 * transaction, one COMMIT) instead of one commit each. Each lane (for example a connection) runs
 * one batch at a time, in arrival order: the first item of an idle lane goes at once, alone, and
 * whatever arrives while a batch is being written waits for it and forms the next batch (at most
 * `max` items). So a lone write pays no waiting, and under load the batches grow by themselves.
 *
 * `write(items)` answers one result per item, in order. When it throws for a batch of several, each
 * item is written again alone, so one bad item fails only its own caller.
 */
export class GroupCommit<In, Out> {
  private readonly lanes = new Map<string | number, Pending<In, Out>[]>();

  constructor(
    private readonly write: (items: In[]) => Promise<Out[]>,
    private readonly max = 64,
  ) {}

  /** The last item submitted to each lane that is still being written: `settled` waits for it. */
  private readonly lastOf = new Map<string | number, Promise<unknown>>();

  /** Resolves once the item's batch is committed, with the item's result. */
  submit(lane: string | number, item: In): Promise<Out> {
    const result = this.enqueue(lane, item);
    const last = result.catch(() => undefined);
    this.lastOf.set(lane, last);
    void last.then(() => {
      if (this.lastOf.get(lane) === last) this.lastOf.delete(lane);
    });
    return result;
  }

  /**
   * Resolves once everything submitted to the lane so far is written (committed or failed): a read
   * that follows it sees those writes.
   */
  async settled(lane: string | number): Promise<void> {
    await this.lastOf.get(lane);
  }

  /** Resolves once everything submitted to any lane so far is written (for a clean shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.lastOf.values()]);
  }

  private enqueue(lane: string | number, item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const queue = this.lanes.get(lane);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      this.lanes.set(lane, [{ item, resolve, reject }]);
      void this.drain(lane);
    });
  }

  private async drain(lane: string | number) {
    const queue = this.lanes.get(lane)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, this.max);
      await this.run(batch);
    }
    this.lanes.delete(lane);
  }

  private async run(batch: Pending<In, Out>[]) {
    try {
      const results = await this.write(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      for (const p of batch) await this.run([p]);
    }
  }
}

interface Pending<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}
