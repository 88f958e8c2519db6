import { and, eq, inArray, sql } from "drizzle-orm";
import type { SimulatorPhoneMessage } from "@atende/contracts";
import type { Db } from "../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../db/prepared.js";
import { simulatorMessages } from "../../db/schema/index.js";
import type { EventBus } from "../../events/bus.js";

export type PhoneRow = typeof simulatorMessages.$inferSelect;
type PhoneRecord = Omit<typeof simulatorMessages.$inferInsert, "id" | "isDeleted" | "createdAt"> & {
  createdAt: Date;
};

// Every phone message passes here, in both directions: prepared (see PreparedSql).
const recordStatement = new PreparedSql<Record<keyof PhoneRecord, unknown>>(
  "simulator_record",
  sql`insert into simulator_messages
        (company_id, whatsapp_id, number, direction, provider_id, body, kind, media, quoted_id, ack, created_at)
      values (${p("companyId")}::int, ${p("whatsappId")}::int, ${p("number")}::text, ${p("direction")}::text,
        ${p("providerId")}::text, ${p("body")}::text, ${p("kind")}::text, ${p("media")}::jsonb,
        ${p("quotedId")}::text, ${p("ack")}::smallint, ${p("createdAt")}::timestamptz)
      on conflict (whatsapp_id, provider_id) do update set provider_id = excluded.provider_id
      returning ${columnList(simulatorMessages)}`,
);
const deliveredStatement = new PreparedSql<{ id: number }>(
  "simulator_delivered",
  sql`update simulator_messages set ack = 3
      where id = ${p("id")}::bigint and direction = 'in' and ack < 3
      returning ${columnList(simulatorMessages)}`,
);

function p(name: string) {
  return sql.placeholder(name);
}

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

  /** Writes a message into the phone's book; the same provider id twice is one message. */
  async record(row: PhoneRecord): Promise<PhoneRow> {
    const [saved] = await recordStatement.rows(this.db, {
      ...row,
      body: row.body ?? "",
      kind: row.kind ?? "text",
      media: row.media ? JSON.stringify(row.media) : null,
      quotedId: row.quotedId ?? null,
      ack: row.ack ?? 1,
      createdAt: row.createdAt.toISOString(),
    });
    const phoneRow = tableRow(simulatorMessages, saved!);
    await this.announce([phoneRow]);
    return phoneRow;
  }

  /** The phone's own message reached the business: delivered (ack 3), never moved back. */
  async markDelivered(row: PhoneRow): Promise<PhoneRow | null> {
    const [saved] = await deliveredStatement.rows(this.db, { id: row.id });
    if (!saved) return null;
    const phoneRow = tableRow(simulatorMessages, saved);
    await this.announce([phoneRow]);
    return phoneRow;
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
