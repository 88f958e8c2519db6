import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "../../db/client.js";

/** Every helper takes the caller's companyId first: another company's file holds nothing. */

/** The tickets whose messages carry this file (a forwarded file is carried by several): who may see each. */
export async function ticketsCarrying(
  db: Executor,
  companyId: number,
  filePath: string,
): Promise<{ queueId: number | null; userId: number | null }[]> {
  const rows = await queryRows<{ queue_id: number | null; user_id: number | null }>(
    db,
    sql`select distinct t.queue_id, t.user_id
          from messages m join tickets t on t.id = m.ticket_id
         where m.company_id = ${companyId} and m.media_path = ${filePath}`,
  );
  return rows.map((r) => ({ queueId: r.queue_id, userId: r.user_id }));
}

/** Whether something of the company outside any ticket (a quick message, a schedule, a queue's or an option's greeting) carries the file. */
export async function carriedOutsideTickets(db: Executor, companyId: number, filePath: string) {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select exists (select 1 from quick_messages where company_id = ${companyId} and media_path = ${filePath})
            or exists (select 1 from schedules where company_id = ${companyId} and media_path = ${filePath})
            or exists (select 1 from queues where company_id = ${companyId} and media_path = ${filePath})
            or exists (select 1 from queue_options where company_id = ${companyId} and media_path = ${filePath})
            as found`,
  );
  return row?.found === true;
}
