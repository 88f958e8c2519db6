import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, ticketTracking, tickets, whatsapps } from "../../../db/schema/index.js";
import {
  type Script,
  botDone,
  eventually,
  phone,
  receivedNow,
  setup,
  ticketOf,
  startedContext,
  updateTicket,
  queuedTicket,
} from "../../../test/chatbot.js";
import { buildQueue, login } from "../../../test/factories.js";
import { type TestContext, createTestContext, openTestDatabase } from "../../../test/harness.js";

/** The automatic timers (auto-transfer, auto-close): durable jobs, across a restart and two instances. */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startedContext();
});
afterAll(() => ctx.close());

describe("timers: durable jobs", () => {
  it("auto-transfer after timeToTransfer minutes to transferQueueId", async () => {
    const t0 = new Date(Date.now() + 3600_000);
    ctx.clock.now = t0;
    try {
      const db = ctx.deps.db;
      const s0 = await setup(ctx, { queues: ["Vendas"], settings: { sendMsgTransfTicket: "enabled" } });
      const urgent = await buildQueue(db, s0.company.id, { name: "Urgente" });
      const s = s0;
      await db
        .update(whatsapps)
        .set({ timeToTransfer: 10, transferQueueId: urgent.id })
        .where(eq(whatsapps.id, s.connection.id));
      await s.say("oi");
      await receivedNow(ctx, s, 1);
      // The timer is armed for t0 + 10 minutes; until then nothing is due and the ticket stays.
      const ticketId = (await ticketOf(ctx, s)).id;
      const [timer] = await db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `transfer:${ticketId}`));
      expect(timer).toMatchObject({ status: "pending", runAt: new Date(t0.getTime() + 10 * 60_000) });
      await botDone(ctx, s);
      expect((await ticketOf(ctx, s)).queueId).toBe(s.queues[0]!.id);
      ctx.clock.now = new Date(t0.getTime() + 11 * 60_000);
      await eventually(async () => (await ticketOf(ctx, s)).queueId === urgent.id);
      expect((await receivedNow(ctx, s, 2))[1]).toContain("*Urgente*");
    } finally {
      ctx.clock.now = new Date();
    }
  });
});
/**
 * 25 hours after t0, on two fresh instances of the database: waits until the ticket is closed, then
 * answers what the customer received (once the company's jobs are done, so a message sent twice
 * would show) and when the ticket's tracking says it finished.
 */
async function twoInstancesLater(
  database: Awaited<ReturnType<typeof openTestDatabase>>,
  t0: Date,
  s: Script,
  ticketId: number,
) {
  const a = await createTestContext({}, { database });
  const b = await createTestContext({}, { database });
  try {
    const later = new Date(t0.getTime() + 25 * 3600_000);
    a.clock.now = later;
    b.clock.now = later;
    a.built.startBackground();
    b.built.startBackground();
    await eventually(async () => (await ticketOf(a, s)).status === "closed");
    const adminA = await login(a, s.admin.email);
    const out = async () =>
      (await phone(a, adminA, s.connection.id, s.customer))
        .filter((m) => m.direction === "out")
        .map((m) => m.body);
    await eventually(async () => (await out()).length >= 1);
    await botDone(a, s);
    const [tracking] = await a.deps.db
      .select()
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, ticketId));
    return { later, received: await out(), finishedAt: tracking!.finishedAt };
  } finally {
    await a.close();
    await b.close();
  }
}

/**
 * A customer's queued ticket, made on a first instance of `database` at t0 with the given connection
 * settings; `then` runs on that instance before it stops.
 */
async function ticketOnFirstInstance(
  database: Awaited<ReturnType<typeof openTestDatabase>>,
  t0: Date,
  connection: Record<string, unknown>,
  then: (first: TestContext, s: Script, ticketId: number) => Promise<void> = async () => undefined,
) {
  const first = await createTestContext({}, { database });
  try {
    first.clock.now = t0;
    first.built.startBackground();
    const s = await setup(first, {
      queues: ["Vendas"],
      connection,
      settings: { sendGreetingMessageOneQueues: "disabled" },
    });
    await s.say("oi");
    const ticket = await queuedTicket(first, s);
    await then(first, s, ticket.id);
    return { s, ticket };
  } finally {
    await first.close();
  }
}

describe("timers across a restart and two instances", () => {
  it("auto-close after expiresTicket survives a restart and runs once with two instances", async () => {
    const database = await openTestDatabase();
    try {
      const t0 = new Date();
      const { s, ticket } = await ticketOnFirstInstance(
        database,
        t0,
        { expiresTicket: 24, expiresInactiveMessage: "Atendimento encerrado por inatividade." },
        async (first, s, ticketId) => void (await updateTicket(first, s, ticketId, { status: "open" })),
      );

      const after = await twoInstancesLater(database, t0, s, ticket.id);
      expect(after.received).toEqual(["Atendimento encerrado por inatividade."]);
      expect(after.finishedAt!.getTime()).toBe(after.later.getTime());
    } finally {
      await database.drop();
    }
  });

  it("tickets that existed without a timer get one when the app starts: closed after expiresTicket, once with two instances", async () => {
    const database = await openTestDatabase();
    try {
      const t0 = new Date();
      const { s, ticket } = await ticketOnFirstInstance(database, t0, {});
      // As before the timers existed: taken by an agent and the connection's expiresTicket set,
      // written behind the app's back (no event, no timer).
      await database.db
        .update(tickets)
        .set({ status: "open", userId: s.admin.id, updatedAt: t0 })
        .where(eq(tickets.id, ticket.id));
      await database.db
        .update(whatsapps)
        .set({ expiresTicket: 24, expiresInactiveMessage: "Encerrado por inatividade." })
        .where(eq(whatsapps.id, s.connection.id));
      const timersOf = async () =>
        (await database.db.select().from(jobs)).filter((j) => j.dedupeKey === `expire:${ticket.id}`);
      expect(await timersOf()).toEqual([]);

      const after = await twoInstancesLater(database, t0, s, ticket.id);
      expect(after.received).toEqual(["Encerrado por inatividade."]);
      const timers = await timersOf();
      expect(timers).toHaveLength(1);
      // Due 24 hours after the ticket's last change.
      expect(timers[0]!.runAt.getTime()).toBe(t0.getTime() + 24 * 3600_000);
      expect(after.finishedAt!.getTime()).toBe(after.later.getTime());
    } finally {
      await database.drop();
    }
  });
});
