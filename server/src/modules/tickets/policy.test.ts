import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagesPage, TicketsPage } from "@atende/contracts";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { type LoggedIn, buildCompany, buildQueue, buildUser, login } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * The two spec permissions the web only mirrors, enforced by the server: spying on a conversation
 * (ticket-options:spy) and the ticket search's users filter (ticket-search:userFilter). Both are
 * the admin's; an agent calling the API by hand gets neither.
 */

let ctx: TestContext;
let companyId: number;
let queueId: number;
let admin: LoggedIn;
let adminId: number;
/** Two agents of the same queue. */
let ana: LoggedIn;
let anaId: number;
let bia: LoggedIn;
let biaId: number;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const db = ctx.deps.db;
  companyId = (await buildCompany(db)).id;
  queueId = (await buildQueue(db, companyId)).id;
  const adminRow = await buildUser(db, companyId, { profile: "admin" });
  const anaRow = await buildUser(db, companyId, { name: "Ana Atendente", queueIds: [queueId] });
  const biaRow = await buildUser(db, companyId, { name: "Bia Atendente", queueIds: [queueId] });
  [adminId, anaId, biaId] = [adminRow.id, anaRow.id, biaRow.id];
  [admin, ana, bia] = [
    await login(ctx, adminRow.email),
    await login(ctx, anaRow.email),
    await login(ctx, biaRow.email),
  ];
});
afterAll(async () => {
  await ctx.close();
});

let seq = 0;

/** A ticket of the queue with one customer message, written straight to the database. */
async function ticketWith(values: Partial<typeof tickets.$inferInsert>, body = "olá") {
  const db = ctx.deps.db;
  const [contact] = await db
    .insert(contacts)
    .values({
      companyId,
      name: `Contato ${crypto.randomBytes(3).toString("hex")}`,
      number: `55119${String(80_000_000 + ++seq)}`,
    })
    .returning();
  const [ticket] = await db
    .insert(tickets)
    .values({ companyId, contactId: contact!.id, queueId, status: "pending", ...values })
    .returning();
  await db.insert(messages).values({ companyId, ticketId: ticket!.id, contactId: contact!.id, body });
  return ticket!;
}

function get(who: LoggedIn, url: string) {
  return ctx.app.inject({ method: "GET", url, headers: who.auth });
}

describe("ticket-options:spy: reading a conversation without taking it", () => {
  it("an agent may not read the messages of another agent's ticket in service", async () => {
    const ticket = await ticketWith({ status: "open", userId: biaId }, "conversa da Bia");
    const res = await get(ana, `/messages/${ticket.id}`);
    expect({ status: res.statusCode, error: res.json<{ error?: string }>().error }, res.body).toEqual({
      status: 403,
      error: "ERR_NO_PERMISSION",
    });
    // The ticket itself stays in sight (the list shows it); only its conversation is refused.
    expect((await get(ana, `/tickets/${ticket.id}`)).statusCode).toBe(200);
  });

  it("the admin (who holds the permission) reads it, and its own agent does", async () => {
    const ticket = await ticketWith({ status: "open", userId: biaId }, "conversa da Bia");
    for (const who of [admin, bia]) {
      const res = await get(who, `/messages/${ticket.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<MessagesPage>().messages.map((m) => m.body)).toEqual(["conversa da Bia"]);
    }
  });

  it("a waiting or resolved ticket of the agent's queue is still read before taking it (the chat shows it)", async () => {
    const waiting = await ticketWith({ status: "pending" }, "aguardando");
    const resolved = await ticketWith({ status: "closed", userId: biaId }, "encerrada");
    for (const ticket of [waiting, resolved]) {
      const res = await get(ana, `/messages/${ticket.id}`);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

describe("ticket-search:userFilter: the search's users filter", () => {
  async function listIds(who: LoggedIn, query: string) {
    const res = await get(who, `/tickets?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TicketsPage>().tickets.map((t) => t.id);
  }

  it("is left out for an agent: their list is the same with or without it", async () => {
    const waiting = await ticketWith({ status: "pending" });
    const held = await ticketWith({ status: "pending", userId: anaId });
    const filtered = await listIds(ana, `status=pending&users=${adminId}`);
    expect(filtered).toEqual(await listIds(ana, "status=pending"));
    expect(filtered).toEqual(expect.arrayContaining([waiting.id, held.id]));
  });

  it("applies for the admin", async () => {
    const held = await ticketWith({ status: "pending", userId: anaId });
    const other = await ticketWith({ status: "pending" });
    const filtered = await listIds(admin, `status=pending&users=${anaId}`);
    expect(filtered).toContain(held.id);
    expect(filtered).not.toContain(other.id);
  });
});
