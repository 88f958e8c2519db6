import type { ChannelEvent, ChannelSink } from "../provider.js";
import type { BaileysLogger } from "./logger.js";

/**
 * Hands events to the sink one at a time, in the order WhatsApp produced them: Baileys does not
 * wait for its listeners, and a message must be committed before its ack or edit is. A sink
 * failure is logged and the next event still goes through: one bad event never stalls the chat.
 */
export class SinkQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: ChannelSink,
    private readonly logger: BaileysLogger,
  ) {}

  emit(event: ChannelEvent): Promise<void> {
    return this.run(() => this.sink.emit(event), event.type);
  }

  /** Runs other work (clearing the auth store before "loggedOut") in the same order as the events. */
  run(task: () => Promise<void>, what: string): Promise<void> {
    this.tail = this.tail.then(task).catch((err: unknown) => {
      this.logger.error({ err, what }, "baileys: the channel sink failed; continuing with the next event");
    });
    return this.tail;
  }

  /** Resolves once everything queued so far has been handed over. */
  drain(): Promise<void> {
    return this.tail;
  }
}
