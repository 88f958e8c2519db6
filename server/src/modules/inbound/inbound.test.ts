import { and, count, eq, inArray, lte, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContactDTO, MessageDTO, TicketDTO } from "@atende/contracts";
import {
  contacts,
  jobs,
  messages,
  tags,
  ticketBotStates,
  ticketTags,
  tickets,
} from "../../db/schema/index.js";
import { inTransaction } from "../../events/bus.js";
import { presentContact } from "../contacts/present.js";
import { loadMessage } from "../messages/queries.js";
import { loadTicket } from "../tickets/queries.js";
import { queueOutbound, retryOutbound } from "../messages/outbound.js";
import { buildSimulatorCompany, phoneSends, phoneShows } from "../../test/channels.js";
import { buildUser, login, newNumber } from "../../test/factories.js";
import { batch, quietBatch } from "./batchQueries.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { caughtUp } from "../../test/settled.js";
import { planOf, readsOf } from "../../test/plans.js";

let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx);
});
afterAll(() => ctx.close());

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const send = (payload: Record<string, unknown>) =>
  phoneSends(ctx, team.adminLogin, team.connection.id, payload);

async function ticketsOf(number: string) {
  return ctx.deps.db
    .select({ t: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));
}

async function messagesOf(ticketId: number) {
  return ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticketId)).orderBy(messages.id);
}

describe("the inbound pipeline", () => {
  it("a customer's first message creates the contact (named by the phone) and one pending ticket in the connection's queue", async () => {
    const number = newNumber();
    const res = await send({ from: number, name: "Maria Cliente", body: "Olá, quero um orçamento" });
    expect(res.statusCode).toBe(201);
    const [row] = await ticketsOf(number);
    expect(row!.t).toMatchObject({
      status: "pending",
      unreadMessages: 1,
      lastMessage: "Olá, quero um orçamento",
      queueId: team.queues[0]!.id,
    });
    const [contact] = await ctx.deps.db.select().from(contacts).where(eq(contacts.id, row!.t.contactId));
    expect(contact).toMatchObject({ name: "Maria Cliente", number });
    const [msg] = await messagesOf(row!.t.id);
    expect(msg).toMatchObject({ body: "Olá, quero um orçamento", fromMe: false, mediaType: "chat" });
  });

  it("the same message delivered 5 times at once is stored once", async () => {
    const number = newNumber();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => send({ from: number, id: "DUP-1", body: "uma vez só" })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const [row] = await ticketsOf(number);
    expect(await messagesOf(row!.t.id)).toHaveLength(1);
    expect(row!.t.unreadMessages).toBe(1);
  });

  it("50 concurrent first messages from one number make one ticket and one contact", async () => {
    const number = newNumber();
    await Promise.all(Array.from({ length: 50 }, (_, i) => send({ from: number, body: `msg ${i}` })));
    const rows = await ticketsOf(number);
    expect(rows).toHaveLength(1);
    expect(await messagesOf(rows[0]!.t.id)).toHaveLength(50);
    expect(rows[0]!.t.unreadMessages).toBe(50);
  });

  it("200 numbers at once make 200 contacts and 200 tickets", async () => {
    const numbers = Array.from({ length: 200 }, () => newNumber());
    const before = await ctx.deps.db
      .select({ n: count() })
      .from(tickets)
      .where(eq(tickets.companyId, team.company.id));
    await Promise.all(numbers.map((n) => send({ from: n, body: "oi" })));
    const after = await ctx.deps.db
      .select({ n: count() })
      .from(tickets)
      .where(eq(tickets.companyId, team.company.id));
    expect(after[0]!.n - before[0]!.n).toBe(200);
    for (const n of numbers.slice(0, 5)) expect(await ticketsOf(n)).toHaveLength(1);
  }, 90_000);

  it("a Brazilian number with and without the ninth digit is one contact", async () => {
    await send({ from: "5521988887777", body: "com nove" });
    await send({ from: "552188887777", body: "sem nove" });
    const rows = await ticketsOf("5521988887777");
    expect(rows).toHaveLength(1);
    expect(await messagesOf(rows[0]!.t.id)).toHaveLength(2);
  });

  it("a message after the ticket was closed opens a new pending ticket", async () => {
    const number = newNumber();
    await send({ from: number, body: "primeira conversa" });
    const [first] = await ticketsOf(number);
    await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, first!.t.id));
    await send({ from: number, body: "voltei" });
    const rows = await ticketsOf(number);
    expect(rows.map((r) => r.t.status).sort()).toEqual(["closed", "pending"]);
  });

  it("messages arriving together are stored in one batch: in arrival order, a redelivery inside it once, a quote of an earlier one linked, events in order", async () => {
    const number = newNumber();
    const connection = {
      id: team.connection.id,
      companyId: team.company.id,
      name: "",
      number: "",
      config: {},
    };
    const heard: string[] = [];
    const stop = ctx.deps.bus.on((e) => {
      if (e.type === "message.saved" && e.action === "create" && e.contact.number === number)
        heard.push(e.message.body);
    });
    const message = (i: number, extra: Record<string, unknown> = {}) => ({
      type: "message" as const,
      message: {
        id: `BATCH-${number}-${i}`,
        chat: { number, isGroup: false },
        fromMe: false,
        pushName: "Lia",
        timestamp: new Date(),
        kind: "text" as const,
        body: `parte ${i}`,
        ...extra,
      },
    });
    try {
      await Promise.all([
        ...Array.from({ length: 12 }, (_, i) =>
          ctx.built.channels.inbound.handle(
            connection,
            message(i, i === 7 ? { quotedId: `BATCH-${number}-3` } : {}),
          ),
        ),
        ctx.built.channels.inbound.handle(connection, message(5)), // the same id again
      ]);
    } finally {
      stop();
    }
    const rows = await ticketsOf(number);
    expect(rows).toHaveLength(1);
    const stored = (await messagesOf(rows[0]!.t.id)).filter((m) => !m.fromMe);
    const bodies = Array.from({ length: 12 }, (_, i) => `parte ${i}`);
    expect(stored.map((m) => m.body)).toEqual(bodies);
    expect(stored[7]!.quotedMsgId).toBe(stored[3]!.id);
    expect(rows[0]!.t).toMatchObject({ unreadMessages: 12, lastMessage: "parte 11" });
    expect(heard).toEqual(bodies);
  });

  describe("the rating wait", () => {
    const HOUR = 3600_000;

    /** A conversation whose ticket an agent closed asking for a rating `hoursAgo` hours ago. */
    async function closedAwaitingRating(number: string, ratingAsks: number, hoursAgo: number) {
      await send({ from: number, body: "preciso de ajuda" });
      const [first] = await ticketsOf(number);
      await ctx.deps.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, first!.t.id));
      await ctx.deps.db.insert(ticketBotStates).values({
        ticketId: first!.t.id,
        companyId: team.company.id,
        ratingAsks,
        updatedAt: new Date(ctx.clock.now.getTime() - hoursAgo * HOUR),
      });
      return first!.t;
    }

    const customerBodies = async (ticketId: number) =>
      (await messagesOf(ticketId)).filter((m) => !m.fromMe).map((m) => m.body);

    it("within 24 hours of the question, the customer's reply joins the closed ticket: no new ticket", async () => {
      const number = newNumber();
      const closed = await closedAwaitingRating(number, 1, 23);
      expect((await send({ from: number, body: "3" })).statusCode).toBe(201);
      const rows = await ticketsOf(number);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.t).toMatchObject({ id: closed.id, status: "closed", lastMessage: "3" });
      expect(await customerBodies(closed.id)).toEqual(["preciso de ajuda", "3"]);
    });

    it("a question asked more than 24 hours ago, or no rating awaited, lets the next message open a new pending ticket", async () => {
      for (const [ratingAsks, hoursAgo] of [
        [1, 25],
        [0, 1],
      ] as const) {
        const number = newNumber();
        const closed = await closedAwaitingRating(number, ratingAsks, hoursAgo);
        await send({ from: number, body: "voltei" });
        const rows = await ticketsOf(number);
        expect(rows.map((r) => r.t.status).sort()).toEqual(["closed", "pending"]);
        const fresh = rows.find((r) => r.t.status === "pending")!.t;
        expect(await customerBodies(fresh.id)).toEqual(["voltei"]);
        expect(await customerBodies(closed.id)).toEqual(["preciso de ajuda"]);
      }
    });
  });

  it("stores media under the data directory with a generated name and the type from the bytes; serves it only to the company", async () => {
    const number = newNumber();
    await send({
      from: number,
      body: "foto",
      media: {
        filename: "../../etc/passwd.png",
        mimetype: "application/pdf",
        dataBase64: PNG.toString("base64"),
      },
    });
    const [row] = await ticketsOf(number);
    // Stored at once, its file copied by the media job right after.
    await waitFor(async () => (await messagesOf(row!.t.id))[0]!.mediaStatus === null);
    const [msg] = await messagesOf(row!.t.id);
    expect(msg).toMatchObject({ mediaType: "application", mediaMime: "image/png" });
    expect(msg!.mediaPath).toMatch(new RegExp(`^${team.company.id}/[0-9a-f-]{36}\\.png$`));
    const file = await ctx.app.inject({
      method: "GET",
      url: `/media/${msg!.mediaPath}`,
      headers: team.adminLogin.auth,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.rawPayload.equals(PNG)).toBe(true);

    const other = await ctx.app.inject({
      method: "GET",
      url: `/media/${team.company.id}/..%2F..%2Fjwt-secret`,
      headers: team.adminLogin.auth,
    });
    expect(other.statusCode).toBe(404);
    const stranger = await createStranger();
    const cross = await ctx.app.inject({
      method: "GET",
      url: `/media/${msg!.mediaPath}`,
      headers: stranger.auth,
    });
    expect(cross.statusCode).toBe(404);
  });

  it("edits, deletes, reactions and missed calls from the phone reach the stored messages", async () => {
    const number = newNumber();
    await send({ from: number, id: "M-1", body: "texto original" });
    await send({ from: number, edit: { targetId: "M-1", body: "texto corrigido" } });
    await send({ from: number, id: "M-2", body: "vou apagar" });
    await send({ from: number, revoke: { targetId: "M-2" } });
    await send({ from: number, id: "R-1", reaction: { targetId: "M-1", emoji: "👍" } });
    ctx.clock.now = new Date("2026-05-04T23:30:00Z"); // 20:30 in São Paulo
    await send({ from: number, id: "CALL-1", call: { isVideo: false } });
    ctx.clock.now = new Date();

    const [row] = await ticketsOf(number);
    const stored = await messagesOf(row!.t.id);
    const byWid = Object.fromEntries(stored.map((m) => [m.wid, m]));
    expect(byWid["M-1"]).toMatchObject({ body: "texto corrigido", isEdited: true });
    expect(byWid["M-2"]).toMatchObject({ isDeleted: true });
    expect(byWid["R-1"]).toMatchObject({
      mediaType: "reactionMessage",
      body: "👍",
      quotedMsgId: byWid["M-1"]!.id,
    });
    expect(byWid["call:CALL-1"]).toMatchObject({
      mediaType: "call_log",
      body: "Chamada de voz perdida às 20:30",
    });
  });

  it("a phone reply quotes the message it answers", async () => {
    const number = newNumber();
    await send({ from: number, id: "Q-1", body: "pergunta" });
    await send({ from: number, id: "Q-2", body: "complemento", quotedId: "Q-1" });
    const [row] = await ticketsOf(number);
    const stored = await messagesOf(row!.t.id);
    expect(stored[1]!.quotedMsgId).toBe(stored[0]!.id);
  });

  it("refuses to deliver while the connection is not connected, and bad phone input with 400", async () => {
    expect((await send({ from: "abc", body: "x" })).statusCode).toBe(400);
    expect((await send({ from: newNumber() })).statusCode).toBe(400);
  });
});

async function createStranger() {
  const { buildCompany } = await import("../../test/factories.js");
  const company = await buildCompany(ctx.deps.db);
  const user = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
  return login(ctx, user.email);
}

describe("the outbound queue", () => {
  // The tests above leave the bot's turns and greetings queued (one job runner serves them all in
  // order): let those go first, so these sends are not waiting behind hundreds of others.
  beforeAll(async () => {
    const due = () =>
      ctx.deps.db
        .select({ n: count() })
        .from(jobs)
        .where(and(inArray(jobs.status, ["pending", "running"]), lte(jobs.runAt, ctx.clock.now)));
    await waitFor(async () => (await due())[0]!.n === 0, 120_000);
  }, 130_000);

  async function queue(ticketId: number, body: string) {
    return inTransaction(ctx.deps.db, ctx.deps.bus, (tx, raise) =>
      queueOutbound(tx, raise, { companyId: team.company.id, ticketId, body, userId: team.admin.id }),
    );
  }

  const phone = (number: string) => phoneShows(ctx, team.adminLogin, team.connection.id, number);

  it("an agent's message shows at once with ack 0, reaches the phone, and its ticks only move forward", async () => {
    const number = newNumber();
    await send({ from: number, body: "oi" });
    const [row] = await ticketsOf(number);
    const id = await queue(row!.t.id, "Olá! Como posso ajudar?");
    await waitFor(async () =>
      (await phone(number)).some((m) => m.direction === "out" && m.body === "Olá! Como posso ajudar?"),
    );
    await waitFor(
      async () => (await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!.ack === 3,
    );

    const read = await ctx.app.inject({
      method: "POST",
      url: `/simulator/${team.connection.id}/read?number=${number}`,
      headers: team.adminLogin.auth,
    });
    expect(read.json()).toEqual({ read: 1 });
    const [after] = await ctx.deps.db.select().from(messages).where(eq(messages.id, id));
    expect(after!.ack).toBe(4);
    // A late "delivered" never moves a read message backwards.
    await ctx.built.channels.inbound.handle(
      { id: team.connection.id, companyId: team.company.id, name: "", number: "", config: {} },
      { type: "ack", id: after!.wid!, ack: 3 },
    );
    expect((await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!.ack).toBe(4);
  });

  it("sends of one ticket arrive in the order they were written", async () => {
    const number = newNumber();
    await send({ from: number, body: "oi" });
    const [row] = await ticketsOf(number);
    for (let i = 1; i <= 5; i++) await queue(row!.t.id, `parte ${i}`);
    await waitFor(async () => (await phone(number)).filter((m) => m.direction === "out").length === 5);
    expect((await phone(number)).filter((m) => m.direction === "out").map((m) => m.body)).toEqual([
      "parte 1",
      "parte 2",
      "parte 3",
      "parte 4",
      "parte 5",
    ]);
  });

  it("a send the provider refuses for good shows the reason on the message, and the retry action queues it again", async () => {
    const number = "5511987650000"; // the simulator's "not on WhatsApp" numbers end in 0000
    await send({ from: number, body: "oi" });
    const [row] = await ticketsOf(number);
    const id = await queue(row!.t.id, "não vai chegar");
    await waitFor(async () =>
      Boolean((await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!.sendError),
    );
    const [failed] = await ctx.deps.db.select().from(messages).where(eq(messages.id, id));
    expect(failed).toMatchObject({ ack: 0, sendError: expect.stringContaining("ERR_WAPP_INVALID_CONTACT") });
    const retried = await inTransaction(ctx.deps.db, ctx.deps.bus, (tx, raise) =>
      retryOutbound(tx, raise, team.company.id, id),
    );
    expect(retried).toBe(true);
    expect((await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!.sendError).toBeNull();
  });
});

describe("live events", () => {
  it("a new customer message reaches the agents of its queue and the admins, not an agent of another queue", async () => {
    const otherQueue = await (
      await import("../../test/factories.js")
    ).buildQueue(ctx.deps.db, team.company.id, { name: "Outra" });
    const inQueue = await buildUser(ctx.deps.db, team.company.id, { queueIds: [team.queues[0]!.id] });
    const outside = await buildUser(ctx.deps.db, team.company.id, { queueIds: [otherQueue.id] });
    const url = await ctx.url();
    const sockets = await Promise.all(
      [inQueue, outside].map(async (u) => connectSocket(url, (await login(ctx, u.email)).token)),
    );
    const adminSocket = await connectSocket(url, team.adminLogin.token);
    const event = `company-${team.company.id}-appMessage`;
    const got = [sockets[0]!, sockets[1]!, adminSocket].map((s) =>
      record<{ action: string; message: MessageDTO; ticket: TicketDTO }>(s, event),
    );
    await send({ from: newNumber(), body: "alguém aí?" });
    const created = (list: { action: string; message: MessageDTO }[]) =>
      list.find((e) => e.action === "create" && e.message.body === "alguém aí?");
    await waitFor(() => Boolean(created(got[0]!) && created(got[2]!)));
    expect(created(got[0]!)).toMatchObject({ message: { fromMe: false }, ticket: { status: "pending" } });
    await caughtUp(sockets[1]!);
    expect(got[1]).toEqual([]);
    for (const s of [...sockets, adminSocket]) s.close();
  });

  it("the events carry the ticket, message and contact exactly as the API presents them", async () => {
    const number = newNumber();
    await send({ from: number, name: "Ivo", id: "EV-1", body: "primeira" });
    const [row] = await ticketsOf(number);
    const [tag] = await ctx.deps.db
      .insert(tags)
      .values({ companyId: team.company.id, name: `vip ${number}`, color: "#ff0000" })
      .returning();
    await ctx.deps.db
      .insert(ticketTags)
      .values({ ticketId: row!.t.id, tagId: tag!.id, companyId: team.company.id });
    await ctx.deps.db
      .update(tickets)
      .set({ userId: team.admin.id, status: "open" })
      .where(eq(tickets.id, row!.t.id));

    const events: { type: string; message?: MessageDTO; ticket?: TicketDTO; contact?: ContactDTO }[] = [];
    const stop = ctx.deps.bus.on((e) => {
      // Only this ticket's: earlier tests' sends may still be moving in the background.
      if ((e.type === "message.saved" || e.type === "ticket.saved") && e.ticket.id === row!.t.id)
        events.push(e);
    });
    try {
      await send({ from: number, id: "EV-2", body: "segunda", quotedId: "EV-1" });
    } finally {
      stop();
    }
    const saved = events.find((e) => e.type === "message.saved")!;
    const ticket = await loadTicket(ctx.deps.db, team.company.id, row!.t.id);
    expect(ticket).toMatchObject({ unreadMessages: 2, user: { id: team.admin.id }, tags: [{ id: tag!.id }] });
    expect(saved.ticket).toEqual(ticket);
    expect(events.find((e) => e.type === "ticket.saved")!.ticket).toEqual(ticket);
    expect(saved.message).toEqual(await loadMessage(ctx.deps.db, team.company.id, saved.message!.id));
    expect(saved.message!.quotedMsg).toMatchObject({ body: "primeira" });
    const [contact] = await ctx.deps.db.select().from(contacts).where(eq(contacts.id, row!.t.contactId));
    expect(saved.contact).toEqual(presentContact(contact!));
  });
});

describe("the hot path's plan", () => {
  it("with thousands of messages stored, a batch checks its ids with one probe of the unique index each, not a scan of the table", async () => {
    const number = newNumber();
    expect((await send({ from: number, body: "the first of many" })).statusCode).toBe(201);
    const [row] = await ticketsOf(number);
    const t = row!.t;
    // A desk's first weeks: 5,000 messages, analyzed. Planned for the 100 rows PostgreSQL assumes a
    // batch holds, the NOT EXISTS used to become a hash anti join over a scan of the whole table.
    await ctx.deps.db.execute(sql`
      insert into messages (company_id, ticket_id, contact_id, whatsapp_id, wid, body, from_me, read, ack, media_type)
      select ${t.companyId}, ${t.id}, ${t.contactId}, ${t.whatsappId}, 'PLAN' || g, 'history', false, true, 0, 'chat'
      from generate_series(1, 5000) g`);
    await ctx.deps.db.execute(sql`analyze messages`);

    // The generic plan: the one a pooled connection caches for the prepared statement and reuses.
    const plan = await planOf(ctx.deps.db, { generic: batch.number.query.sql, args: ["[]"] });
    const reads = readsOf(plan, "messages");
    expect(reads).not.toContain("Seq Scan");
    expect(reads).toContain("messages_whatsapp_wid_uq");
  });

  // A company of 100,000 contacts: the quiet statement, unable to use the key's unique index (a
  // partial one), hashed the whole contacts table for every batch (625 µs a message, replayed; 111
  // through the index). Seq scans off, so the plan shows whether the index can serve at all.
  it.each(["number", "lid"] as const)(
    "the quiet statement finds its contacts by %s through the key's unique index",
    async (key) => {
      const { sql: text, params } = quietBatch[key].query;
      const args = params.map((value, i) => (i === 0 ? "[]" : value));
      const plan = await planOf(ctx.deps.db, { generic: text, args }, ["enable_seqscan = off"]);
      const reads = readsOf(plan, "contacts");
      expect(reads).toContain(`contacts_company_${key}_uq`);
      expect(reads.every((read) => read === `contacts_company_${key}_uq` || read === "contacts_pkey")).toBe(
        true,
      );
    },
  );
});
