import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { webhookSignature } from "../modules/inbound/cloudWebhook.js";
import { messages, plans, whatsapps } from "../db/schema/index.js";
import { type FakeGraph, cloudWebhookPayload, startFakeGraph } from "./fakes/graph.js";
import { type LoggedIn, buildCompany, buildConnection, buildUser, login, uid } from "./factories.js";
import { type TestContext, createTestContext, waitFor } from "./harness.js";

/**
 * A company on the WhatsApp Cloud API for end-to-end suites: the real app (its own Cloud provider,
 * GRAPH_API_URL pointed at a fake Graph API), a company whose plan has campaigns, schedules and the
 * public API, its admin, and a Cloud connection; Meta's webhooks posted signed, as Meta posts them.
 */

export const APP_SECRET = "app-secret-cloud";
export const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

export interface CloudSuite {
  ctx: TestContext;
  fake: FakeGraph;
  companyId: number;
  admin: LoggedIn;
  adminId: number;
  adminEmail: string;
  cloud: typeof whatsapps.$inferSelect;
  close(): Promise<void>;
}

/** `at` freezes the app's clock there before anyone logs in (a suite that moves it by hours). */
export async function startCloudSuite(opts: { pnid: string; waba: string; at?: Date }): Promise<CloudSuite> {
  const fake = await startFakeGraph();
  fake.phoneNumbers.set(opts.pnid, { display_phone_number: "+1 555-078-3881", verified_name: "Atende" });
  const ctx = await createTestContext({
    GRAPH_API_URL: fake.url,
    LOGIN_MAX_PER_EMAIL: 1000,
    LOGIN_MAX_PER_IP: 100_000,
  });
  if (opts.at) ctx.clock.now = opts.at;
  const company = await buildCompany(ctx.deps.db);
  await ctx.deps.db
    .update(plans)
    .set({ useCampaigns: true, useSchedules: true, useExternalApi: true })
    .where(eq(plans.id, company.planId!));
  const user = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
  const cloud = await cloudConnection(ctx, company.id, fake, opts.pnid, opts.waba);
  return {
    ctx,
    fake,
    companyId: company.id,
    admin: await login(ctx, user.email),
    adminId: user.id,
    adminEmail: user.email,
    cloud,
    async close() {
      await ctx.close();
      await fake.close();
    },
  };
}

/** A Cloud connection of the company for a business number of the same Meta app (same app secret). */
export function cloudConnection(
  ctx: TestContext,
  companyId: number,
  fake: FakeGraph,
  pnid: string,
  waba: string,
) {
  return buildConnection(ctx.deps.db, companyId, {
    name: `cloud ${uid()}`,
    provider: "cloud",
    status: "OPENING",
    number: "",
    providerConfig: {
      phoneNumberId: pnid,
      wabaId: waba,
      accessToken: fake.accessToken,
      verifyToken: "verify",
      appSecret: APP_SECRET,
    },
  });
}

/** Meta's POST of a webhook body to a connection's URL, signed with the app secret. */
export async function postWebhook(ctx: TestContext, whatsappId: number, body: unknown) {
  const raw = Buffer.from(JSON.stringify(body));
  const res = await ctx.app.inject({
    method: "POST",
    url: `/webhooks/cloud/${whatsappId}`,
    headers: { "content-type": "application/json", "x-hub-signature-256": webhookSignature(APP_SECRET, raw) },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBe(200);
}

let seq = 0;

/** A customer's text arrives by webhook on the number; answers our message row once stored. */
export async function customerWrites(
  suite: Pick<CloudSuite, "ctx" | "fake">,
  to: { whatsappId: number; pnid: string },
  number: string,
  text = "Oi",
) {
  const id = `wamid.IN${Date.now()}${++seq}`;
  const at = suite.ctx.clock.now;
  await postWebhook(
    suite.ctx,
    to.whatsappId,
    cloudWebhookPayload(to.pnid, {
      contacts: [{ profile: { name: "Cliente" }, wa_id: number }],
      messages: [
        {
          from: number,
          id,
          timestamp: String(Math.floor(at.getTime() / 1000)),
          type: "text",
          text: { body: text },
        },
      ],
    }),
  );
  suite.fake.customerWrote(number, at);
  let row: typeof messages.$inferSelect | undefined;
  await eventually(async () => {
    // A suite whose job runner is stopped (driven on its own clock) runs the webhook's job here.
    await suite.ctx.built.channels.jobs.runDue();
    [row] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.wid, id));
    return row !== undefined;
  });
  return row!;
}

/** The status of a connection's row. */
export async function statusOf(ctx: TestContext, whatsappId: number) {
  const [row] = await ctx.deps.db
    .select({ status: whatsapps.status })
    .from(whatsapps)
    .where(and(eq(whatsapps.id, whatsappId)));
  return row?.status;
}
