import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { cloudTemplates, messages } from "../../db/schema/index.js";

export type CloudTemplateRow = typeof cloudTemplates.$inferSelect;

/**
 * When the customer last wrote on this connection (any of their tickets there): the 24-hour window
 * runs from it. Reads the conversation index backwards to the first message from the customer.
 */
export async function lastInboundAt(
  db: Executor,
  companyId: number,
  contactId: number,
  whatsappId: number,
): Promise<Date | null> {
  const [row] = await db
    .select({ at: messages.createdAt })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.contactId, contactId),
        eq(messages.whatsappId, whatsappId),
        // The same condition as the conversation index (schema/tickets.ts), so it is used.
        ne(messages.mediaType, "reactionMessage"),
        eq(messages.fromMe, false),
        // A missed call is our note, not the customer writing.
        sql`${messages.mediaType} <> 'call_log'`,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return row?.at ?? null;
}

/** The templates stored for a connection, every status. */
export async function templateRows(
  db: Executor,
  companyId: number,
  whatsappId: number,
): Promise<CloudTemplateRow[]> {
  return db
    .select()
    .from(cloudTemplates)
    .where(and(eq(cloudTemplates.companyId, companyId), eq(cloudTemplates.whatsappId, whatsappId)))
    .orderBy(cloudTemplates.id);
}

/** The connection's list as Graph gave it now, in place of the stored one. */
export async function replaceTemplates(
  tx: Executor,
  companyId: number,
  whatsappId: number,
  rows: Omit<typeof cloudTemplates.$inferInsert, "companyId" | "whatsappId">[],
): Promise<void> {
  await tx
    .delete(cloudTemplates)
    .where(and(eq(cloudTemplates.companyId, companyId), eq(cloudTemplates.whatsappId, whatsappId)));
  if (rows.length)
    await tx
      .insert(cloudTemplates)
      .values(rows.map((r) => ({ ...r, companyId, whatsappId })))
      .onConflictDoNothing();
}

/**
 * A `message_template_status_update` webhook: the template (by Meta's id, or name and language) of
 * the WABA takes its new status on every listed connection. Answers how many stored rows changed.
 * Scoped by the connections the webhook's app secret reaches (the caller found them), not by company.
 */
export async function setTemplateStatus(
  db: Executor,
  whatsappIds: number[],
  wabaId: string,
  template: { metaId?: string; name?: string; language?: string },
  status: string,
  at: Date,
): Promise<number> {
  if (whatsappIds.length === 0) return 0;
  const byName =
    template.name && template.language
      ? and(eq(cloudTemplates.name, template.name), eq(cloudTemplates.language, template.language))
      : undefined;
  const byId = template.metaId ? eq(cloudTemplates.metaId, template.metaId) : undefined;
  if (!byName && !byId) return 0;
  const rows = await db
    .update(cloudTemplates)
    .set({ status, updatedAt: at })
    .where(
      and(
        inArray(cloudTemplates.whatsappId, whatsappIds),
        eq(cloudTemplates.wabaId, wabaId),
        or(byId, byName),
      ),
    )
    .returning({ id: cloudTemplates.id });
  return rows.length;
}

/** Forgets the stored lists of these connections: the next look asks Graph again (a template it did not have). */
export async function forgetTemplates(db: Executor, whatsappIds: number[], wabaId: string): Promise<void> {
  if (whatsappIds.length === 0) return;
  await db
    .delete(cloudTemplates)
    .where(and(inArray(cloudTemplates.whatsappId, whatsappIds), eq(cloudTemplates.wabaId, wabaId)));
}
