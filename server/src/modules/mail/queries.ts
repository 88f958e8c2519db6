import { desc, lt } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { mailOutbox } from "../../db/schema/index.js";

/** How many mails the dev outbox keeps (the newest). */
export const OUTBOX_KEEP = 50;

// The outbox is platform-wide (no company): the mail of every company lands in it, in development
// only, and only the super user reads it.

export async function insertOutboxMail(
  db: Executor,
  mail: { to: string; subject: string; text: string; html: string },
): Promise<void> {
  const [row] = await db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
  // Keep the newest OUTBOX_KEEP: ids grow with time.
  await db.delete(mailOutbox).where(lt(mailOutbox.id, row!.id - OUTBOX_KEEP + 1));
}

export async function listOutbox(db: Executor) {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(OUTBOX_KEEP);
}
