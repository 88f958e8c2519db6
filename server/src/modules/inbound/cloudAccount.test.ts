import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudTemplateDTO, MessageDTO } from "@atende/contracts";
import { mailOutbox, messages, tickets } from "../../db/schema/index.js";
import {
  type CloudSuite,
  cloudConnection,
  customerWrites,
  eventually,
  postWebhook,
  startCloudSuite,
  statusOf,
} from "../../test/cloud.js";
import { caller, expectError, expectOk } from "../../test/calls.js";
import { cloudWebhookPayload } from "../../test/fakes/graph.js";
import { newNumber } from "../../test/factories.js";

/**
 * A Cloud API connection's life beyond conversations, end to end (the real app, its sessions and
 * jobs, the fake Graph, Meta's webhooks signed): a second number of the same Meta app whose events
 * come to the first one's URL, a template's status changed by webhook, the account disabled,
 * restricted and reinstated, and a token that expires while sending. The admins hear of what needs
 * them by mail (the dev outbox here).
 */

const PNID = "106540352242101";
const PNID_2 = "106540352242102";
const WABA = "102290129340101";
let suite: CloudSuite;
const call = caller(() => suite.ctx);

beforeAll(async () => {
  suite = await startCloudSuite({ pnid: PNID, waba: WABA });
  suite.fake.phoneNumbers.set(PNID_2, { display_phone_number: "+1 555-078-3882", verified_name: "Loja 2" });
  suite.fake.templates.set(WABA, [
    {
      id: "tpl-promo",
      name: "promo",
      language: "pt_BR",
      status: "APPROVED",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Promoção de hoje!" }],
    },
  ]);
  suite.ctx.built.startBackground();
  await eventually(async () => (await statusOf(suite.ctx, suite.cloud.id)) === "CONNECTED");
}, 30_000);
afterAll(async () => {
  await suite?.close();
});

/** One change of another field (account_update, message_template_status_update) for the WABA. */
const accountChange = (field: string, value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [{ id: WABA, changes: [{ field, value }] }],
});
const mailsTo = (to: string) => suite.ctx.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

describe("every number of the Meta app reaches its connection", () => {
  it("a second number's message posted to the first connection's URL lands on the second connection", async () => {
    const second = await cloudConnection(suite.ctx, suite.companyId, suite.fake, PNID_2, WABA);
    await eventually(async () => (await statusOf(suite.ctx, second.id)) === "CONNECTED");
    const customer = newNumber(74_000_000);
    // Meta calls the one callback URL of the app (the first connection's) for both numbers.
    const row = await customerWrites(
      suite,
      { whatsappId: suite.cloud.id, pnid: PNID_2 },
      customer,
      "Oi, loja 2",
    );
    expect(row).toMatchObject({ whatsappId: second.id, body: "Oi, loja 2", fromMe: false });
    const [ticket] = await suite.ctx.deps.db.select().from(tickets).where(eq(tickets.id, row.ticketId));
    expect(ticket!.whatsappId).toBe(second.id);
    // Its status webhooks too: the answer sent from the second connection gets its ticks.
    expectOk(
      await call("PUT", `/tickets/${row.ticketId}`, suite.admin, { status: "open", userId: suite.adminId }),
    );
    const sent = expectOk<MessageDTO>(
      await call("POST", `/messages/${row.ticketId}`, suite.admin, { body: "Olá!" }),
      201,
    );
    let wid = "";
    await eventually(async () => {
      const [m] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.id, sent.id));
      wid = m!.wid ?? "";
      return m!.ack === 1;
    });
    const post = suite.fake.requests.find((r) => r.answeredId === wid);
    expect(post?.path).toBe(`/${PNID_2}/messages`);
    await postWebhook(
      suite.ctx,
      suite.cloud.id,
      cloudWebhookPayload(PNID_2, {
        statuses: [
          {
            id: wid,
            status: "delivered",
            timestamp: String(Math.floor(Date.now() / 1000)),
            recipient_id: customer,
          },
        ],
      }),
    );
    await eventually(async () => {
      const [m] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.id, sent.id));
      return m!.ack === 3;
    });
  });
});

describe("a template's status by webhook", () => {
  it("a paused template leaves the list and is refused; approved again, it is back", async () => {
    const list = () => call("GET", `/whatsapp/${suite.cloud.id}/templates`, suite.admin);
    expect(expectOk<CloudTemplateDTO[]>(await list()).map((t) => t.name)).toEqual(["promo"]);
    const status = (event: string) =>
      postWebhook(
        suite.ctx,
        suite.cloud.id,
        accountChange("message_template_status_update", {
          event,
          message_template_id: "tpl-promo",
          message_template_name: "promo",
          message_template_language: "pt_BR",
          reason: null,
        }),
      );
    await status("PAUSED");
    await eventually(async () => expectOk<CloudTemplateDTO[]>(await list()).length === 0);
    const row = await customerWrites(
      suite,
      { whatsappId: suite.cloud.id, pnid: PNID },
      newNumber(75_000_000),
    );
    expectOk(
      await call("PUT", `/tickets/${row.ticketId}`, suite.admin, { status: "open", userId: suite.adminId }),
    );
    expectError(
      await call("POST", `/messages/${row.ticketId}/template`, suite.admin, {
        name: "promo",
        language: "pt_BR",
      }),
      409,
      "ERR_WAPP_TEMPLATE_PAUSED",
    );
    await status("APPROVED");
    await eventually(async () => expectOk<CloudTemplateDTO[]>(await list()).length === 1);
  });
});

describe("the account and the token", () => {
  it("a restriction mails the admins and keeps the connection working", async () => {
    await postWebhook(
      suite.ctx,
      suite.cloud.id,
      accountChange("account_update", {
        event: "ACCOUNT_RESTRICTION",
        restriction_info: [
          { restriction_type: "RESTRICTED_BIZ_INITIATED_MESSAGING", expiration: "1767225600" },
        ],
      }),
    );
    // One mail per connection of the WABA (the second number's too), each naming its connection.
    const restricted = async () =>
      (await mailsTo(suite.adminEmail)).find(
        (m) => m.text.includes("restringiu") && m.subject.includes(suite.cloud.name),
      );
    await eventually(async () => (await restricted()) !== undefined);
    expect((await restricted())!.text).toContain("RESTRICTED_BIZ_INITIATED_MESSAGING");
    expect(await statusOf(suite.ctx, suite.cloud.id)).toBe("CONNECTED");
  });

  it("a disabled account is DISCONNECTED with a mail; reinstated, it connects again", async () => {
    await postWebhook(
      suite.ctx,
      suite.cloud.id,
      accountChange("account_update", {
        event: "DISABLED_UPDATE",
        ban_info: { waba_ban_state: "DISABLE", waba_ban_date: "2026-01-01" },
      }),
    );
    await eventually(async () => (await statusOf(suite.ctx, suite.cloud.id)) === "DISCONNECTED");
    await eventually(async () => (await mailsTo(suite.adminEmail)).some((m) => m.text.includes("desativou")));
    await postWebhook(
      suite.ctx,
      suite.cloud.id,
      accountChange("account_update", {
        event: "DISABLED_UPDATE",
        ban_info: { waba_ban_state: "REINSTATE" },
      }),
    );
    await eventually(async () => (await statusOf(suite.ctx, suite.cloud.id)) === "CONNECTED");
  });

  it("a token that expires while sending: the message fails with the reason, the connection is DISCONNECTED, the admins are mailed", async () => {
    const row = await customerWrites(
      suite,
      { whatsappId: suite.cloud.id, pnid: PNID },
      newNumber(76_000_000),
    );
    expectOk(
      await call("PUT", `/tickets/${row.ticketId}`, suite.admin, { status: "open", userId: suite.adminId }),
    );
    suite.fake.expireToken();
    const sent = expectOk<MessageDTO>(
      await call("POST", `/messages/${row.ticketId}`, suite.admin, { body: "Ainda aí?" }),
      201,
    );
    await eventually(async () => {
      const [m] = await suite.ctx.deps.db.select().from(messages).where(eq(messages.id, sent.id));
      return (m!.sendError ?? "").startsWith("ERR_WAPP_TOKEN_EXPIRED");
    });
    await eventually(async () => (await statusOf(suite.ctx, suite.cloud.id)) === "DISCONNECTED");
    await eventually(async () =>
      (await mailsTo(suite.adminEmail)).some((m) => m.text.includes("token de acesso")),
    );
    // The other connection of the app has its own row: only this one is down.
    const [other] = await suite.ctx.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, sent.id), eq(messages.ack, 0)));
    expect(other).toBeDefined();
  });
});
