import pg from "pg";

/**
 * Gives the bench's company a history: `contacts` earlier customers (numbers outside the phones'
 * range, phoneOf), each with one closed ticket on the bench's connection, then ANALYZE, so the
 * planner plans the hot path's statements for a company of that size (BENCH_HISTORY_CONTACTS). A
 * company of 60 contacts hides a plan that reads every contact of the company each batch.
 */
export async function addHistory(
  databaseUrl: string,
  companyId: number,
  whatsappId: number,
  contacts: number,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `with earlier as (
         insert into contacts (company_id, name, number, is_group, created_at, updated_at)
         select $1::int, 'Cliente antigo ' || g, '5521' || lpad(g::text, 9, '0'), false,
           now() - interval '90 days', now() - interval '90 days'
         from generate_series(1, $3::int) g
         returning id, created_at
       )
       insert into tickets (company_id, contact_id, whatsapp_id, status, is_group, last_message,
                            unread_messages, created_at, updated_at)
       select $1::int, e.id, $2::int, 'closed', false, 'Obrigado!', 0, e.created_at, e.created_at
       from earlier e`,
      [companyId, whatsappId, contacts],
    );
    await client.query("analyze contacts, tickets");
  } finally {
    await client.end();
  }
}
