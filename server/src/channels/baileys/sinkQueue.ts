import { isDatabaseUnavailable } from "../../db/client.js";
import type { ChannelEvent, ChannelSink } from "../provider.js";
import type { BaileysLogger } from "./logger.js";

/**
 * Hands events to the sink one at a time, in the order WhatsApp produced them: Baileys does not
 * wait for its listeners, and a message must be committed before its ack or edit is. A sink
 * failure is logged and the next event still goes through: one bad event never stalls the chat.
 * Except when the database is away: that says nothing about the event, so it is handed again (with
 * a backoff up to `maxRetryMs`) until it is committed, and the events behind it wait, in order.
 */
export class SinkQueue {
  private tail: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly sink: ChannelSink,
    private readonly logger: BaileysLogger,
    private readonly maxRetryMs = 5_000,
  ) {}

  emit(event: ChannelEvent): Promise<void> {
    return this.run(() => this.sink.emit(event), event.type);
  }

  /**
   * Hands the event `make` answers (null: nothing to hand), made at its turn: an event that needs a
   * lookup first (lid.ts) still goes after the ones before it.
   */
  emitMade(make: () => Promise<ChannelEvent | null>, what: string): Promise<void> {
    return this.run(async () => {
      const event = await make();
      if (event) await this.sink.emit(event);
    }, what);
  }

  /** Runs other work (clearing the auth store before "loggedOut") in the same order as the events. */
  run(task: () => Promise<void>, what: string): Promise<void> {
    this.tail = this.tail
      .then(() => this.untilCommitted(task, what))
      .catch((err: unknown) => {
        this.logger.error({ err, what }, "baileys: the channel sink failed; continuing with the next event");
      });
    return this.tail;
  }

  private async untilCommitted(task: () => Promise<void>, what: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await task();
      } catch (err) {
        if (this.stopped || !isDatabaseUnavailable(err)) throw err;
        const retryInMs = Math.min(this.maxRetryMs, 100 * 2 ** (attempt - 1));
        this.logger.warn({ what, attempt, retryInMs }, "baileys: database unavailable; holding the event");
        await new Promise((r) => setTimeout(r, retryInMs));
      }
    }
  }

  /** The session stops: an event held for the database is given up after its current attempt. */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves once everything queued so far has been handed over. */
  drain(): Promise<void> {
    return this.tail;
  }
}
