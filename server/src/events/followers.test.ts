import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionInfo } from "../modules/inbound/service.js";
import type { ConnectionInfo } from "../channels/provider.js";
import { jobs, messages, schedules, whatsapps } from "../db/schema/index.js";
import { buildCompany } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import type { EventBus } from "./bus.js";

/**
 * Work that must survive a crash commits with its cause: the job exists the moment the change that
 * calls for it is committed, even when nothing hears the change afterwards (the process died right
 * after the commit). Without background work: the jobs run only when the test says.
 */
let ctx: TestContext;
let connection: ConnectionInfo;
beforeAll(async () => {
  ctx = await createTestContext();
  const company = await buildCompany(ctx.deps.db);
  const [row] = await ctx.deps.db
    .insert(whatsapps)
    .values({
      companyId: company.id,
      name: "Loja",
      provider: "simulator",
      status: "CONNECTED",
    })
    .returning();
  connection = (await connectionInfo(ctx.deps.db, company.id, row!.id))!;
});
afterAll(() => ctx.close());

/** Runs `work` as if the process died right after each commit: no listener hears any event. */
async function withNothingHeard(bus: EventBus, work: () => Promise<void>): Promise<void> {
  const publish = bus.publish.bind(bus);
  bus.publish = async () => undefined;
  try {
    await work();
  } finally {
    bus.publish = publish;
  }
}

const jobsOf = (type: string) => ctx.deps.db.select().from(jobs).where(eq(jobs.type, type));

describe("jobs committed with their cause", () => {
  it("a customer's message: the bot's turn is queued in the commit that stores the message", async () => {
    await withNothingHeard(ctx.deps.bus, () =>
      ctx.built.channels.inbound.handle(connection, {
        type: "message",
        message: {
          id: "followers-in-1",
          chat: { number: "5511977770001", isGroup: false },
          fromMe: false,
          pushName: "Cliente",
          timestamp: new Date(),
          kind: "text",
          body: "oi",
        },
      }),
    );
    const [message] = await ctx.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, connection.id), eq(messages.wid, "followers-in-1")));
    const turns = await jobsOf("chatbot-step");
    expect(turns.map((j) => ({ payload: j.payload, status: j.status }))).toEqual([
      { payload: { ticketId: message!.ticketId, messageId: message!.id }, status: "pending" },
    ]);

    // The next instance's runner takes it: the customer's message is answered after all.
    await ctx.built.channels.jobs.runDue();
    expect((await jobsOf("chatbot-step")).map((j) => j.status)).toEqual(["done"]);
  });

  it("a schedule's message acknowledged: its settling is queued in the commit that records the ack", async () => {
    const db = ctx.deps.db;
    const [inbound] = await db.select().from(messages).where(eq(messages.wid, "followers-in-1"));
    const [sent] = await db
      .insert(messages)
      .values({
        companyId: connection.companyId,
        ticketId: inbound!.ticketId,
        contactId: inbound!.contactId,
        whatsappId: connection.id,
        wid: "followers-out-1",
        body: "Lembrete",
        fromMe: true,
        read: true,
        ack: 0,
        mediaType: "chat",
      })
      .returning();
    const [schedule] = await db
      .insert(schedules)
      .values({
        companyId: connection.companyId,
        contactId: inbound!.contactId!,
        whatsappId: connection.id,
        body: "Lembrete",
        sendAt: new Date(),
        status: "AGENDADA",
        ticketId: inbound!.ticketId,
        messageId: sent!.id,
      })
      .returning();

    await withNothingHeard(ctx.deps.bus, () =>
      ctx.built.channels.inbound.handle(connection, { type: "ack", id: "followers-out-1", ack: 2 }),
    );
    expect((await jobsOf("settle-schedule")).map((j) => ({ payload: j.payload, status: j.status }))).toEqual([
      { payload: { scheduleId: schedule!.id, messageId: sent!.id }, status: "pending" },
    ]);
    const [still] = await db.select().from(schedules).where(eq(schedules.id, schedule!.id));
    expect(still!.status).toBe("AGENDADA");

    // Nothing heard, nothing lost: the runner settles it.
    await ctx.built.channels.jobs.runDue();
    const [settled] = await db.select().from(schedules).where(eq(schedules.id, schedule!.id));
    expect(settled).toMatchObject({ status: "ENVIADA", error: null });
  });
});
