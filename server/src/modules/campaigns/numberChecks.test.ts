import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WhatsappDetailDTO } from "@atende/contracts";
import type { FakeSocket } from "../../channels/baileys/fixtures/fakeSocket.js";
import { fakeSocketProvider } from "../../channels/baileys/fixtures/harness.js";
import { contactListItems, contactLists, plans, whatsapps } from "../../db/schema/index.js";
import { caller, expectOk } from "../../test/calls.js";
import { type LoggedIn, buildTeam, uid } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";
import { enqueueListCheck } from "../contactLists/jobs.js";
import { campaignCalls, drain, nextStepAt, shippingsOf } from "./testing.js";

/**
 * A contact list checked on WhatsApp, then a campaign sent to it, on WhatsApp Web connections
 * (Baileys on fake sockets that count their usync queries), the jobs run by the test: the list is
 * checked many numbers per query, and the campaign asks WhatsApp nothing about the numbers the
 * check answered (another connection of the company, whose session has never seen them, sends it).
 */

const sockets: FakeSocket[] = [];
let ctx: TestContext;
const call = caller(() => ctx);
const api = campaignCalls(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    // 10 numbers per query here (100 in production): a few dozen numbers make several queries.
    {
      providers: {
        beta: fakeSocketProvider(sockets, undefined, { numberChecks: { pauseMs: 0, perQuery: 10 } }),
      },
    },
  );
  ctx.built.startBackground();
  // The test runs the jobs itself.
  await ctx.built.channels.jobs.stop();
}, 30_000);
afterAll(() => ctx.close());

const pad = (i: number) => String(i).padStart(7, "0");
const mobile = (i: number) => `551197${pad(i)}`;
/** Every third number has no account; every third still has the 8-digit jid of an old account. */
function whatsAppJidOf(phone: string): string | undefined {
  if (phone.length === 13 && phone.startsWith("551197") && Number(phone.slice(6)) % 3 === 2)
    return `${phone}@s.whatsapp.net`;
  if (phone.length === 12 && phone.startsWith("55117") && Number(phone.slice(5)) % 3 === 1)
    return `${phone}@s.whatsapp.net`;
  return undefined;
}

/** A paired WhatsApp Web connection of the company, and the fake socket its session runs on. */
async function pairedConnection(who: LoggedIn): Promise<{ id: number; socket: FakeSocket }> {
  const before = sockets.length;
  const created = expectOk<WhatsappDetailDTO>(
    await call("POST", "/whatsapp", who, { name: `Web ${uid()}`, provider: "beta" }),
    201,
  );
  await waitFor(() => sockets.length > before, 10_000);
  const socket = sockets.at(-1)!;
  socket.whatsAppJidOf = whatsAppJidOf;
  socket.user = { id: "5511900000000:4@s.whatsapp.net", name: "Loja" };
  socket.fire("connection.update", { connection: "open" });
  await waitFor(async () => {
    const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, created.id));
    return row?.status === "CONNECTED";
  }, 10_000);
  return { id: created.id, socket };
}

async function campaignTeam() {
  const team = await buildTeam(ctx);
  await ctx.deps.db
    .update(plans)
    .set({ useCampaigns: true, campaigns: 0, connections: 0 })
    .where(eq(plans.id, team.company.planId!));
  await api.settings(team.adminLogin, { messageInterval: 0, longerIntervalAfter: 0 });
  return team;
}

async function listOf(companyId: number, whatsappId: number | null, numbers: string[]) {
  const [list] = await ctx.deps.db
    .insert(contactLists)
    .values({ companyId, name: `Lista ${uid()}`, whatsappId })
    .returning();
  await ctx.deps.db
    .insert(contactListItems)
    .values(numbers.map((number, i) => ({ companyId, contactListId: list!.id, name: `P${i}`, number })));
  return list!;
}

async function runCampaign(companyId: number) {
  for (let i = 0; i < 2000; i++) {
    await drain(ctx);
    if (!(await nextStepAt(ctx.deps.db, companyId))) return;
  }
  throw new Error("the campaign never ended");
}

const past = () => new Date(Date.now() - 60_000).toISOString();

describe("number checks shared by the list check and the campaign", { timeout: 120_000 }, () => {
  it("the list check asks many numbers per query; the campaign after it asks nothing and sends to the jids it answered", async () => {
    const team = await campaignTeam();
    const checker = await pairedConnection(team.adminLogin);
    const sender = await pairedConnection(team.adminLogin);
    const numbers = Array.from({ length: 30 }, (_, i) => mobile(i));
    const list = await listOf(team.company.id, checker.id, numbers);

    await enqueueListCheck(ctx.deps.db, team.company.id, { id: list.id, whatsappId: checker.id });
    await drain(ctx);
    const items = await ctx.deps.db
      .select()
      .from(contactListItems)
      .where(eq(contactListItems.contactListId, list.id))
      .orderBy(asc(contactListItems.id));
    expect(items.map((item) => item.isWhatsappValid)).toEqual(numbers.map((_, i) => i % 3 !== 0));
    expect(checker.socket.lookups.map((phones) => phones.length)).toEqual([20, 20, 20]);

    const campaign = await api.create(team.adminLogin, {
      name: "Depois da conferência",
      message1: "Promo",
      contactListId: list.id,
      whatsappId: sender.id,
      scheduledAt: past(),
    });
    await runCampaign(team.company.id);
    const rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.filter((r) => r.state === "sent")).toHaveLength(20);
    expect(sender.socket.lookups).toHaveLength(0);
    expect(checker.socket.lookups).toHaveLength(3);
    // An old account gets the message on its 8-digit jid.
    expect(sender.socket.sent.some((s) => s.jid === `55117${pad(1)}@s.whatsapp.net`)).toBe(true);
    expect(sender.socket.sent.some((s) => s.jid === `551197${pad(2)}@s.whatsapp.net`)).toBe(true);
  });

  it("a campaign to numbers nobody checked asks them many per query, not one by one, and skips those without an account", async () => {
    const team = await campaignTeam();
    const sender = await pairedConnection(team.adminLogin);
    const numbers = Array.from({ length: 30 }, (_, i) => mobile(1000 + i));
    const list = await listOf(team.company.id, null, numbers);
    const campaign = await api.create(team.adminLogin, {
      name: "Sem conferência",
      message1: "Promo",
      contactListId: list.id,
      whatsappId: sender.id,
      scheduledAt: past(),
    });
    await runCampaign(team.company.id);
    expect(sender.socket.lookups.map((phones) => phones.length)).toEqual([20, 20, 20]);
    const rows = await shippingsOf(ctx.deps.db, campaign.id);
    expect(rows.map((r) => [r.number, r.state])).toEqual(
      numbers.map((n, i) => [n, (1000 + i) % 3 === 0 ? "skipped" : "sent"]),
    );
    const skipped = rows.filter((r) => r.state === "skipped");
    expect(new Set(skipped.map((r) => r.error))).toEqual(new Set(["ERR_CAMPAIGN_NOT_ON_WHATSAPP"]));
  });
});
