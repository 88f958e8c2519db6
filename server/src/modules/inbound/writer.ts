import type { Executor } from "../../db/client.js";
import { GroupCommit } from "../../db/groupCommit.js";
import {
  type ContactKey,
  type ConversationItem,
  type ConversationValues,
  type StoredConversation,
  type WithinBatch,
  storeConversationMessages,
  storeQuietMessages,
} from "./queries.js";

// The inbound hot path's group commit: the quiet statement first, the transaction with the
// followers for the rest (queries.ts holds both statements' runners).

/**
 * The quiet path of the group commit: a batch whose followers all say they write nothing for plain
 * inbound messages (events/bus.ts, QuietOnInbound) first goes through the quiet statement; what it
 * leaves (new contacts and tickets, renames, campaign answers) goes through the transaction with the
 * followers. A busy desk's batches are then one statement and one round trip, as before the
 * followers ran in the batch's transaction, and the bot's turns still commit with their messages.
 */
export interface QuietPath {
  /** Whether the quiet statement may take this message (not a call, no file still to download). */
  takes(item: ConversationItem): boolean;
  /** Whether every follower is quiet for the companies of these messages. */
  allows(items: ConversationItem[]): Promise<boolean>;
  /** After the quiet statement committed: how many bot turns it queued (the job runner is poked). */
  committed(turns: number): void;
}

/**
 * Group commit of the hot path: messages arriving together on a connection are stored by one
 * statement (GroupCommit: one batch at a time per connection, in arrival order). Each caller's
 * promise settles once its message is committed: null for a redelivery.
 */
export function conversationWriter(
  db: Executor,
  withinBatch?: WithinBatch,
  quiet?: QuietPath,
  maxBatch = 64,
) {
  type Result = StoredConversation | null | Error;
  const addressOf = ({ key, values }: ConversationItem) =>
    `${values.companyId}:${key}:${key === "number" ? values.number : values.lid}`;
  async function write(items: ConversationItem[]): Promise<Result[]> {
    const out: Result[] = items.map(() => null);
    let rest = items.map((_, i) => i);
    if (quiet) {
      // A contact with a message the quiet statement cannot take keeps all of its batch on the
      // other path, so its messages stay in order.
      const held = new Set(items.filter((item) => !quiet.takes(item)).map(addressOf));
      const candidates = rest.filter((i) => !held.has(addressOf(items[i]!)));
      if (candidates.length > 0 && (await quiet.allows(candidates.map((i) => items[i]!)))) {
        const { results, turns } = await storeQuietMessages(
          db,
          candidates.map((i) => items[i]!),
        );
        if (turns > 0) quiet.committed(turns);
        const left = new Set(rest.filter((i) => !candidates.includes(i)));
        candidates.forEach((i, j) => {
          if (results[j] === undefined) left.add(i);
          else out[i] = results[j] ?? null;
        });
        rest = rest.filter((i) => left.has(i));
      }
    }
    if (rest.length === items.length) return storeConversationMessages(db, items, withinBatch);
    if (rest.length === 0) return out;
    // The quiet messages are committed: a failure of the others is theirs alone (each tried alone).
    try {
      const more = await storeConversationMessages(
        db,
        rest.map((i) => items[i]!),
        withinBatch,
      );
      rest.forEach((i, j) => (out[i] = more[j]!));
    } catch {
      for (const i of rest)
        out[i] = await storeConversationMessages(db, [items[i]!], withinBatch).then(
          ([one]) => one!,
          (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
        );
    }
    return out;
  }
  const commits = new GroupCommit<ConversationItem, Result>(write, maxBatch);
  return {
    async store(key: ContactKey, values: ConversationValues): Promise<StoredConversation | null> {
      const result = await commits.submit(values.whatsappId, { key, values });
      if (result instanceof Error) throw result;
      return result;
    },
  };
}
