import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { queryRows } from "../../db/client.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, customerTextItem, phoneSends } from "../../test/channels.js";
import { newNumber } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";
import { storeQuietMessages } from "./queries.js";

/**
 * The quiet statement (batchQueries.ts) against an agent closing the ticket at the same moment: a
 * PostgreSQL race (two connections), so it runs on the PostgreSQL pass only. The statement found
 * the ticket live; the close commits while it waits for the ticket's row. Its message must not be
 * stored on a ticket opened without the followers (the opening's service levels, assignment and
 * webhooks), nor lost: it is left to the transaction with the followers.
 */

let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;

beforeAll(async () => {
  ctx = await createTestContext();
  team = await buildSimulatorCompany(ctx, { bot: true });
});
afterAll(() => ctx.close());

it("a ticket closed while the quiet statement waits for its row leaves the message to the followers' path", async () => {
  const number = newNumber();
  const opened = await phoneSends(ctx, team.adminLogin, team.connection.id, {
    from: number,
    name: "Cliente Corrida",
    body: "primeira",
  });
  expect(opened.statusCode).toBe(201);
  const [live] = await ctx.deps.db
    .select({ id: tickets.id })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));

  // An agent's close, holding the ticket's row until the quiet statement waits for it.
  let commit!: () => void;
  const committing = new Promise<void>((resolve) => (commit = resolve));
  let locked!: () => void;
  const rowLocked = new Promise<void>((resolve) => (locked = resolve));
  const closing = ctx.deps.db.transaction(async (tx) => {
    await tx.update(tickets).set({ status: "closed" }).where(eq(tickets.id, live!.id));
    locked();
    await committing;
  });
  await rowLocked;

  const wid = `RACE-${Date.now()}`;
  const storing = storeQuietMessages(ctx.deps.db, [
    customerTextItem(
      { companyId: team.company.id, whatsappId: team.connection.id },
      { number, body: "segunda", name: "Cliente Corrida", wid },
    ),
  ]);
  // The statement has marked the message quiet (the ticket was live in its snapshot) and waits for the row.
  await waitFor(async () => {
    const waiting = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query like '%marked%'`,
    );
    return waiting[0]!.n === 1;
  });
  commit();
  await closing;

  const { results, turns } = await storing;
  // Left for the transaction with the followers: not stored, not counted as a redelivery (null).
  expect(results).toEqual([undefined]);
  expect(turns).toBe(0);
  expect(await ctx.deps.db.select().from(messages).where(eq(messages.wid, wid))).toEqual([]);
  const rows = await ctx.deps.db
    .select({ id: tickets.id, status: tickets.status })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));
  expect(rows).toEqual([{ id: live!.id, status: "closed" }]);
});
