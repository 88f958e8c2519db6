import type { Db } from "../db/client.js";
import type { whatsapps } from "../db/schema/index.js";
import type { DomainEvent } from "../events/bus.js";
import { loadConnectionRow } from "./sessionState/queries.js";

export type ConnectionRow = typeof whatsapps.$inferSelect;

interface Entry {
  row: ConnectionRow | null;
  loadedAt: number;
}

/**
 * A connection's row for the hot paths that read it on every message (the simulator phone's
 * connection check, the chatbot's timers): read once, then kept while fresh. This instance forgets
 * a connection as soon as it publishes a change to it (`whatsapp.saved`, `whatsapp.session`,
 * `whatsapp.deleted`), so its own edits, pairings and status changes are seen by the next message;
 * a change made by another instance is seen within `ttlMs` (2 s by default). Writers and
 * transactions read the table itself, never this.
 */
export class ConnectionCache {
  private readonly entries = new Map<number, Entry>();
  private readonly loading = new Map<number, Promise<ConnectionRow | null>>();
  /** Bumped by every forget of an id: a read that started before a change must not store what it read. */
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 2_000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** A committed change of a connection: its row is read again (registered in listeners.ts). */
  heard(event: DomainEvent): void {
    if (event.type === "whatsapp.saved") this.forget(event.whatsapp.id);
    else if (event.type === "whatsapp.session") this.forget(event.session.id);
    else if (event.type === "whatsapp.deleted") this.forget(event.whatsappId);
  }

  /** The company's connection, or null when it has none by that id. */
  async get(companyId: number, id: number): Promise<ConnectionRow | null> {
    const entry = this.entries.get(id);
    const row = entry && this.clock() - entry.loadedAt < this.ttlMs ? entry.row : await this.load(id);
    return row && row.companyId === companyId ? row : null;
  }

  /**
   * The company's connection when it is held fresh now (null: none by that id), undefined when
   * it would have to be read: for a hot path that would rather not make a promise per message.
   */
  fresh(companyId: number, id: number): ConnectionRow | null | undefined {
    const entry = this.entries.get(id);
    if (!entry || this.clock() - entry.loadedAt >= this.ttlMs) return undefined;
    return entry.row && entry.row.companyId === companyId ? entry.row : null;
  }

  forget(id: number): void {
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
    this.entries.delete(id);
    this.loading.delete(id);
  }

  private load(id: number): Promise<ConnectionRow | null> {
    const pending = this.loading.get(id);
    if (pending) return pending;
    const generation = this.generations.get(id) ?? 0;
    const loadedAt = this.clock();
    const read = loadConnectionRow(this.db, id)
      .then((row) => {
        if ((this.generations.get(id) ?? 0) === generation) {
          this.entries.set(id, { row, loadedAt });
          // Connections are few; bound the map anyway (a scan of ids must not grow it forever).
          if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
        }
        return row;
      })
      .finally(() => {
        if (this.loading.get(id) === read) this.loading.delete(id);
      });
    this.loading.set(id, read);
    return read;
  }
}
