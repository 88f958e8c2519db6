import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../db/schema/index.js";
import { phoneSends } from "../../test/channels.js";
import { jobsIdle } from "../../test/settled.js";
import { login } from "../../test/factories.js";
import { type TestContext, createTestContext, openTestDatabase, waitFor } from "../../test/harness.js";
import {
  buildList,
  campaignCalls,
  campaignCompany,
  drain,
  nextStepAt,
  phoneReceived,
  shippingsOf,
} from "./testing.js";

/**
 * Beyond the spec, on the app's clock moved by hand: the sending window and the daily cap per
 * connection in the company's time zone; an opt-out belongs to its company only; and an instance
 * that dies mid-campaign (its jobs left running) leaves the rest to another, nobody sent twice.
 */

const CONFIG = { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 };
let ctx: TestContext;
let current: () => TestContext = () => ctx;
const api = campaignCalls(() => current());

beforeAll(async () => {
  ctx = await createTestContext(CONFIG);
  ctx.built.startBackground();
  await ctx.built.channels.jobs.stop();
}, 30_000);
afterAll(async () => {
  await ctx.close();
});

const past = () => new Date(ctx.clock.now.getTime() - 60_000).toISOString();

describe("campaigns: window and daily cap", () => {
  it("sends only inside the window, and at most dailyCap a day per connection, then goes on the next day", async () => {
    // 20:00 in São Paulo: outside a 9-18 window.
    ctx.clock.now = new Date("2030-05-06T23:00:00Z");
    const team = await campaignCompany(ctx);
    await api.settings(team.adminLogin, {
      messageInterval: 0,
      longerIntervalAfter: 0,
      sendWindowStart: 9,
      sendWindowEnd: 18,
      dailyCap: 2,
    });
    const { list } = await buildList(
      ctx.deps.db,
      team.company.id,
      Array.from({ length: 5 }, () => ({})),
    );
    const campaign = await api.create(team.adminLogin, {
      name: "Janela",
      message1: "Bom dia",
      contactListId: list.id,
      whatsappId: team.connection.id,
      scheduledAt: past(),
    });
    await drain(ctx);
    expect(await api.get(team.adminLogin, campaign.id)).toMatchObject({
      pausedReason: "ERR_CAMPAIGN_PAUSED_WINDOW",
    });
    // It looks again at 09:00 the next morning.
    expect(await nextStepAt(ctx.deps.db, team.company.id)).toEqual(new Date("2030-05-07T12:00:00Z"));
    ctx.clock.now = new Date("2030-05-07T12:00:00Z");
    await drain(ctx);
    let rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.filter((r) => r.state === "sent")).toHaveLength(2);
    expect(await api.get(team.adminLogin, campaign.id)).toMatchObject({
      pausedReason: "ERR_CAMPAIGN_PAUSED_DAILY_CAP",
    });
    // The next day starts at midnight in São Paulo; the window then waits for 09:00.
    expect(await nextStepAt(ctx.deps.db, team.company.id)).toEqual(new Date("2030-05-08T03:00:00Z"));
    ctx.clock.now = new Date("2030-05-08T03:00:00Z");
    await drain(ctx);
    expect(await nextStepAt(ctx.deps.db, team.company.id)).toEqual(new Date("2030-05-08T12:00:00Z"));
    ctx.clock.now = new Date("2030-05-08T12:00:00Z");
    await drain(ctx);
    rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.filter((r) => r.state === "sent")).toHaveLength(4);
    ctx.clock.now = new Date("2030-05-09T12:00:00Z");
    await drain(ctx);
    await drain(ctx);
    ctx.clock.now = (await nextStepAt(ctx.deps.db, team.company.id)) ?? ctx.clock.now;
    await drain(ctx);
    rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.every((r) => r.state === "sent")).toBe(true);
    const days = rows.map((r) => r.deliveredAt!.toISOString().slice(0, 10));
    expect(days).toEqual(["2030-05-07", "2030-05-07", "2030-05-08", "2030-05-08", "2030-05-09"]);
    expect(await api.get(team.adminLogin, campaign.id)).toMatchObject({
      status: "FINALIZADA",
      pausedReason: null,
    });
  }, 60_000);
});

describe("campaigns: tenants", () => {
  it("an opt-out in one company leaves the same number in another company's campaigns", async () => {
    ctx.clock.now = new Date("2030-06-01T15:00:00Z");
    const a = await campaignCompany(ctx);
    const b = await campaignCompany(ctx);
    const number = "5511977770001";
    for (const team of [a, b])
      await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
    expect(
      (await phoneSends(ctx, a.adminLogin, a.connection.id, { from: number, body: "SAIR" })).statusCode,
    ).toBe(201);
    await drain(ctx);
    const made = [];
    for (const team of [a, b]) {
      const { list } = await buildList(ctx.deps.db, team.company.id, [{ name: "Mesmo", number }]);
      made.push(
        await api.create(team.adminLogin, {
          name: "Cada um",
          message1: "Oi",
          contactListId: list.id,
          whatsappId: team.connection.id,
          scheduledAt: past(),
        }),
      );
    }
    await drain(ctx);
    expect((await shippingsOf(ctx.deps.db, made[0]!.id)).map((r) => r.state)).toEqual(["skipped"]);
    expect((await shippingsOf(ctx.deps.db, made[1]!.id)).map((r) => r.state)).toEqual(["sent"]);
    expect(await phoneReceived(ctx.deps.db, a.connection.id, number)).toEqual([]);
    expect(await phoneReceived(ctx.deps.db, b.connection.id, number)).toEqual(["Oi"]);
    // And company B's admin cannot read company A's report.
    expect((await api.call("GET", `/campaigns/${made[0]!.id}/report`, b.adminLogin)).statusCode).toBe(404);
  }, 60_000);
});

describe("campaigns: an instance dies mid-campaign", () => {
  it("another instance finishes the campaign; nobody gets it twice", async () => {
    const database = await openTestDatabase();
    const first = await createTestContext(CONFIG, { database });
    first.built.startBackground();
    current = () => first;
    let second: TestContext | null = null;
    try {
      const team = await campaignCompany(first);
      await api.settings(team.adminLogin, { messageInterval: 1, longerIntervalAfter: 0 });
      const { list, items } = await buildList(
        first.deps.db,
        team.company.id,
        Array.from({ length: 8 }, () => ({})),
      );
      const campaign = await api.create(team.adminLogin, {
        name: "Queda",
        message1: "Sobrevive",
        contactListId: list.id,
        whatsappId: team.connection.id,
        scheduledAt: new Date(Date.now() - 1000).toISOString(),
      });
      await waitFor(
        async () =>
          (await shippingsOf(first.deps.db, campaign.id)).filter((r) => r.state === "sent").length >= 2,
        20_000,
      );
      // Dies with its jobs as they are: a running step keeps its lock until it expires.
      await first.close();
      second = await createTestContext(CONFIG, { database });
      current = () => second!;
      // The dead instance's locks expire (as lockSeconds would tell another instance).
      await second.deps.db
        .update(jobs)
        .set({ lockedUntil: new Date(0) })
        .where(eq(jobs.status, "running"));
      second.built.startBackground();
      const admin = await login(second, team.admin.email);
      await waitFor(async () => (await api.get(admin, campaign.id)).status === "FINALIZADA", 40_000);
      // Every phone has its message (the phone's side arrives after the send is marked), and
      // everything due is done: a second send to anyone would show now.
      const reached = async () => {
        for (const item of items)
          if ((await phoneReceived(second!.deps.db, team.connection.id, item.number)).length === 0)
            return false;
        return true;
      };
      await waitFor(reached, 20_000);
      await jobsIdle(second, team.company.id);
      for (const item of items)
        expect(await phoneReceived(second.deps.db, team.connection.id, item.number), item.number).toEqual([
          "Sobrevive",
        ]);
    } finally {
      current = () => ctx;
      await second?.close();
      await database.drop();
    }
  }, 120_000);
});
