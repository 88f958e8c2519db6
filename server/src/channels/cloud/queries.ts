import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.js";
import { contacts, messages, whatsapps } from "../../db/schema/index.js";

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

/**
 * A send whose answer was lost (ERR_WAPP_SEND_UNKNOWN) recognised in a status webhook by the id we
 * gave it (biz_opaque_callback_data): it takes Meta's message id, so that status and the next ones
 * find it, and loses its "unknown" mark. Answers whether a message was settled.
 */
export async function settleUnknownSend(
  db: Db,
  companyId: number,
  whatsappId: number,
  ourId: string,
  wamid: string,
): Promise<boolean> {
  const rows = await db
    .update(messages)
    .set({
      wid: wamid,
      sendError: sql`case when ${messages.sendError} like 'ERR_WAPP_SEND_UNKNOWN%' then null else ${messages.sendError} end`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.whatsappId, whatsappId),
        eq(messages.wid, ourId),
        eq(messages.fromMe, true),
      ),
    )
    .returning({ id: messages.id });
  return rows.length > 0;
}

/** The contact a Cloud customer is known by: number first, else business-scoped user id. */
export async function findCloudContact(
  db: Executor,
  companyId: number,
  by: { number: string; userId?: string },
): Promise<typeof contacts.$inferSelect | null> {
  const match = by.number
    ? eq(contacts.number, by.number)
    : by.userId
      ? eq(contacts.lid, by.userId)
      : undefined;
  if (!match) return null;
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.isGroup, false), match));
  return row ?? null;
}

/** Whether another contact of the company already has this number or user id. */
export async function contactHolding(
  db: Executor,
  companyId: number,
  exceptId: number,
  field: "number" | "lid",
  value: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts[field], value), ne(contacts.id, exceptId)));
  return Boolean(row);
}

export async function updateCloudContact(
  db: Executor,
  companyId: number,
  id: number,
  patch: { number?: string; lid?: string },
): Promise<typeof contacts.$inferSelect | null> {
  const [row] = await db
    .update(contacts)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)))
    .returning();
  return row ?? null;
}

/**
 * Every Cloud API connection of one Meta app: those holding its app secret (the webhook's signature
 * proved the sender knows it). Meta posts the events of all the app's numbers to one callback URL,
 * so each change is routed among these by its phone number id. Across companies on purpose: one app
 * (a tech provider's) may serve several; only the secret's holder could have signed the body.
 */
export async function cloudConnectionsOfApp(
  db: Db,
  appSecret: string,
): Promise<(typeof whatsapps.$inferSelect)[]> {
  return db
    .select()
    .from(whatsapps)
    .where(
      and(eq(whatsapps.provider, "cloud"), sql`${whatsapps.providerConfig} ->> 'appSecret' = ${appSecret}`),
    )
    .orderBy(asc(whatsapps.id));
}
