import type { SimulatorPhoneMessage } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import { GroupCommit } from "../../db/groupCommit.js";
import type { simulatorMessages } from "../../db/schema/index.js";
import type { EventBus } from "../../events/bus.js";
import { advancePhoneAcks, changePhoneMessage, findPhoneMessage, recordPhoneMessages } from "./queries.js";

export type PhoneRow = typeof simulatorMessages.$inferSelect;
type PhoneRecord = Omit<typeof simulatorMessages.$inferInsert, "id" | "isDeleted" | "createdAt"> & {
  createdAt: Date;
};

/** What a simulated phone shows of one message; media goes through the authenticated media route. */
export function presentPhoneMessage(r: PhoneRow): SimulatorPhoneMessage {
  return {
    id: r.providerId,
    direction: r.direction,
    body: r.isDeleted ? "" : r.body,
    kind: r.kind,
    media: r.media
      ? {
          filename: r.media.filename,
          mimetype: r.media.mimetype,
          url: `/media/${r.media.path}`,
          ...(r.media.voiceNote ? { voiceNote: true } : {}),
        }
      : null,
    quotedId: r.quotedId,
    ack: r.ack,
    isDeleted: r.isDeleted,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The simulated phones' message book: both the phone side (routes) and the business side (provider) write it. */
export class PhoneBook {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

  /**
   * The "typing…" the business showed each simulated phone (connection:number → how many times, and
   * the last state): this instance's memory only, as a phone's screen would show it.
   */
  private readonly presences = new Map<string, { state: string; count: number }>();

  showPresence(whatsappId: number, number: string, state: string) {
    const key = `${whatsappId}:${number}`;
    this.presences.set(key, { state, count: (this.presences.get(key)?.count ?? 0) + 1 });
  }

  /** Chats whose presence the business asked to hear (an agent opened them): connection:number. */
  private readonly watched = new Set<string>();

  watchPresence(whatsappId: number, number: string) {
    this.watched.add(`${whatsappId}:${number}`);
  }

  presenceWatched(whatsappId: number, number: string): boolean {
    return this.watched.has(`${whatsappId}:${number}`);
  }

  presenceShown(whatsappId: number, number: string) {
    return this.presences.get(`${whatsappId}:${number}`) ?? null;
  }

  private async announce(rows: PhoneRow[]) {
    await this.bus.publish(
      rows.map((r) => ({
        type: "simulator.phone" as const,
        companyId: r.companyId,
        whatsappId: r.whatsappId,
        number: r.number,
        message: presentPhoneMessage(r),
      })),
    );
  }

  private readonly records = new GroupCommit<PhoneRecord, PhoneRow>(async (records) => {
    // The same provider id twice in one batch is one row (an upsert cannot touch a row twice).
    const unique = new Map<string, number>();
    const rows = [];
    for (const r of records) {
      if (unique.has(r.providerId)) continue;
      unique.set(r.providerId, rows.length);
      rows.push({
        idx: rows.length,
        company_id: r.companyId,
        whatsapp_id: r.whatsappId,
        number: r.number,
        direction: r.direction,
        provider_id: r.providerId,
        body: r.body ?? "",
        kind: r.kind ?? "text",
        media: r.media ?? null,
        quoted_id: r.quotedId ?? null,
        ack: r.ack ?? 1,
        created_at: r.createdAt.toISOString(),
      });
    }
    const byId = await recordPhoneMessages(this.db, rows);
    return records.map((r) => byId.get(r.providerId)!);
  });

  /** Records whose rows are not known yet (recordWhen), per connection, in the order asked. */
  private readonly held = new Map<number, Set<Promise<void>>>();

  /** Waits until the records asked for before now are in the lane (where the lane keeps their order). */
  private async inTurn(whatsappId: number): Promise<void> {
    await Promise.all([...(this.held.get(whatsappId) ?? [])]);
  }

  /** Writes a message into the phone's book; the same provider id twice is one message. */
  async record(row: PhoneRecord): Promise<PhoneRow> {
    await this.inTurn(row.whatsappId);
    const phoneRow = await this.records.submit(row.whatsappId, row);
    await this.announce([phoneRow]);
    return phoneRow;
  }

  /**
   * Records a message whose row is known only once `decided` settles (the phone's message, delivered
   * or not once the business answered), in the place it was asked for: every record, tick or read of
   * the connection asked for after this call waits for it (a bot's reply is never booked before the
   * question, a read tick never misses it).
   */
  recordWhen(whatsappId: number, decided: Promise<PhoneRecord>): Promise<PhoneRow> {
    const set = this.held.get(whatsappId) ?? new Set<Promise<void>>();
    this.held.set(whatsappId, set);
    const submitted = decided.then((row) => ({ written: this.records.submit(whatsappId, row) }));
    const hold = submitted.then(
      () => undefined,
      () => undefined,
    );
    set.add(hold);
    void hold.then(() => {
      set.delete(hold);
      if (set.size === 0 && this.held.get(whatsappId) === set) this.held.delete(whatsappId);
    });
    return submitted.then(async ({ written }) => {
      const phoneRow = await written;
      await this.announce([phoneRow]);
      return phoneRow;
    });
  }

  /**
   * Resolves once every record asked for on the connection so far is written: the book's readers
   * and updaters wait for it, so they see a message whose record is still on its way.
   */
  async settled(whatsappId: number): Promise<void> {
    await this.inTurn(whatsappId);
    await this.records.settled(whatsappId);
  }

  /** Moves acks forward only, for the given messages of one direction. */
  async advance(
    whatsappId: number,
    direction: "in" | "out",
    ack: number,
    where: { ids?: string[]; number?: string },
  ) {
    await this.settled(whatsappId);
    const rows = await advancePhoneAcks(this.db, whatsappId, direction, ack, where);
    await this.announce(rows);
    return rows;
  }

  async change(
    whatsappId: number,
    providerId: string,
    patch: { body?: string; isDeleted?: boolean; kind?: string },
  ) {
    await this.settled(whatsappId);
    const rows = await changePhoneMessage(this.db, whatsappId, providerId, patch);
    await this.announce(rows);
    return rows[0] ?? null;
  }

  async find(whatsappId: number, providerId: string): Promise<PhoneRow | null> {
    await this.settled(whatsappId);
    return findPhoneMessage(this.db, whatsappId, providerId);
  }
}
