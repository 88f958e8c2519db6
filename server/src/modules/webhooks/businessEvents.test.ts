import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookWithSecretDTO } from "@atende/contracts";
import { openDueInvoices } from "../billing/invoices.js";
import { enableCampaigns } from "../campaigns/testing.js";
import { buildBilledCompany, daysFromToday, invoicesOf, saveSuperSetting } from "../../test/billing.js";
import { caller, expectOk } from "../../test/calls.js";
import { type LoggedIn, buildPlatformOperator } from "../../test/factories.js";
import { type HttpFake, startHttpFake } from "../../test/fakes/httpFake.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";
import { expectAsDocumented } from "../../test/webhookBodies.js";

/**
 * The two events a subscription could choose and never received: `campaign.status` (campaigns) and
 * `invoice.paid` (billing), delivered to a receiver started here.
 */

interface Delivery {
  event: string;
  companyId: number;
  data: Record<string, unknown>;
}

let ctx: TestContext;
let root: LoggedIn;
let rx: HttpFake;
const call = caller(() => ctx);
const received = (event: string) =>
  rx.requests.map((r) => r.json as Delivery).filter((body) => body.event === event);

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_RETRY_BASE_SECONDS: 0.2 });
  ctx.built.startBackground();
  root = (await buildPlatformOperator(ctx)).login;
  await saveSuperSetting(ctx, root, "paymentGateway", "pixKey");
  await saveSuperSetting(ctx, root, "pixKey", "financeiro@atende.test");
  rx = await startHttpFake(() => ({ status: 200 }));
});
afterAll(async () => {
  await ctx.close();
  await rx.close();
});

describe("business events on outbound webhooks", () => {
  it("campaign.status: a campaign made, then renamed, each time as it is now", async () => {
    const team = await buildBilledCompany(ctx);
    await enableCampaigns(ctx.deps.db, team.company.id);
    expectOk<WebhookWithSecretDTO>(
      await call("POST", "/webhooks", team.adminLogin, { url: `${rx.url}/c`, events: ["campaign.status"] }),
      201,
    );
    const made = expectOk<{ id: number; status: string }>(
      await call("POST", "/campaigns", team.adminLogin, { name: "Black Friday" }),
      201,
    );
    expectOk(await call("PUT", `/campaigns/${made.id}`, team.adminLogin, { name: "Black Friday 2" }));
    const ofIt = () => received("campaign.status").filter((d) => d.data.id === made.id);
    await waitFor(() => ofIt().length === 2);
    for (const d of ofIt()) expectAsDocumented(d);
    expect(ofIt()).toMatchObject([
      { companyId: team.company.id, data: { id: made.id, name: "Black Friday", status: "INATIVA" } },
      { companyId: team.company.id, data: { id: made.id, name: "Black Friday 2", status: "INATIVA" } },
    ]);
  });

  it("invoice.paid: the invoice, paid, with the company's new due date; other companies hear nothing", async () => {
    const team = await buildBilledCompany(ctx, { dueDate: daysFromToday(3) });
    const other = await buildBilledCompany(ctx, { dueDate: daysFromToday(3) });
    for (const t of [team, other])
      expectOk<WebhookWithSecretDTO>(
        await call("POST", "/webhooks", t.adminLogin, {
          url: `${rx.url}/i${t.company.id}`,
          events: ["invoice.paid"],
        }),
        201,
      );
    await openDueInvoices(ctx.deps.db, new Date());
    const [invoice] = await invoicesOf(ctx, team.company.id);
    expectOk(await call("PUT", `/invoices/${invoice!.id}`, root, { status: "paid" }));

    await waitFor(() => received("invoice.paid").length > 0);
    const [paid, ...more] = received("invoice.paid");
    expect(more).toEqual([]);
    expect(rx.requests.find((r) => (r.json as Delivery).event === "invoice.paid")?.path).toBe(
      `/i${team.company.id}`,
    );
    expectAsDocumented(paid);
    expect(paid).toMatchObject({
      companyId: team.company.id,
      data: { invoice: { id: invoice!.id, status: "paid" }, company: { id: team.company.id } },
    });
    const company = paid!.data.company as { dueDate: string };
    expect(company.dueDate > daysFromToday(3)).toBe(true);
  });
});
