import { isJidGroup, type BaileysEventMap, type Contact, type GroupMetadata, type WAMessage } from "./lib.js";
import type { ChannelAddress, ChannelEvent } from "../provider.js";
import { jidToAddress } from "./jid.js";
import type { BaileysLogger } from "./logger.js";

/** Groups one session keeps, and names: beyond these the oldest is forgotten (and fetched again if needed). */
const MAX_GROUPS = 2_000;
const MAX_NAMES = 50_000;
/** Group messages whose author is remembered (for quotes and read receipts): the latest ones. */
const MAX_AUTHORS = 50_000;
/** A group whose metadata could not be fetched is not asked for again before this long. */
const REFETCH_AFTER_MS = 10 * 60_000;

/**
 * What one Baileys session knows of its groups and of people's names, kept current by WhatsApp's
 * events (`groups.upsert`, `groups.update`, `group-participants.update`, contacts):
 * - Baileys reads the groups through `cachedGroupMetadata`, so a send to a group does not ask
 *   WhatsApp for its participants every time (which WhatsApp rate-limits);
 * - a group's subject names the group's contact (a contact event), and a new subject renames it;
 *   the subject notice in the group's chat (a GROUP_CHANGE_SUBJECT stub on `messages.upsert`) is
 *   not read here: Baileys turns it into a `groups.update` itself, one source for one change;
 * - a group message whose author came without a name (no push name) gets the name last seen for
 *   that person, so participants show by name, not by number.
 * It outlives the sockets: a reconnect keeps what it knew.
 */
export class GroupDirectory {
  private readonly groups = new Map<string, GroupMetadata>();
  /** Names by person key ("n:<number>", "l:<lid>"), with when they were learnt (a counter). */
  private readonly names = new Map<string, { name: string; seq: number }>();
  private seq = 0;
  private readonly asked = new Map<string, number>();
  /** Metadata requests under way, by group: a burst of misses asks WhatsApp once. */
  private readonly fetching = new Map<string, Promise<GroupMetadata | undefined>>();

  constructor(
    private readonly deps: {
      /** Asks WhatsApp for a group's metadata (the open socket's groupMetadata). */
      fetch(jid: string): Promise<GroupMetadata>;
      /** Asks WhatsApp for every group the number is in (the open socket's groupFetchAllParticipating). */
      fetchAll?(): Promise<Record<string, GroupMetadata>>;
      emit(event: ChannelEvent): void;
      logger: BaileysLogger;
      now?: () => number;
    },
  ) {}

  /**
   * For makeWASocket: the group as last heard; on a miss, asked of WhatsApp once and kept (so the
   * next send to it asks nothing). Undefined when that fails: Baileys then asks WhatsApp itself.
   */
  readonly cachedGroupMetadata = async (jid: string): Promise<GroupMetadata | undefined> =>
    this.groups.get(jid) ?? (await this.fetchOnce(jid, true));

  /**
   * Every group the number is in, asked once the socket opens, so the first send to a group and
   * the first message of one find it already: a group seen before is named again only when its
   * subject changed meanwhile. A failure is logged; the misses then fetch group by group.
   */
  async fill(): Promise<void> {
    if (!this.deps.fetchAll) return;
    try {
      const all = await this.deps.fetchAll();
      for (const group of Object.values(all)) {
        const known = this.groups.get(group.id);
        this.store(group, !known || known.subject !== group.subject);
      }
    } catch (err) {
      this.deps.logger.warn({ err }, "baileys: the groups could not be fetched at connect");
    }
  }

  upsert(groups: BaileysEventMap["groups.upsert"]): void {
    for (const group of groups) this.store(group, true);
  }

  update(updates: BaileysEventMap["groups.update"]): void {
    for (const update of updates) {
      if (!update.id) continue;
      const known = this.groups.get(update.id);
      if (known)
        this.store({ ...known, ...update, participants: update.participants ?? known.participants }, false);
      if (update.subject && (!known || known.subject !== update.subject))
        this.nameGroup(update.id, update.subject);
    }
  }

  participants({ id, participants, action }: BaileysEventMap["group-participants.update"]): void {
    participants.forEach((p) => this.learn(p));
    const known = this.groups.get(id);
    if (!known) return;
    const ids = new Set(participants.map((p) => p.id));
    let list = known.participants;
    switch (action) {
      case "add":
        list = [...list.filter((p) => !ids.has(p.id)), ...participants];
        break;
      case "remove":
        list = list.filter((p) => !ids.has(p.id));
        break;
      case "promote":
        list = list.map((p) => (ids.has(p.id) ? { ...p, admin: "admin" as const, isAdmin: true } : p));
        break;
      case "demote":
        list = list.map((p) =>
          ids.has(p.id) ? { ...p, admin: null, isAdmin: false, isSuperAdmin: false } : p,
        );
        break;
      default:
        // "modify" (a participant's id changed): what changed is not said whole; ask WhatsApp again.
        this.groups.delete(id);
        return;
    }
    this.store({ ...known, participants: list, size: list.length }, false);
  }

  /** A contact as WhatsApp described it: its name, for the groups' participants. */
  learn(contact: Partial<Contact>): void {
    const name = contact.name || contact.notify || contact.verifiedName;
    const address = jidToAddress(contact.id, contact.phoneNumber ?? contact.lid);
    if (name && address && !address.isGroup) this.remember(address, name);
  }

  private remember(address: ChannelAddress, name: string): void {
    const seq = ++this.seq;
    for (const key of keysOf(address)) {
      this.names.delete(key);
      this.names.set(key, { name, seq });
      if (this.names.size > MAX_NAMES) this.names.delete(this.names.keys().next().value!);
    }
  }

  /** The name learnt last for this person, under any of their keys. */
  private nameOf(address: ChannelAddress): string | undefined {
    let best: { name: string; seq: number } | undefined;
    for (const key of keysOf(address)) {
      const known = this.names.get(key);
      if (known && (!best || known.seq > best.seq)) best = known;
    }
    return best?.name;
  }

  /**
   * A mapped message on its way to the pipeline: in a group, its author's name is learnt or filled
   * in, and the group's metadata fetched the first time the group is heard of (its subject names it).
   */
  onMessage(event: ChannelEvent | null): ChannelEvent | null {
    if (event?.type !== "message" || !event.message.chat.isGroup) return event;
    const { message } = event;
    this.ensure(`${message.chat.number}@g.us`);
    const author = message.participant;
    if (!author || message.fromMe) return event;
    if (author.name) {
      this.remember(author, author.name);
      return event;
    }
    const name = this.nameOf(author);
    return name ? { type: "message", message: { ...message, participant: { ...author, name } } } : event;
  }

  private ensure(jid: string): void {
    if (!this.groups.has(jid)) void this.fetchOnce(jid, false);
  }

  /**
   * The group's metadata asked of WhatsApp, kept and its subject naming the group; one request per
   * group at a time, and a group that failed is not asked again before REFETCH_AFTER_MS (unless
   * `urgent`: a send needs it now). Undefined when it cannot be had.
   */
  private fetchOnce(jid: string, urgent: boolean): Promise<GroupMetadata | undefined> {
    const running = this.fetching.get(jid);
    if (running) return running;
    const now = (this.deps.now ?? Date.now)();
    const last = this.asked.get(jid);
    if (!urgent && last !== undefined && now - last < REFETCH_AFTER_MS) return Promise.resolve(undefined);
    this.asked.set(jid, now);
    const request = this.deps
      .fetch(jid)
      .then((group) => {
        this.asked.delete(jid);
        this.store(group, true);
        return group;
      })
      .catch((err: unknown) => {
        this.deps.logger.debug({ err, jid }, "baileys: group metadata not fetched");
        return undefined;
      })
      .finally(() => this.fetching.delete(jid));
    this.fetching.set(jid, request);
    return request;
  }

  private store(group: GroupMetadata, named: boolean): void {
    this.groups.delete(group.id);
    this.groups.set(group.id, group);
    if (this.groups.size > MAX_GROUPS) this.groups.delete(this.groups.keys().next().value!);
    group.participants.forEach((p) => this.learn(p));
    if (named && group.subject) this.nameGroup(group.id, group.subject);
  }

  private nameGroup(jid: string, subject: string): void {
    const address = jidToAddress(jid);
    if (address?.isGroup) this.deps.emit({ type: "contact", address, name: subject });
  }
}

function keysOf(address: ChannelAddress): string[] {
  const keys: string[] = [];
  if (address.number) keys.push(`n:${address.number}`);
  if (address.lid) keys.push(`l:${address.lid}`);
  return keys;
}

/**
 * Who wrote each group message lately, by message id: a read receipt or a quote of a group message
 * must name its author (the key's `participant`), or WhatsApp does not credit it (no blue ticks;
 * the quote shown as the group's own). Kept in memory for the latest MAX_AUTHORS messages.
 */
export class GroupAuthors {
  private readonly authors = new Map<string, string>();

  /** A message heard (live or from the history): its author, when it is someone's in a group. */
  remember(message: WAMessage): void {
    const { id, remoteJid, participant, fromMe } = message.key;
    if (!id || fromMe || !participant || !isJidGroup(remoteJid ?? undefined)) return;
    this.authors.delete(id);
    this.authors.set(id, participant);
    if (this.authors.size > MAX_AUTHORS) this.authors.delete(this.authors.keys().next().value!);
  }

  /** The author's jid of a group message, as its key named them; undefined when not heard. */
  of(id: string): string | undefined {
    return this.authors.get(id);
  }
}
