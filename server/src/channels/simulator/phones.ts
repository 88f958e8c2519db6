import { and, eq, inArray, sql } from "drizzle-orm";
import type { SimulatorPhoneMessage } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import { simulatorMessages } from "../../db/schema/index.js";
import type { EventBus } from "../../events/bus.js";

export type PhoneRow = typeof simulatorMessages.$inferSelect;

/** What a simulated phone shows of one message; media goes through the authenticated media route. */
export function presentPhoneMessage(r: PhoneRow): SimulatorPhoneMessage {
  return {
    id: r.providerId,
    direction: r.direction,
    body: r.isDeleted ? "" : r.body,
    kind: r.kind,
    media: r.media
      ? { filename: r.media.filename, mimetype: r.media.mimetype, url: `/media/${r.media.path}` }
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

  async record(row: typeof simulatorMessages.$inferInsert): Promise<PhoneRow> {
    const [saved] = await this.db
      .insert(simulatorMessages)
      .values(row)
      .onConflictDoUpdate({
        target: [simulatorMessages.whatsappId, simulatorMessages.providerId],
        set: { providerId: sql`excluded.provider_id` },
      })
      .returning();
    await this.announce([saved!]);
    return saved!;
  }

  /** Moves acks forward only, for the given messages of one direction. */
  async advance(
    whatsappId: number,
    direction: "in" | "out",
    ack: number,
    where: { ids?: string[]; number?: string },
  ) {
    const conditions = [
      eq(simulatorMessages.whatsappId, whatsappId),
      eq(simulatorMessages.direction, direction),
      sql`${simulatorMessages.ack} < ${ack}`,
    ];
    if (where.ids)
      conditions.push(inArray(simulatorMessages.providerId, where.ids.length ? where.ids : [""]));
    if (where.number) conditions.push(eq(simulatorMessages.number, where.number));
    const rows = await this.db
      .update(simulatorMessages)
      .set({ ack })
      .where(and(...conditions))
      .returning();
    await this.announce(rows);
    return rows;
  }

  async change(whatsappId: number, providerId: string, patch: { body?: string; isDeleted?: boolean }) {
    const rows = await this.db
      .update(simulatorMessages)
      .set(patch)
      .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.providerId, providerId)))
      .returning();
    await this.announce(rows);
    return rows[0] ?? null;
  }

  async find(whatsappId: number, providerId: string): Promise<PhoneRow | null> {
    const [row] = await this.db
      .select()
      .from(simulatorMessages)
      .where(and(eq(simulatorMessages.whatsappId, whatsappId), eq(simulatorMessages.providerId, providerId)));
    return row ?? null;
  }
}
