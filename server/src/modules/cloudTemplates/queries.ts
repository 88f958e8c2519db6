import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { messages } from "../../db/schema/index.js";

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
