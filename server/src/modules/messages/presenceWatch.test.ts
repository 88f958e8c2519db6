import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, tickets } from "../../db/schema/index.js";
import { CHANNEL_ACTION_JOB } from "./actions.js";
import { connectSimulator, phoneSends } from "../../test/channels.js";
import { buildTeam } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";

/**
 * Opening a chat asks WhatsApp for the customer's presence (as WhatsApp Web does), so their
 * "typing…" can reach the chat header.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
});
afterAll(() => ctx.close());

describe("an agent opening a chat", () => {
  it("subscribes the connection to the customer's presence", async () => {
    const team = await buildTeam(ctx);
    const connection = await connectSimulator(ctx, team.adminLogin);
    const customer = "5511955501234";
    const sent = await phoneSends(ctx, team.adminLogin, connection.id, {
      from: customer,
      name: "Cliente Presença",
      body: "oi",
    });
    expect(sent.statusCode).toBe(201);
    const [ticket] = await ctx.deps.db.select().from(tickets).where(eq(tickets.whatsappId, connection.id));
    const phones = ctx.built.channels.phones;
    expect(phones.presenceWatched(connection.id, customer)).toBe(false);

    const res = await ctx.app.inject({
      method: "GET",
      url: `/messages/${ticket!.id}`,
      headers: team.adminLogin.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(() => phones.presenceWatched(connection.id, customer), 5_000);

    // Opened again within the minute (a reload, a colleague): WhatsApp is not asked again.
    const presenceJobs = async () =>
      (
        await ctx.deps.db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.type, CHANNEL_ACTION_JOB), eq(jobs.dedupeKey, `presence:${ticket!.id}`)))
      ).length;
    expect(await presenceJobs()).toBe(1);
    for (let i = 0; i < 3; i++) {
      const again = await ctx.app.inject({
        method: "GET",
        url: `/messages/${ticket!.id}`,
        headers: team.adminLogin.auth,
      });
      expect(again.statusCode).toBe(200);
    }
    expect(await presenceJobs()).toBe(1);
  });
});
