import { isLidUser, toNumber, type BaileysEventMap, type Contact, type WAMessage } from "./lib.js";
import { MAX_HISTORY_IMPORT_DAYS } from "@atende/contracts";
import type { ChannelEvent, ChannelSink, InboundMessage } from "../provider.js";
import type { AltJids } from "./lid.js";
import type { BaileysLogger } from "./logger.js";
import { mapUpsertedMessage, type MediaDownloader } from "./mapping.js";
import { SinkQueue } from "./sinkQueue.js";

/** History sync parts WhatsApp sends after a link; Baileys' default leaves out FULL, which we want too. */
export const syncEveryHistoryPart = (): boolean => true;

const DAY_MS = 86_400_000;

/**
 * One part of WhatsApp's history sync (`messaging-history.set`) as the pipeline's history event:
 * its messages newer than the most days a company may import (older ones are dropped here, before
 * anything is made of them), mapped as live messages are; edits, revokes and what has nothing to
 * show left out. A LID chat gets its phone number from Baileys' LID store (history parts carry the
 * pairs, and Baileys stores them before it emits the part), asked once per chat.
 */
export async function mapHistorySet(
  set: BaileysEventMap["messaging-history.set"],
  deps: {
    download: MediaDownloader;
    altJids: Pick<AltJids, "of">;
    /** A mapped message on its way (the group directory names its author). */
    onMessage?: (event: ChannelEvent) => ChannelEvent | null;
    now?: () => number;
  },
): Promise<Extract<ChannelEvent, { type: "history" }>> {
  const since = (deps.now ?? Date.now)() - MAX_HISTORY_IMPORT_DAYS * DAY_MS;
  const alts = new Map<string, string | undefined>();
  const messages: InboundMessage[] = [];
  for (const m of set.messages) {
    if (secondsOf(m) * 1000 < since) continue;
    const chat = m.key.remoteJid;
    let alt: string | undefined;
    if (chat && !m.key.remoteJidAlt && isLidUser(chat)) {
      if (!alts.has(chat)) alts.set(chat, await deps.altJids.of(chat));
      alt = alts.get(chat);
    }
    let event = mapUpsertedMessage(m, deps.download, alt);
    if (event && deps.onMessage) event = deps.onMessage(event);
    if (event?.type === "message") messages.push(event.message);
  }
  return { type: "history", messages, done: set.progress === 100 };
}

function secondsOf(m: WAMessage): number {
  return m.messageTimestamp ? toNumber(m.messageTimestamp) : 0;
}

/**
 * Hands a session's history parts to the pipeline in order, on a queue of their own: importing a
 * part of thousands of messages never holds up the live messages behind it (the import and the live
 * path meet only in the database, where the message id keeps each message once).
 */
export class HistoryFeed {
  private readonly queue: SinkQueue;

  constructor(
    sink: ChannelSink,
    private readonly deps: Parameters<typeof mapHistorySet>[1] & {
      logger: BaileysLogger;
      /** History parts name people too (chats' and push names): the group directory learns them. */
      learn?: (contact: Partial<Contact>) => void;
      /** Group messages' authors, for read receipts and quotes of them. */
      remember?: (message: WAMessage) => void;
    },
  ) {
    this.queue = new SinkQueue(sink, deps.logger);
  }

  /** `messaging-history.set`: one part of the history, mapped at its turn. */
  part(set: BaileysEventMap["messaging-history.set"]): void {
    if (this.deps.learn) set.contacts.forEach(this.deps.learn);
    if (this.deps.remember) set.messages.forEach(this.deps.remember);
    void this.queue.emitMade(() => mapHistorySet(set, this.deps), "history");
  }

  /** `messaging-history.status`: a phase of the sync is complete (or stalled): the run is over. */
  status({ status }: BaileysEventMap["messaging-history.status"]): void {
    if (status === "complete" || status === "paused")
      void this.queue.emit({ type: "history", messages: [], done: true });
  }

  stop(): Promise<void> {
    this.queue.stop();
    return this.queue.drain();
  }
}
