import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TicketsPage } from "@atende/contracts";
import { contacts, tickets } from "../../db/schema/index.js";
import { type LoggedIn, buildCompany, buildQueue, buildUser, login } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * A spec permission the web only mirrored, enforced by the server: the ticket search's users filter
 * (ticket-search:userFilter) is the admin's; an agent calling the API by hand does not get it.
 */

let ctx: TestContext;
let companyId: number;
let queueId: number;
let admin: LoggedIn;
let adminId: number;
/** An agent of the queue. */
let ana: LoggedIn;
let anaId: number;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const db = ctx.deps.db;
  companyId = (await buildCompany(db)).id;
  queueId = (await buildQueue(db, companyId)).id;
  const adminRow = await buildUser(db, companyId, { profile: "admin" });
  const anaRow = await buildUser(db, companyId, { name: "Ana Atendente", queueIds: [queueId] });
  [adminId, anaId] = [adminRow.id, anaRow.id];
  [admin, ana] = [await login(ctx, adminRow.email), await login(ctx, anaRow.email)];
});
afterAll(async () => {
  await ctx.close();
});

let seq = 0;

/** A ticket of the queue, written straight to the database. */
async function ticketWith(values: Partial<typeof tickets.$inferInsert>) {
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
  return ticket!;
}

function get(who: LoggedIn, url: string) {
  return ctx.app.inject({ method: "GET", url, headers: who.auth });
}

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
