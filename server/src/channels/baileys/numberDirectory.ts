import { jidDecode, jidNormalizedUser } from "./lib.js";
import { normalizeNumber, numberVariants } from "../numbers.js";
import {
  type AuthStore,
  ChannelError,
  type ChannelAddress,
  NUMBER_CHECKS,
  NUMBER_CHECK_FRESH_MS,
  type NumberCheck,
} from "../provider.js";
import { addressToJid } from "./jid.js";

/** `sock.onWhatsApp`: the jids WhatsApp knows among the given phone numbers (those without an account are left out). */
export type WhatsAppLookup = (numbers: string[]) => Promise<{ jid: string; exists: boolean }[] | undefined>;

export interface NumberCheckOptions {
  /**
   * Numbers asked per query. Baileys puts every phone of one `onWhatsApp` call in one usync query
   * (a `<user>` per phone in one `<list>`); a Brazilian mobile goes in its two forms. Default 100.
   */
  perQuery?: number;
  /** The least time between two queries of one connection, in ms (never back to back). Default 2 s. */
  pauseMs?: number;
  /** The clock of the pause and of the answers' freshness; tests pass their own. */
  clock?: { now(): number; sleep(ms: number): Promise<void> };
}

const PER_QUERY = 100;
const PAUSE_MS = 2000;
/** Answers kept in memory per connection; the database keeps them all. */
const MAX_REMEMBERED = 50_000;
/** Numbers read from the store per statement. */
const STORE_READ = 500;

const realClock = {
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/**
 * Which jid WhatsApp uses for a number, and whether it has an account at all. A Brazilian mobile
 * registered before the ninth digit still has an 8-digit jid (55 DD 8XXXXXXX), and a message sent
 * to the 9-digit form never arrives; so numbers are asked in every form they may have.
 *
 * Each lookup is a query to WhatsApp, and a number firing thousands of them is what WhatsApp bans:
 * numbers are asked many per query, one query at a time per connection with a pause between them,
 * and the answers kept (in memory, and in the company's store when given: any connection, instance
 * or restart reuses them) while fresh: NUMBER_CHECK_FRESH_MS.
 */
export class NumberDirectory {
  private readonly remembered = new Map<string, NumberCheck>();
  private readonly perQuery: number;
  private readonly pauseMs: number;
  private readonly clock: NonNullable<NumberCheckOptions["clock"]>;
  /** The queries of this connection, one after the other. */
  private line: Promise<unknown> = Promise.resolve();
  private lastQueryAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly lookup: WhatsAppLookup,
    private readonly store?: Pick<AuthStore, "get" | "set">,
    options: NumberCheckOptions = {},
  ) {
    this.perQuery = Math.max(1, options.perQuery ?? PER_QUERY);
    this.pauseMs = options.pauseMs ?? PAUSE_MS;
    this.clock = options.clock ?? realClock;
  }

  /** The canonical jid of a normalised number, or null when it is not on WhatsApp. Throws when WhatsApp cannot be asked. */
  async resolve(normalized: string): Promise<string | null> {
    return (await this.resolveMany([normalized])).get(normalized) ?? null;
  }

  /**
   * The jid of each normalised number, or null when it has no account: known answers first, the
   * rest asked `perQuery` at a time. When WhatsApp must be asked, the unknown numbers of `ahead`
   * (those a caller will want next) ride in the same queries, their answers kept for later. Throws
   * when WhatsApp cannot be asked; the answers of the queries done by then are kept, so asking
   * again goes on from there.
   */
  async resolveMany(numbers: string[], ahead: string[] = []): Promise<Map<string, string | null>> {
    const answers = await this.known(numbers);
    const wanted = new Set(numbers.filter((n) => !answers.has(n)));
    if (wanted.size === 0) return answers;
    const extra = ahead.filter((n) => !wanted.has(n) && !answers.has(n));
    const known = await this.known(extra);
    const toAsk = [...wanted, ...extra.filter((n) => !known.has(n))];
    for (let i = 0; i < toAsk.length; i += this.perQuery) {
      const asked = await this.ask(toAsk.slice(i, i + this.perQuery));
      for (const [number, jid] of asked) if (wanted.has(number)) answers.set(number, jid);
    }
    return answers;
  }

  /** The fresh answers among these numbers, from memory, else from the store. */
  private async known(numbers: string[]): Promise<Map<string, string | null>> {
    const answers = new Map<string, string | null>();
    const unknown: string[] = [];
    for (const number of new Set(numbers)) {
      const known = this.fresh(this.remembered.get(number));
      if (known) answers.set(number, known.jid);
      else unknown.push(number);
    }
    for (const [number, check] of await this.readStore(unknown)) {
      answers.set(number, check.jid);
      this.remember(number, check);
    }
    return answers;
  }

  /** The jid to send to; numbers with a single form skip the lookup. */
  async jidFor(address: ChannelAddress): Promise<string> {
    const direct = addressToJid(address);
    if (address.isGroup || !address.number || numberVariants(address.number).length < 2) return direct;
    let resolved: string | null;
    try {
      resolved = await this.resolve(address.number);
    } catch {
      return direct; // the lookup is an improvement, not a condition: the plain jid may well work
    }
    if (!resolved) {
      throw new ChannelError(`${address.number} is not on WhatsApp`, false, "ERR_WAPP_INVALID_CONTACT");
    }
    return resolved;
  }

  /** One query for these numbers (all their forms); the answers remembered and stored. */
  private async ask(numbers: string[]): Promise<Map<string, string | null>> {
    const owner = new Map<string, string>();
    for (const number of numbers) for (const form of numberVariants(number)) owner.set(form, number);
    const found = await this.query([...owner.keys()], numbers.length > 1);
    const answers = new Map<string, string | null>(numbers.map((n) => [n, null]));
    let stray: string | null = null;
    for (const result of found) {
      if (!result.exists) continue;
      const jid = jidNormalizedUser(result.jid);
      const user = jidDecode(jid)?.user ?? "";
      const normalized = normalizeNumber(user);
      const number = owner.get(user) ?? (answers.has(normalized) ? normalized : null);
      if (number) answers.set(number, jid);
      else stray ??= jid;
    }
    // An answer in a form none of the numbers has (a country whose WhatsApp form we do not derive):
    // alone in its query it is that number's; among others, those left without one are asked alone.
    const alone = stray !== null && numbers.length === 1;
    if (alone) answers.set(numbers[0]!, stray);
    const unsure = stray !== null && !alone ? numbers.filter((n) => answers.get(n) === null) : [];
    for (const number of unsure) answers.delete(number);
    const at = this.clock.now();
    for (const [number, jid] of answers) this.remember(number, { jid, at });
    await this.writeStore(answers, at);
    for (const number of unsure) answers.set(number, (await this.ask([number])).get(number) ?? null);
    return answers;
  }

  /**
   * Runs one query in the connection's line; a bulk one (several numbers: a list, a campaign) at least
   * `pauseMs` after the one before it ended. One number's lookup (a send to a new customer) waits only
   * for its turn: an agent's reply is not held up by the pace of a list being checked.
   */
  private query(phones: string[], bulk: boolean): Promise<{ jid: string; exists: boolean }[]> {
    const run = this.line.then(async () => {
      const wait = bulk ? this.lastQueryAt + this.pauseMs - this.clock.now() : 0;
      if (wait > 0) await this.clock.sleep(wait);
      try {
        const found = await this.lookup(phones);
        // Baileys answers nothing when WhatsApp's reply is not a result: no answer, not "no account".
        if (!found)
          throw new ChannelError("WhatsApp did not answer the number check", true, "ERR_WAPP_CHECK_CONTACT");
        return found;
      } finally {
        this.lastQueryAt = this.clock.now();
      }
    });
    this.line = run.catch(() => undefined);
    return run;
  }

  private fresh(check: NumberCheck | undefined): NumberCheck | null {
    if (!check) return null;
    const age = this.clock.now() - check.at;
    return age >= 0 && age < NUMBER_CHECK_FRESH_MS[check.jid ? "found" : "missing"] ? check : null;
  }

  /** The store's fresh answers; a store that cannot be read is asked no more (WhatsApp answers instead). */
  private async readStore(numbers: string[]): Promise<Map<string, NumberCheck>> {
    const fresh = new Map<string, NumberCheck>();
    if (!this.store || numbers.length === 0) return fresh;
    try {
      for (let i = 0; i < numbers.length; i += STORE_READ) {
        const stored = await this.store.get(NUMBER_CHECKS, numbers.slice(i, i + STORE_READ));
        for (const [number, value] of Object.entries(stored)) {
          const check = this.fresh(value as NumberCheck);
          if (check) fresh.set(number, check);
        }
      }
    } catch {
      // The answers read so far stand; the others are asked.
    }
    return fresh;
  }

  private async writeStore(answers: Map<string, string | null>, at: number): Promise<void> {
    if (!this.store) return;
    const entries = [...answers].map(([number, jid]) => ({
      category: NUMBER_CHECKS,
      id: number,
      value: { jid, at } satisfies NumberCheck,
    }));
    // Kept in memory either way: a store that fails only costs another instance a query.
    await this.store.set(entries).catch(() => undefined);
  }

  private remember(number: string, check: NumberCheck): void {
    this.remembered.delete(number);
    if (this.remembered.size >= MAX_REMEMBERED) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
    this.remembered.set(number, check);
  }
}
