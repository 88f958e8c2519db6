import { and, eq, or, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.js";
import { contacts, messages, ticketNotes, tickets } from "../db/schema/index.js";
import type { DomainEvent } from "../events/bus.js";
import { buildSimulatorCompany } from "../test/channels.js";
import { CONTACT_REFERENCES } from "../modules/contacts/queries.js";
import { buildConnection, newNumber } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import type { ChannelAddress, ConnectionInfo } from "./provider.js";

/**
 * WhatsApp names one person by phone number or by privacy id (LID), and tells the pair only
 * sometimes: whatever the order the two forms arrive in, the customer is one contact and no
 * message is lost.
 */

let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let main: ConnectionInfo;
let second: ConnectionInfo;

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx, { bot: false });
  const info = (id: number): ConnectionInfo => ({
    id,
    companyId: team.company.id,
    name: "",
    number: "",
    config: {},
  });
  main = info(team.connection.id);
  second = info((await buildConnection(ctx.deps.db, team.company.id, { status: "CONNECTED" })).id);
});
afterAll(() => ctx.close());

let seq = 0;
const newLid = () => `${90_000_000_000_000 + Math.floor(Math.random() * 1e12) * 1000 + ++seq}`;

function say(connection: ConnectionInfo, chat: Omit<ChannelAddress, "isGroup">, body: string) {
  return ctx.built.channels.inbound.handle(connection, {
    type: "message",
    message: {
      id: `LIDTEST-${++seq}`,
      chat: { ...chat, isGroup: false },
      fromMe: false,
      pushName: "Paula",
      timestamp: new Date(),
      kind: "text",
      body,
    },
  });
}

/** Every contact of the company holding the number or the LID. */
function contactsOf(number: string, lid: string) {
  return ctx.deps.db
    .select()
    .from(contacts)
    .where(
      and(eq(contacts.companyId, team.company.id), or(eq(contacts.number, number), eq(contacts.lid, lid))),
    );
}

async function onlyContact(number: string, lid: string) {
  const rows = await contactsOf(number, lid);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

function ticketsOf(contactId: number) {
  return ctx.deps.db.select().from(tickets).where(eq(tickets.contactId, contactId)).orderBy(tickets.id);
}

async function bodiesOf(ticketId: number) {
  const rows = await ctx.deps.db
    .select()
    .from(messages)
    .where(eq(messages.ticketId, ticketId))
    .orderBy(messages.id);
  return rows.map((m) => m.body);
}

function listen() {
  const heard: DomainEvent[] = [];
  const stop = ctx.deps.bus.on((e) => void heard.push(e));
  return { heard, stop };
}

describe("a customer known by LID and by number", () => {
  it("first seen by LID alone, then by number and LID: one contact with the number filled in, one ticket, no message lost", async () => {
    const number = newNumber();
    const lid = newLid();
    await say(main, { number: "", lid }, "oi, sou eu");
    await say(main, { number, lid }, "meu pedido não chegou");
    const contact = await onlyContact(number, lid);
    expect(contact).toMatchObject({ number, lid, name: "Paula" });
    const [ticket, ...others] = await ticketsOf(contact.id);
    expect(others).toHaveLength(0);
    expect(await bodiesOf(ticket!.id)).toEqual(["oi, sou eu", "meu pedido não chegou"]);
    expect(ticket).toMatchObject({
      status: "pending",
      unreadMessages: 2,
      lastMessage: "meu pedido não chegou",
    });
  });

  it("first seen by number, then by LID alone (two contacts), merged when a message shows both: one contact, one live ticket with every message, in order", async () => {
    const number = newNumber();
    const lid = newLid();
    await say(main, { number }, "primeira");
    await say(main, { number: "", lid }, "segunda, pelo LID");
    const before = await contactsOf(number, lid);
    expect(before).toHaveLength(2); // WhatsApp had not told the pair yet
    const lidOnly = before.find((c) => c.number === "")!;
    const [lidTicket] = await ticketsOf(lidOnly.id);
    await ctx.deps.db.insert(ticketNotes).values({
      companyId: team.company.id,
      ticketId: lidTicket!.id,
      contactId: lidOnly.id,
      userId: team.admin.id,
      note: "cliente pediu retorno",
    });

    const { heard, stop } = listen();
    try {
      await say(main, { number, lid }, "terceira, com os dois");
    } finally {
      stop();
    }

    const contact = await onlyContact(number, lid);
    expect(contact).toMatchObject({ number, lid });
    const live = (await ticketsOf(contact.id)).filter((t) => t.status !== "closed");
    expect(live).toHaveLength(1);
    expect(await bodiesOf(live[0]!.id)).toEqual(["primeira", "segunda, pelo LID", "terceira, com os dois"]);
    expect(live[0]).toMatchObject({ unreadMessages: 3, lastMessage: "terceira, com os dois" });
    const notes = await ctx.deps.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, live[0]!.id));
    expect(notes.map((n) => [n.note, n.contactId])).toEqual([["cliente pediu retorno", contact.id]]);
    // The chat shows the conversation by contact: every message now belongs to the one contact.
    const orphans = await ctx.deps.db.select().from(messages).where(eq(messages.contactId, lidOnly.id));
    expect(orphans).toHaveLength(0);
    // The agents' lists hear that the LID-only contact and its ticket are gone.
    expect(heard).toContainEqual(expect.objectContaining({ type: "contact.deleted", contactId: lidOnly.id }));
    expect(heard).toContainEqual(
      expect.objectContaining({ type: "ticket.deleted", ticketId: lidTicket!.id }),
    );
  });

  it("first seen by number, then by LID alone, merged when WhatsApp tells the pair (a contact update with both)", async () => {
    const number = newNumber();
    const lid = newLid();
    await say(main, { number }, "pelo número");
    await say(second, { number: "", lid }, "pelo LID, noutra conexão");
    expect(await contactsOf(number, lid)).toHaveLength(2);

    await ctx.built.channels.inbound.handle(main, {
      type: "contact",
      address: { number, lid, isGroup: false },
    });

    const contact = await onlyContact(number, lid);
    expect(contact).toMatchObject({ number, lid });
    // One ticket per connection, both the same customer's.
    const all = await ticketsOf(contact.id);
    expect(all.map((t) => t.whatsappId).sort()).toEqual([main.id, second.id].sort());
    for (const t of all) expect(await bodiesOf(t.id)).toHaveLength(1);
  });

  it("a closed ticket of the LID-only contact moves to the merged contact as it is", async () => {
    const number = newNumber();
    const lid = newLid();
    await say(main, { number: "", lid }, "conversa antiga");
    const [lidOnly] = await contactsOf(number, lid);
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.contactId, lidOnly!.id));
    await say(main, { number }, "conversa nova pelo número");
    await say(main, { number, lid }, "agora com os dois");
    const contact = await onlyContact(number, lid);
    const all = await ticketsOf(contact.id);
    expect(all.map((t) => t.status)).toEqual(["closed", "pending"]);
    expect(await bodiesOf(all[0]!.id)).toEqual(["conversa antiga"]);
    expect(await bodiesOf(all[1]!.id)).toEqual(["conversa nova pelo número", "agora com os dois"]);
  });

  it("messages by LID alone, by number alone and by both, arriving at once on two connections: one contact, every message kept", async () => {
    const number = newNumber();
    const lid = newLid();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      for (const connection of [main, second]) {
        sends.push(say(connection, { number: "", lid }, `lid ${i}`));
        sends.push(say(connection, { number, lid }, `ambos ${i}`));
        sends.push(say(connection, { number }, `número ${i}`));
      }
    }
    const results = await Promise.allSettled(sends);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    // The number alone may have made its own contact before the pair was known; the next message
    // with both merges it: one more message with both settles whatever the order was.
    await say(main, { number, lid }, "fim");
    const contact = await onlyContact(number, lid);
    const all = await ticketsOf(contact.id);
    expect(
      all
        .filter((t) => t.status !== "closed")
        .map((t) => t.whatsappId)
        .sort(),
    ).toEqual([main.id, second.id].sort());
    let stored = 0;
    for (const t of all) stored += (await bodiesOf(t.id)).length;
    expect(stored).toBe(8 * 2 * 3 + 1);
  });

  it("a merge moves every row that points at a contact (each table with a foreign key to contacts)", async () => {
    const rows = await queryRows<{ table: string }>(
      ctx.deps.db,
      sql`select distinct c.conrelid::regclass::text as table from pg_constraint c
          where c.contype = 'f' and c.confrelid = 'contacts'::regclass`,
    );
    expect(rows.map((r) => r.table).sort()).toEqual([...CONTACT_REFERENCES].sort());
  });
});
