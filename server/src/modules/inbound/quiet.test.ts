import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client.js";
import { contacts, jobs, messages, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, customerTextItem, phoneSends } from "../../test/channels.js";
import { newNumber } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { type ConversationItem, storeQuietMessages } from "./queries.js";

/**
 * The quiet statement (batchQueries.ts, quietBatch): a plain batch commits as one statement with the
 * bot's turns, and every message a follower may act on is left to the transaction with them.
 */

let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;

beforeAll(async () => {
  ctx = await createTestContext();
  team = await buildSimulatorCompany(ctx, { bot: true });
});
afterAll(() => ctx.close());

const send = (payload: Record<string, unknown>) =>
  phoneSends(ctx, team.adminLogin, team.connection.id, payload);

/** A customer with a live ticket on the connection (their first message opened it). */
async function customer(name = "Cliente Quieto") {
  const number = newNumber();
  expect((await send({ from: number, name, body: "primeira" })).statusCode).toBe(201);
  const [row] = await ctx.deps.db
    .select({ contactId: contacts.id, ticketId: tickets.id })
    .from(contacts)
    .innerJoin(tickets, eq(tickets.contactId, contacts.id))
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));
  return { number, ...row! };
}

let wids = 0;
const item = (number: string, body: string, name = "Cliente Quieto"): ConversationItem =>
  customerTextItem(
    { companyId: team.company.id, whatsappId: team.connection.id },
    { number, body, name, wid: `QUIET-${++wids}-${Date.now()}` },
  );

async function setOptOutWords(words: string[]) {
  await ctx.deps.db.execute(sql`
    insert into campaign_settings (company_id, key, value) values (${team.company.id}, 'optOutWords', ${JSON.stringify(words)})
    on conflict (company_id, key) do update set value = excluded.value`);
}

/** A campaign of the company with one recipient's row in `state` (awaiting an answer, or pending). */
async function campaignWith(recipient: { contactId: number; number: string }, state: string) {
  const [campaign] = await queryRows<{ id: number }>(
    ctx.deps.db,
    sql`insert into campaigns (company_id, name) values (${team.company.id}, 'Quiet') returning id`,
  );
  await ctx.deps.db.execute(sql`
    insert into campaign_shippings (company_id, campaign_id, contact_id, number, state)
    values (${team.company.id}, ${campaign!.id}, ${recipient.contactId}, ${recipient.number}, ${state})`);
  return campaign!;
}

describe("the quiet statement", () => {
  it("stores a live conversation's messages in order with their bot turns, and leaves every message a follower may act on", async () => {
    await setOptOutWords(["NÃO QUERO", "sair"]);
    const plain = await customer();
    const waiting = await customer();
    await campaignWith(waiting, "awaiting_confirmation");
    const optingOut = await customer();
    const accented = await customer();
    const renamed = newNumber();
    await ctx.deps.db.insert(contacts).values({ companyId: team.company.id, name: renamed, number: renamed });
    const stranger = newNumber();

    const items = [
      item(plain.number, "bom dia"),
      item(waiting.number, "sim, quero"),
      item(plain.number, "tudo bem?"),
      item(optingOut.number, "  Sair!! "),
      item(accented.number, "não quero."),
      item(renamed, "oi", "Nome Novo"),
      item(stranger, "olá"),
    ];
    const { results, turns } = await storeQuietMessages(ctx.deps.db, items);

    // The plain customer's two messages are stored, in order, on their live ticket.
    const [first, , second] = results;
    expect(first?.ticket.id).toBe(plain.ticketId);
    expect(second?.ticket.id).toBe(plain.ticketId);
    expect(first!.message.id).toBeLessThan(second!.message.id);
    expect(first).toMatchObject({ quiet: true, firstOfTicket: true, created: false, changed: false });
    expect(second).toMatchObject({ quiet: true, firstOfTicket: false });
    // Left for the followers: a recipient awaiting an answer, two opt-out words (case, accents, spaces
    // and final marks aside), a contact renamed by the phone, and a customer new to the company.
    expect(results.slice(1)).toEqual([
      undefined,
      expect.anything(),
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, plain.ticketId));
    expect(stored.map((m) => m.body)).toEqual(["primeira", "bom dia", "tudo bem?"]);
    const left = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from messages where wid in (${sql.join(
        items.slice(3).map((i) => sql`${i.values.wid}`),
        sql`, `,
      )}) or wid = ${items[1]!.values.wid}`,
    );
    expect(left[0]!.n).toBe(0);

    // The bot serves the waiting ticket: each stored message has its turn, queued by the statement.
    expect(turns).toBe(2);
    const queued = await ctx.deps.db
      .select({ key: jobs.dedupeKey })
      .from(jobs)
      .where(
        sql`${jobs.dedupeKey} in (${`chatbot:message:${first!.message.id}`}, ${`chatbot:message:${second!.message.id}`})`,
      );
    expect(queued).toHaveLength(2);
  });

  it("only reads a quiet contact, and leaves a message that brings the contact a new LID", async () => {
    const plain = await customer();
    const learning = await customer();
    const versionOf = async (id: number) =>
      (
        await queryRows<{ v: string }>(
          ctx.deps.db,
          sql`select xmin::text as v from contacts where id = ${id}`,
        )
      )[0]!.v;
    const before = await versionOf(plain.contactId);
    const withLid = item(learning.number, "agora com LID");
    withLid.values.lid = "123456789012345@lid";

    const { results } = await storeQuietMessages(ctx.deps.db, [item(plain.number, "oi de novo"), withLid]);

    expect(results[0]?.ticket.id).toBe(plain.ticketId);
    expect(await versionOf(plain.contactId)).toBe(before);
    // The LID is the full path's to store, with the followers.
    expect(results[1]).toBeUndefined();
    const [contact] = await ctx.deps.db
      .select({ lid: contacts.lid })
      .from(contacts)
      .where(eq(contacts.id, learning.contactId));
    expect(contact!.lid).toBeNull();
  });

  it("the same batch through the pipeline: the opt-out and the awaited answer still act on the campaign", async () => {
    await setOptOutWords(["NÃO QUERO"]);
    const optingOut = await customer();
    const campaign = await campaignWith(optingOut, "pending");
    expect((await send({ from: optingOut.number, body: "Não quero!" })).statusCode).toBe(201);
    const [row] = await queryRows<{ state: string }>(
      ctx.deps.db,
      sql`select state from campaign_shippings where campaign_id = ${campaign.id}`,
    );
    expect(row!.state).toBe("skipped");
  });

  it("a follower that declares itself quiet but writes fails the message, in tests", async () => {
    const plain = await customer();
    const off = ctx.deps.bus.within(
      async (tx, events) => {
        if (events.some((e) => e.type === "message.saved"))
          await tx.execute(sql`insert into campaign_settings (company_id, key, value)
                               values (${team.company.id}, 'quietProbe', '1')`);
      },
      () => true,
    );
    try {
      const res = await send({ from: plain.number, body: "um recado" });
      expect(res.statusCode).toBe(500);
    } finally {
      off();
    }
    const probe = await queryRows(
      ctx.deps.db,
      sql`select 1 from campaign_settings where company_id = ${team.company.id} and key = 'quietProbe'`,
    );
    expect(probe).toHaveLength(0);
  });
});
