import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, queryRows } from "../../db/client.js";
import { TEST_PASSWORD, buildCompany, buildUser } from "../../test/factories.js";
import { clonePostgresTemplate, waitFor } from "../../test/harness.js";
import { type ServerProcess, spawnServer } from "../../test/serverProcess.js";
import { buildList, enableCampaigns } from "./testing.js";

/**
 * The campaign sender against a real `kill -9`: the real server process sends a campaign on a
 * simulator connection, gets SIGKILL mid-campaign (its job locks and its session lease left behind
 * as they were), and a fresh process on the same PostgreSQL database finishes it: FINALIZADA, and
 * every recipient's phone got the message exactly once. PostgreSQL only: two processes cannot share
 * one PGlite database.
 */

const RECIPIENTS = 40;
let clone: Awaited<ReturnType<typeof clonePostgresTemplate>>;
let direct: ReturnType<typeof openPostgres>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  clone = await clonePostgresTemplate();
  direct = openPostgres(clone.url, 2);
});
afterAll(async () => {
  for (const s of servers) await s.kill();
  await direct.close();
  await clone.drop();
});

async function api<T = unknown>(url: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

// Short locks and leases, so the second process takes over within seconds of the kill.
const ENV = () => ({ DATABASE_URL: clone.url, JOB_LOCK_SECONDS: "3", SESSION_LEASE_SECONDS: "3" });

async function start() {
  const server = await spawnServer(ENV());
  servers.push(server);
  await server.health(200);
  return server;
}

const sentCount = async (campaignId: number) =>
  (
    await queryRows<{ n: number }>(
      direct.db,
      sql`select count(*)::int as n from campaign_shippings where campaign_id = ${campaignId} and state = 'sent'`,
    )
  )[0]!.n;

describe("campaign sender: kill -9 mid-campaign", () => {
  it("a fresh instance on the same database finishes it, every recipient sent exactly once", async () => {
    const first = await start();
    const company = await buildCompany(direct.db);
    await enableCampaigns(direct.db, company.id);
    const admin = await buildUser(direct.db, company.id, { profile: "admin" });
    const login = await api<{ token: string }>(first.url, "POST", "/auth/login", undefined, {
      email: admin.email,
      password: TEST_PASSWORD,
    });
    expect(login.status).toBe(200);
    const token = login.body.token;
    const created = await api<{ id: number }>(first.url, "POST", "/whatsapp", token, {
      name: `Sim ${company.id}`,
      provider: "simulator",
      queueIds: [],
      greetingMessage: "",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const whatsappId = created.body.id;
    const status = async (url: string) =>
      (await api<{ status: string }>(url, "GET", `/whatsapp/${whatsappId}`, token)).body.status;
    await waitFor(async () => (await status(first.url)) === "qrcode", 10_000);
    expect((await api(first.url, "POST", `/simulator/${whatsappId}/scan`, token)).status).toBe(204);
    await waitFor(async () => (await status(first.url)) === "CONNECTED", 10_000);

    const settings = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 };
    expect((await api(first.url, "POST", "/campaign-settings", token, { settings })).status).toBe(200);
    const { list, items } = await buildList(
      direct.db,
      company.id,
      Array.from({ length: RECIPIENTS }, (_, i) => ({ name: `P${i}` })),
    );
    const campaign = await api<{ id: number; status: string }>(first.url, "POST", "/campaigns", token, {
      name: "Kill nove",
      message1: "Oferta para {nome}",
      contactListId: list.id,
      whatsappId,
      scheduledAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    const campaignId = campaign.body.id;

    // Mid-campaign: some sent, most not.
    await waitFor(async () => (await sentCount(campaignId)) >= 5, 30_000);
    first.child.kill("SIGKILL");
    await first.exited;
    const sentAtKill = await sentCount(campaignId);
    expect(sentAtKill).toBeLessThan(RECIPIENTS);

    const second = await start();
    const finished = async () =>
      (await api<{ status: string }>(second.url, "GET", `/campaigns/${campaignId}`, token)).body.status ===
      "FINALIZADA";
    // Generous: a loaded machine sends a few a second.
    await waitFor(finished, 60_000);

    const shippings = await queryRows<{ number: string; state: string }>(
      direct.db,
      sql`select number, state from campaign_shippings where campaign_id = ${campaignId} order by id`,
    );
    expect(shippings).toHaveLength(RECIPIENTS);
    expect(shippings.filter((r) => r.state !== "sent")).toEqual([]);
    // Sends still in flight on the connection when the campaign closed: let them land before counting.
    const phones = async () =>
      new Map(
        (
          await queryRows<{ number: string; bodies: string[] }>(
            direct.db,
            sql`select number, array_agg(body order by id) as bodies from simulator_messages
              where whatsapp_id = ${whatsappId} and direction = 'out' group by number`,
          )
        ).map((r) => [r.number, r.bodies]),
      );
    await waitFor(async () => (await phones()).size === RECIPIENTS, 15_000);
    const received = await phones();
    const wrong = items.filter(
      (item, i) => JSON.stringify(received.get(item.number)) !== JSON.stringify([`Oferta para P${i}`]),
    );
    expect(
      wrong.map((item) => [item.number, received.get(item.number)]),
      "each phone got the message once",
    ).toEqual([]);
    // And once in each contact's history.
    const stored = await queryRows<{ number: string; n: number }>(
      direct.db,
      sql`select c.number, count(*)::int as n from messages m join contacts c on c.id = m.contact_id
        where m.company_id = ${company.id} and m.from_me group by c.number having count(*) <> 1`,
    );
    expect(stored).toEqual([]);
    console.log(`kill -9 after ${sentAtKill}/${RECIPIENTS} sent; the second instance sent the rest`);
  }, 150_000);
});
