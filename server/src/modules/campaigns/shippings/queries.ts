import { type SQL, and, asc, eq, gt, ilike, inArray, or, sql } from "drizzle-orm";
import {
  CAMPAIGN_DEFAULT_OPT_OUT_WORDS,
  type CampaignShippingDTO,
  type CampaignTotals,
  type ShippingState,
} from "@atende/contracts";
import { type Executor, queryRows } from "../../../db/client.js";
import { PreparedSql, columnList, tableRow } from "../../../db/prepared.js";
import { campaignOptOuts, campaignShippings, contacts, messages, tickets } from "../../../db/schema/index.js";
import { type ShippingRow, presentShipping } from "../present.js";

/** The recipients' rows (one per recipient of a campaign), the audience they come from, and opt-outs. */

/** The audience's rows, made when the campaign starts (again on restart: only those not there yet). */
export async function insertAudience(
  tx: Executor,
  companyId: number,
  campaign: { id: number; contactListId: number | null; tagListId: number | null; whatsappId: number | null },
  at: Date,
): Promise<void> {
  const source = campaign.contactListId
    ? sql`select null::int as contact_id, name, number, email, is_whatsapp_valid from contact_list_items
          where company_id = ${companyId} and contact_list_id = ${campaign.contactListId} order by id`
    : sql`select c.id as contact_id, c.name, c.number, c.email, null::boolean as is_whatsapp_valid from contacts c
          where c.company_id = ${companyId} and not c.is_group and c.number <> '' and exists (
            select 1 from ticket_tags tt join tickets t on t.id = tt.ticket_id
            where tt.company_id = ${companyId} and tt.tag_id = ${campaign.tagListId} and t.contact_id = c.id)
          order by c.id`;
  await tx.execute(sql`insert into campaign_shippings
      (company_id, campaign_id, whatsapp_id, contact_id, number, name, email, state, error, created_at, updated_at)
    select ${companyId}, ${campaign.id}, ${campaign.whatsappId}, a.contact_id, a.number, coalesce(a.name, ''),
      coalesce(a.email, ''),
      case when a.is_whatsapp_valid = false then 'skipped'
           when exists (select 1 from campaign_opt_outs o where o.company_id = ${companyId} and o.number = a.number)
             then 'skipped'
           else 'pending' end,
      case when a.is_whatsapp_valid = false then 'ERR_CAMPAIGN_NOT_ON_WHATSAPP'
           when exists (select 1 from campaign_opt_outs o where o.company_id = ${companyId} and o.number = a.number)
             then 'ERR_CAMPAIGN_OPTED_OUT'
           else null end,
      ${at}, ${at}
    from (${source}) a
    on conflict (campaign_id, number) do nothing`);
  // On restart, the connection chosen now sends what is left.
  await tx
    .update(campaignShippings)
    .set({ whatsappId: campaign.whatsappId })
    .where(and(eq(campaignShippings.campaignId, campaign.id), eq(campaignShippings.state, "pending")));
}

/** How many an audience has, and how many of them opted out (the dialog shows it). */
export async function audienceCount(
  db: Executor,
  companyId: number,
  audience: { contactListId?: number | null; tagListId?: number | null },
) {
  const source = audience.contactListId
    ? sql`select number from contact_list_items where company_id = ${companyId} and contact_list_id = ${audience.contactListId}`
    : audience.tagListId
      ? sql`select c.number from contacts c where c.company_id = ${companyId} and not c.is_group and c.number <> ''
            and exists (select 1 from ticket_tags tt join tickets t on t.id = tt.ticket_id
              where tt.company_id = ${companyId} and tt.tag_id = ${audience.tagListId} and t.contact_id = c.id)`
      : null;
  if (!source) return { total: 0, optedOut: 0 };
  const [row] = await queryRows<{ total: number; opted_out: number }>(
    db,
    sql`select count(*)::int as total, count(o.id)::int as opted_out from (${source}) a
        left join campaign_opt_outs o on o.company_id = ${companyId} and o.number = a.number`,
  );
  return { total: row?.total ?? 0, optedOut: row?.opted_out ?? 0 };
}

/** The next recipient to send to (a peek, no lock). */
export async function peekPending(db: Executor, campaignId: number) {
  const [row] = await db
    .select()
    .from(campaignShippings)
    .where(and(eq(campaignShippings.campaignId, campaignId), eq(campaignShippings.state, "pending")))
    .orderBy(asc(campaignShippings.id))
    .limit(1);
  return row ?? null;
}

/** The numbers of the pending recipients after this one, in sending order (checked on WhatsApp with it). */
export async function pendingNumbersAfter(
  db: Executor,
  campaignId: number,
  shippingId: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ number: campaignShippings.number })
    .from(campaignShippings)
    .where(
      and(
        eq(campaignShippings.campaignId, campaignId),
        eq(campaignShippings.state, "pending"),
        gt(campaignShippings.id, shippingId),
      ),
    )
    .orderBy(asc(campaignShippings.id))
    .limit(limit);
  return rows.map((r) => r.number);
}

/** That recipient under lock, if still pending and nobody else holds it. */
export async function claimPending(tx: Executor, companyId: number, shippingId: number) {
  const [row] = await tx
    .select()
    .from(campaignShippings)
    .where(
      and(
        eq(campaignShippings.companyId, companyId),
        eq(campaignShippings.id, shippingId),
        eq(campaignShippings.state, "pending"),
      ),
    )
    .for("update", { skipLocked: true });
  return row ?? null;
}

export async function lockShipping(tx: Executor, companyId: number, shippingId: number) {
  const [row] = await tx
    .select()
    .from(campaignShippings)
    .where(and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.id, shippingId)))
    .for("update");
  return row ?? null;
}

export async function updateShipping(
  tx: Executor,
  companyId: number,
  id: number,
  values: Partial<typeof campaignShippings.$inferInsert>,
): Promise<ShippingRow | null> {
  const [row] = await tx
    .update(campaignShippings)
    .set(values)
    .where(and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.id, id)))
    .returning();
  return row ?? null;
}

/** Campaign messages a connection handed over since `since` (the daily cap), across campaigns. */
export async function countHandedSince(tx: Executor, companyId: number, whatsappId: number, since: Date) {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from campaign_shippings where company_id = ${companyId}
        and whatsapp_id = ${whatsappId}
        and (delivered_at >= ${since} or (delivered_at is null and confirmation_requested_at >= ${since}))`,
  );
  return row?.n ?? 0;
}

/** Recipients not yet settled: still to send, or waiting for their confirmation answer. */
export async function countOpen(tx: Executor, campaignId: number) {
  const [row] = await queryRows<{ pending: number; awaiting: number }>(
    tx,
    sql`select count(*) filter (where state = 'pending')::int as pending,
          count(*) filter (where state = 'awaiting_confirmation')::int as awaiting
        from campaign_shippings where campaign_id = ${campaignId}`,
  );
  return row ?? { pending: 0, awaiting: 0 };
}

export async function campaignTotals(
  db: Executor,
  companyId: number,
  campaignId: number,
): Promise<CampaignTotals> {
  const [r] = await queryRows<Record<string, number>>(
    db,
    sql`select count(*)::int as total,
          count(*) filter (where s.state <> 'skipped')::int as valid,
          count(*) filter (where s.state = 'pending')::int as pending,
          count(*) filter (where s.state = 'awaiting_confirmation')::int as awaiting,
          count(*) filter (where s.state = 'sent')::int as sent,
          count(*) filter (where s.state = 'sent' and m.ack >= 2)::int as delivered,
          count(*) filter (where s.state = 'sent' and m.ack >= 3)::int as read,
          count(*) filter (where s.confirmation_requested_at is not null)::int as confirmation_requested,
          count(*) filter (where s.confirmed_at is not null)::int as confirmed,
          count(*) filter (where s.state = 'unconfirmed')::int as unconfirmed,
          count(*) filter (where s.state = 'failed')::int as failed,
          count(*) filter (where s.state = 'skipped')::int as skipped,
          count(o.id)::int as opted_out
        from campaign_shippings s
        left join messages m on m.id = s.message_id and m.company_id = ${companyId}
        left join campaign_opt_outs o on o.company_id = ${companyId} and o.number = s.number
        where s.company_id = ${companyId} and s.campaign_id = ${campaignId}`,
  );
  return {
    total: r?.total ?? 0,
    valid: r?.valid ?? 0,
    pending: r?.pending ?? 0,
    awaitingConfirmation: r?.awaiting ?? 0,
    sent: r?.sent ?? 0,
    delivered: r?.delivered ?? 0,
    read: r?.read ?? 0,
    confirmationRequested: r?.confirmation_requested ?? 0,
    confirmed: r?.confirmed ?? 0,
    unconfirmed: r?.unconfirmed ?? 0,
    failed: r?.failed ?? 0,
    skipped: r?.skipped ?? 0,
    optedOut: r?.opted_out ?? 0,
  };
}

function shippingsWhere(companyId: number, campaignId: number, state?: ShippingState, search?: string) {
  const text = search ? `%${search.replace(/[%_\\]/g, "\\$&")}%` : null;
  return and(
    eq(campaignShippings.companyId, companyId),
    eq(campaignShippings.campaignId, campaignId),
    state ? eq(campaignShippings.state, state) : undefined,
    text ? or(ilike(campaignShippings.name, text), ilike(campaignShippings.number, text)) : undefined,
  );
}

/** The report's recipients, in the order they were added; `limit` null: all (the CSV). */
export async function listShippings(
  db: Executor,
  companyId: number,
  campaignId: number,
  opts: { state?: ShippingState; searchParam?: string; limit: number | null; offset: number },
): Promise<CampaignShippingDTO[]> {
  const query = db
    .select({ s: campaignShippings, ack: messages.ack })
    .from(campaignShippings)
    .leftJoin(messages, and(eq(messages.id, campaignShippings.messageId), eq(messages.companyId, companyId)))
    .where(shippingsWhere(companyId, campaignId, opts.state, opts.searchParam))
    .orderBy(asc(campaignShippings.id))
    .offset(opts.offset);
  const rows = opts.limit === null ? await query : await query.limit(opts.limit);
  return rows.map((r) => presentShipping(r.s, r.ack));
}

export async function countShippings(
  db: Executor,
  companyId: number,
  campaignId: number,
  state?: ShippingState,
  searchParam?: string,
) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(campaignShippings)
    .where(shippingsWhere(companyId, campaignId, state, searchParam));
  return row?.n ?? 0;
}

export async function shippingDTO(db: Executor, companyId: number, id: number) {
  const [row] = await db
    .select({ s: campaignShippings, ack: messages.ack })
    .from(campaignShippings)
    .leftJoin(messages, and(eq(messages.id, campaignShippings.messageId), eq(messages.companyId, companyId)))
    .where(and(eq(campaignShippings.companyId, companyId), eq(campaignShippings.id, id)));
  return row ? presentShipping(row.s, row.ack) : null;
}

/** The recipient rows a message of ours belongs to (campaign message or confirmation request). */
export async function shippingsOfMessage(tx: Executor, companyId: number, messageId: number) {
  return tx
    .select()
    .from(campaignShippings)
    .where(
      and(
        eq(campaignShippings.companyId, companyId),
        or(
          eq(campaignShippings.messageId, messageId),
          eq(campaignShippings.confirmationMessageId, messageId),
        ),
      ),
    );
}

/** A contact's rows waiting for the answer to a confirmation request. */
export async function awaitingOf(tx: Executor, companyId: number, contactId: number) {
  return awaitingOfContacts(tx, companyId, [contactId]);
}

/** The rows waiting for an answer of any of `contactIds` (a batch of customers' messages). */
export async function awaitingOfContacts(tx: Executor, companyId: number, contactIds: number[]) {
  if (contactIds.length === 0) return [];
  return tx
    .select()
    .from(campaignShippings)
    .where(
      and(
        eq(campaignShippings.companyId, companyId),
        inArray(campaignShippings.contactId, contactIds),
        eq(campaignShippings.state, "awaiting_confirmation"),
      ),
    );
}

const answersContextStatement = new PreparedSql<{ companyId: number; contactIds: string }>(
  "campaign_answers_context",
  sql`select (select coalesce(json_agg(json_build_object('key', s.key, 'value', s.value) order by s.id), '[]'::json)
              from campaign_settings s where s.company_id = ${sql.placeholder("companyId")}::int) as settings__,
        ${columnList(campaignShippings, "w")}
      from (select 1) as one
      left join campaign_shippings w on w.company_id = ${sql.placeholder("companyId")}::int
        and w.state = 'awaiting_confirmation'
        and w.contact_id in (select jsonb_array_elements_text(${sql.placeholder("contactIds")}::jsonb)::int)`,
);

/** Upper case, letters and digits only: what campaignMayAnswer compares. */
const squash = (text: SQL) => sql`regexp_replace(upper(${text}), '[^A-Z0-9]', '', 'g')`;

/**
 * SQL rows, one per company of `companyIds` (a subquery of company ids), with what campaignMayAnswer
 * compares a message to: `chosen`, whether the company chose its opt-out words, and `letters`, the
 * letters and digits of its words and the default ones, upper case. Read once a batch, not per message.
 */
export function campaignOptOutWords(companyIds: SQL): SQL {
  const defaults = CAMPAIGN_DEFAULT_OPT_OUT_WORDS.join(" ");
  return sql`select co.company_id, s.value is not null as chosen,
      ${squash(sql`coalesce(s.value, '') || ${defaults}::text`)} as letters
    from ${companyIds} as co (company_id)
      left join campaign_settings s on s.company_id = co.company_id and s.key = 'optOutWords'`;
}

/**
 * SQL, true for a customer's message (`body`, of contact `contactId` in `companyId`) that
 * campaignAnswersWithin (../answers.ts) may act on, and for more: the inbound quiet statement leaves
 * these to the transaction with the followers, which decides exactly. A recipient waiting for an
 * answer, or a text that may be an opt-out word: its letters and digits, upper case, found among
 * those of the company's words and the default ones (an exact word, whatever its case, accents,
 * spaces or final dots, always is; a text of no such letter is, when the company chose its words).
 * `words` is the company's row of campaignOptOutWords.
 */
export function campaignMayAnswer(companyId: SQL, contactId: SQL, body: SQL, words: SQL): SQL {
  return sql`(exists (select 1 from campaign_shippings w where w.company_id = ${companyId}
                 and w.contact_id = ${contactId} and w.state = 'awaiting_confirmation')
    or (btrim(${body}) <> '' and case
          when ${squash(body)} = '' then ${words}.chosen
          else position(${squash(body)} in ${words}.letters) > 0
        end))`;
}

/**
 * What a batch of customers' messages needs to act on campaigns, in one statement on the path of
 * every customer message: the company's campaign settings rows (the opt-out words are there) and the
 * rows of `contactIds` waiting for an answer.
 */
export async function answersContext(tx: Executor, companyId: number, contactIds: number[]) {
  const rows = await answersContextStatement.rows(tx, { companyId, contactIds: JSON.stringify(contactIds) });
  return {
    settingRows: (rows[0]?.settings__ ?? []) as { key: string; value: string }[],
    waiting: rows.filter((raw) => raw.id !== null).map((raw) => tableRow(campaignShippings, raw)),
  };
}

/** Records an opt-out (once per number) and skips that number wherever it still waits to be sent. */
export async function optOut(
  tx: Executor,
  companyId: number,
  v: { number: string; contactId: number; word: string; campaignId: number | null; at: Date },
) {
  await tx
    .insert(campaignOptOuts)
    .values({
      companyId,
      number: v.number,
      contactId: v.contactId,
      word: v.word,
      campaignId: v.campaignId,
      createdAt: v.at,
    })
    .onConflictDoNothing();
  return tx
    .update(campaignShippings)
    .set({ state: "skipped", error: "ERR_CAMPAIGN_OPTED_OUT", updatedAt: v.at })
    .where(
      and(
        eq(campaignShippings.companyId, companyId),
        eq(campaignShippings.number, v.number),
        or(eq(campaignShippings.state, "pending"), eq(campaignShippings.state, "awaiting_confirmation")),
      ),
    )
    .returning();
}

/** The contact of a number, made when the company has none yet (a list's people are not contacts yet). */
export async function contactFor(
  tx: Executor,
  companyId: number,
  person: { number: string; name: string; email: string },
  at: Date,
): Promise<number> {
  await tx
    .insert(contacts)
    .values({
      companyId,
      number: person.number,
      name: person.name || person.number,
      email: person.email,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, person.number)));
  return row!.id;
}

/**
 * The ticket the campaign message is written in: the contact's live ticket on the connection, or a
 * closed one made for it, so it is in the contact's history without filling the agents' queues.
 */
export async function ticketFor(tx: Executor, companyId: number, contactId: number, whatsappId: number) {
  const [live] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.contactId, contactId),
        eq(tickets.whatsappId, whatsappId),
        sql`${tickets.status} <> 'closed'`,
      ),
    )
    .limit(1);
  if (live) return live.id;
  const [made] = await tx
    .insert(tickets)
    .values({ companyId, contactId, whatsappId, status: "closed" })
    .returning({ id: tickets.id });
  return made!.id;
}

/** The WhatsApp id we gave a queued message (the provider sends it under that id). */
export async function widOf(tx: Executor, companyId: number, messageId: number): Promise<string | null> {
  const [row] = await tx
    .select({ wid: messages.wid })
    .from(messages)
    .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)));
  return row?.wid ?? null;
}
