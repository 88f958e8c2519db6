import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiSendAnswer, CampaignDTO, CampaignReportDTO, ScheduleDTO } from "@atende/contracts";
import { campaignShippings, messages } from "../../db/schema/index.js";
import { type CloudSuite, customerWrites, eventually, startCloudSuite, statusOf } from "../../test/cloud.js";
import { caller, expectError, expectOk } from "../../test/calls.js";
import { buildContact, login, newNumber } from "../../test/factories.js";
import { buildList, drain, nextStepAt } from "../campaigns/testing.js";
import { rotateToken } from "../whatsapps/testing.js";

/**
 * The 24-hour window on a Cloud API connection, for what sends without an agent: the public API,
 * schedules and campaigns. The fake Graph keeps the windows as WhatsApp does (131047 for a
 * free-form message to a customer silent for 24 hours), so what the app would have counted sent is
 * seen failing. The jobs are run by the test on its own clock.
 */

const PNID = "106540352242001";
const WABA = "102290129340001";
const T0 = new Date("2030-03-04T15:00:00.000Z"); // 12:00 in São Paulo
let suite: CloudSuite;
const call = caller(() => suite.ctx);
const graphSends = () =>
  suite.fake.requests.filter((r) => r.method === "POST" && r.path === `/${PNID}/messages` && r.answeredId);
const at = (ms: number) => {
  suite.ctx.clock.now = new Date(T0.getTime() + ms);
};
const HOUR = 3600_000;

beforeAll(async () => {
  suite = await startCloudSuite({ pnid: PNID, waba: WABA, at: T0 });
  suite.fake.keepWindows(() => suite.ctx.clock.now);
  suite.fake.templates.set(WABA, [
    {
      name: "volte_sempre",
      language: "pt_BR",
      status: "APPROVED",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Olá {{1}}, temos novidades para você." }],
    },
  ]);
  suite.ctx.built.startBackground();
  await suite.ctx.built.channels.jobs.stop();
  await eventually(async () => (await statusOf(suite.ctx, suite.cloud.id)) === "CONNECTED");
}, 30_000);
afterAll(async () => {
  await suite?.close();
});

const to = () => ({ whatsappId: suite.cloud.id, pnid: PNID });

describe("the public API on a Cloud API connection", () => {
  it("refuses free-form text to a contact outside the window with 409 ERR_WAPP_24H_WINDOW, sending nothing", async () => {
    const token = (await rotateToken(suite.ctx, suite.admin.auth, suite.cloud.id)).json<{ token: string }>()
      .token;
    const send = (number: string) =>
      suite.ctx.app.inject({
        method: "POST",
        url: "/api/messages/send",
        headers: { authorization: `Bearer ${token}` },
        payload: { number, body: "Seu pedido saiu" },
      });
    const stranger = newNumber(70_000_000);
    const before = graphSends().length;
    expectError(await send(stranger), 409, "ERR_WAPP_24H_WINDOW");
    // Nothing was written for it: no message waiting to fail at Meta.
    expect(
      (await suite.ctx.deps.db.select().from(messages).where(eq(messages.body, "Seu pedido saiu"))).length,
    ).toBe(0);

    const customer = newNumber(70_000_000);
    at(0);
    await customerWrites(suite, to(), customer);
    at(HOUR);
    const answer = expectOk<ApiSendAnswer>(await send(customer));
    await drain(suite.ctx);
    await eventually(async () => {
      const [row] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.id, answer.messageId));
      return row!.ack === 1;
    });
    expect(
      graphSends()
        .slice(before)
        .map((r) => (r.json as { to: string }).to),
    ).toEqual([customer]);

    at(25 * HOUR);
    expectError(await send(customer), 409, "ERR_WAPP_24H_WINDOW");
    expect(graphSends().length).toBe(before + 1);
  });
});

describe("a schedule on a Cloud API connection", () => {
  it("fails outside the window with ERR_WAPP_24H_WINDOW on the schedule, and nothing goes to Meta", async () => {
    at(30 * HOUR);
    const admin = await login(suite.ctx, suite.adminEmail);
    const contact = await buildContact(suite.ctx.deps.db, suite.companyId, { number: newNumber(71_000_000) });
    const created = expectOk<ScheduleDTO>(
      await call("POST", "/schedules", admin, {
        body: "Lembrete da consulta",
        contactId: contact.id,
        sendAt: new Date(suite.ctx.clock.now.getTime() + 60_000).toISOString(),
        whatsappId: suite.cloud.id,
      }),
      201,
    );
    const before = graphSends().length;
    at(30 * HOUR + 61_000);
    await drain(suite.ctx);
    const schedule = expectOk<ScheduleDTO>(await call("GET", `/schedules/${created.id}`, admin));
    expect(schedule).toMatchObject({ status: "ERRO", error: "ERR_WAPP_24H_WINDOW" });
    expect(graphSends().length).toBe(before);
  });
});

describe("a campaign on a Cloud API connection", () => {
  async function runCampaign(body: Record<string, unknown>, numbers: string[]) {
    const admin = await login(suite.ctx, suite.adminEmail);
    const { list } = await buildList(
      suite.ctx.deps.db,
      suite.companyId,
      numbers.map((number, i) => ({ name: `Pessoa ${i}`, number })),
    );
    const campaign = expectOk<CampaignDTO>(
      await call("POST", "/campaigns", admin, {
        name: `Cloud ${numbers[0]}`,
        message1: "Oi {nome}, novidades!",
        contactListId: list.id,
        whatsappId: suite.cloud.id,
        scheduledAt: new Date(suite.ctx.clock.now.getTime() - 60_000).toISOString(),
        ...body,
      }),
      201,
    );
    for (let i = 0; i < 200; i++) {
      await drain(suite.ctx);
      const next = await nextStepAt(suite.ctx.deps.db, suite.companyId);
      if (!next) break;
      if (next > suite.ctx.clock.now) suite.ctx.clock.now = next;
    }
    await drain(suite.ctx);
    const report = expectOk<CampaignReportDTO>(await call("GET", `/campaigns/${campaign.id}/report`, admin));
    return { campaign, report, admin };
  }

  it("sends inside the window; a recipient outside it is skipped with the reason, never counted sent", async () => {
    at(40 * HOUR);
    const inside = newNumber(72_000_000);
    const outside = newNumber(72_000_000);
    await customerWrites(suite, to(), inside);
    at(41 * HOUR);
    const before = graphSends().length;
    const { report, campaign, admin } = await runCampaign({}, [inside, outside]);
    expect(report.totals).toMatchObject({ total: 2, sent: 1, skipped: 1 });
    const byNumber = new Map(report.records.map((r) => [r.number, r]));
    expect(byNumber.get(inside)).toMatchObject({ state: "sent", error: null });
    expect(byNumber.get(outside)).toMatchObject({ state: "skipped", error: "ERR_CAMPAIGN_OUTSIDE_WINDOW" });
    // Only the customer inside the window got a message, and Meta took it.
    expect(
      graphSends()
        .slice(before)
        .map((r) => (r.json as { to: string }).to),
    ).toEqual([inside]);
    // The report's CSV says why, in the caller's language.
    const csv = await suite.ctx.app.inject({
      method: "GET",
      url: `/campaigns/${campaign.id}/report.csv`,
      headers: { ...admin.auth, "accept-language": "en" },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain("Outside the Cloud API's 24-hour window");
  });

  it("with a template, a recipient outside the window gets the template, its values filled per recipient", async () => {
    at(50 * HOUR);
    const outside = newNumber(73_000_000);
    const before = graphSends().length;
    const { report } = await runCampaign(
      { template: { name: "volte_sempre", language: "pt_BR", body: ["{nome}"] } },
      [outside],
    );
    expect(report.totals).toMatchObject({ total: 1, sent: 1, skipped: 0 });
    expect(report.records[0]).toMatchObject({
      state: "sent",
      message: "Olá Pessoa 0, temos novidades para você.",
    });
    const [post] = graphSends().slice(before);
    expect(post!.json).toMatchObject({
      to: outside,
      type: "template",
      template: {
        name: "volte_sempre",
        language: { code: "pt_BR" },
        components: [{ type: "body", parameters: [{ type: "text", text: "Pessoa 0" }] }],
      },
    });
    const [shipping] = await suite.ctx.deps.db
      .select()
      .from(campaignShippings)
      .where(eq(campaignShippings.number, outside));
    const [message] = await suite.ctx.deps.db
      .select()
      .from(messages)
      .where(eq(messages.id, shipping!.messageId!));
    expect(message).toMatchObject({ ack: 1, sendError: null });
  });

  it("refuses a template the connection does not have, on saving the campaign", async () => {
    const admin = await login(suite.ctx, suite.adminEmail);
    expectError(
      await call("POST", "/campaigns", admin, {
        name: "Sem modelo",
        message1: "Oi",
        whatsappId: suite.cloud.id,
        template: { name: "nao_existe", language: "pt_BR" },
      }),
      404,
      "ERR_WAPP_TEMPLATE_MISSING",
    );
  });
});
