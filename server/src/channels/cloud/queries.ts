import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { whatsapps } from "../../db/schema/index.js";

/**
 * A Cloud API connection by id, within the company when one is known. Meta's webhook call names
 * only the connection (its URL): the company is learned from the row, whose secrets the caller checks.
 */
export async function findCloudConnectionRow(
  db: Db,
  companyId: number | null | undefined,
  id: number,
): Promise<typeof whatsapps.$inferSelect | null> {
  const [row] = await db
    .select()
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.id, id),
        eq(whatsapps.provider, "cloud"),
        companyId != null ? eq(whatsapps.companyId, companyId) : undefined,
      ),
    );
  return row ?? null;
}
