import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudTemplateDTO, ConversationWindowDTO, MessageDTO } from "@atende/contracts";
import { cloudProvider } from "../../channels/cloud/provider.js";
import { webhookSignature } from "../inbound/cloudWebhook.js";
import { contacts, jobs, messages, tickets, whatsapps } from "../../db/schema/index.js";
import { caller, expectError, expectOk } from "../../test/calls.js";
import { type FakeGraph, cloudWebhookPayload, startFakeGraph } from "../../test/fakes/graph.js";
import { type LoggedIn, buildCompany, buildConnection, buildUser, login } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";

/**
 * A Cloud API connection end to end: the real app with its sessions and job runner, the fake Graph
 * API behind it, Meta's webhook posted signed. Covers the 24-hour window and templates, a send whose
 * answer comes too late (one POST, settled by the status webhook), customers known only by their
 * business-scoped user id, and a customer's change of number.
 */

const PNID = "106540352242922";
const WABA = "102290129340398";
const APP_SECRET = "app-secret-cloud";
const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

let ctx: TestContext;
let fake: FakeGraph;
let admin: LoggedIn;
let stranger: LoggedIn;
let companyId: number;
let adminId: number;
let cloud: typeof whatsapps.$inferSelect;
const call = caller(() => ctx);
let seq = 0;

beforeAll(async () => {
  fake = await startFakeGraph();
  fake.phoneNumbers.set(PNID, { display_phone_number: "+1 555-078-3881", verified_name: "Atende" });
  fake.templates.set(WABA, [
    {
      name: "order_update",
      language: "pt_BR",
      status: "APPROVED",
      category: "UTILITY",
      components: [
        { type: "HEADER", format: "TEXT", text: "Pedido {{1}}" },
        { type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu para entrega." },
        { type: "FOOTER", text: "Loja Exemplo" },
      ],
    },
    {
      name: "draft_offer",
      language: "pt_BR",
      status: "PENDING",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Oferta" }],
    },
    {
      name: "hello_world",
      language: "en_US",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hello, we are back." }],
    },
  ]);
  ctx = await createTestContext(
    { GRAPH_API_URL: fake.url, LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 },
    // A Graph API slower than 2 s counts as no answer.
    { providers: { cloud: cloudProvider({ graphUrl: fake.url, timeoutMs: 2_000, recheckMs: 200 }) } },
  );
  const company = await buildCompany(ctx.deps.db);
  companyId = company.id;
  const user = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
  adminId = user.id;
  admin = await login(ctx, user.email);
  const other = await buildCompany(ctx.deps.db);
  stranger = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
  cloud = await buildConnection(ctx.deps.db, company.id, {
    provider: "cloud",
    status: "OPENING",
    number: "",
    providerConfig: {
      phoneNumberId: PNID,
      wabaId: WABA,
      accessToken: fake.accessToken,
      verifyToken: "verify",
      appSecret: APP_SECRET,
    },
  });
  ctx.built.startBackground();
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

async function connectionRow() {
  const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, cloud.id));
  return row!;
}

/** Meta's POST of a webhook, signed with the app secret. */
async function deliver(value: Record<string, unknown>) {
  const raw = Buffer.from(JSON.stringify(cloudWebhookPayload(PNID, value)));
  const res = await ctx.app.inject({
    method: "POST",
    url: `/webhooks/cloud/${cloud.id}`,
    headers: { "content-type": "application/json", "x-hub-signature-256": webhookSignature(APP_SECRET, raw) },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A customer writes (by number, by user id, or both); answers their open ticket once it is accepted. */
async function customerWrites(who: { number?: string; userId?: string }, text = "Oi") {
  const id = `wamid.IN${++seq}`;
  await deliver({
    contacts: [
      {
        profile: { name: "Cliente" },
        ...(who.number ? { wa_id: who.number } : {}),
        ...(who.userId ? { user_id: who.userId } : {}),
      },
    ],
    messages: [
      {
        ...(who.number ? { from: who.number } : {}),
        ...(who.userId ? { from_user_id: who.userId } : {}),
        id,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: "text",
        text: { body: text },
      },
    ],
  });
  let ticketId = 0;
  await eventually(async () => {
    const [row] = await ctx.deps.db
      .select({ ticketId: messages.ticketId })
      .from(messages)
      .where(and(eq(messages.whatsappId, cloud.id), eq(messages.wid, id)));
    ticketId = row?.ticketId ?? 0;
    return ticketId > 0;
  });
  expectOk(await call("PUT", `/tickets/${ticketId}`, admin, { status: "open", userId: adminId }));
  return ticketId;
}

async function messageRow(id: number) {
  const [row] = await ctx.deps.db.select().from(messages).where(eq(messages.id, id));
  return row!;
}

const graphSends = () => fake.requests.filter((r) => r.method === "POST" && r.path === `/${PNID}/messages`);

describe("a Cloud API connection starting", () => {
  it("is CONNECTED, with the number Graph gives, only after its token reached the phone number", async () => {
    await eventually(async () => (await connectionRow()).status === "CONNECTED");
    expect((await connectionRow()).number).toBe("15550783881");
    expect(fake.requests.some((r) => r.method === "GET" && r.path === `/${PNID}`)).toBe(true);
  });
});

describe("no double send after a timeout", () => {
  it("a send Graph answers too late is POSTed once, marked unknown, and settled by its status webhook", async () => {
    await eventually(async () => (await connectionRow()).status === "CONNECTED");
    const ticketId = await customerWrites({ number: "5511970000001" });
    fake.failNext({ delayMs: 4_000, pathEndsWith: "/messages" });
    const before = graphSends().length;
    const sent = expectOk<MessageDTO>(
      await call("POST", `/messages/${ticketId}`, admin, { body: "Já vejo" }),
      201,
    );
    await eventually(async () => (await messageRow(sent.id)).sendError !== null);
    const unknown = await messageRow(sent.id);
    expect(unknown.sendError).toMatch(/^ERR_WAPP_SEND_UNKNOWN: /);
    expect(unknown.ack).toBe(0);
    // Its job is over (failed, not waiting for another attempt): nothing will POST it again.
    const [job] = await ctx.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, "send-message"), eq(jobs.status, "pending")));
    expect(job).toBeUndefined();
    // Graph did take it (it answers late); it saw exactly one POST of it, carrying our id.
    await eventually(() =>
      graphSends()
        .slice(before)
        .every((r) => r.answeredId),
    );
    const posts = graphSends().slice(before);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toMatchObject({
      biz_opaque_callback_data: unknown.wid,
      text: { body: "Já vejo" },
    });

    // Meta's status webhook names it by our id and gives its own: the message is sent after all.
    const wamid = posts[0]!.answeredId!;
    await deliver({
      statuses: [
        {
          id: wamid,
          status: "sent",
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: "5511970000001",
          biz_opaque_callback_data: unknown.wid,
        },
      ],
    });
    // "sent" is ack 2 (the server's tick), as for any message.
    await eventually(async () => (await messageRow(sent.id)).ack === 2);
    const settled = await messageRow(sent.id);
    expect(settled).toMatchObject({ wid: wamid, ack: 2, sendError: null });
    expect(graphSends().slice(before)).toHaveLength(1);
  });
});

describe("the 24-hour window and templates", () => {
  it("lists only the approved templates of the connection's WABA, every page, with their variables", async () => {
    const list = expectOk<CloudTemplateDTO[]>(await call("GET", `/whatsapp/${cloud.id}/templates`, admin));
    expect(list).toEqual([
      {
        name: "order_update",
        language: "pt_BR",
        category: "UTILITY",
        parameterFormat: "POSITIONAL",
        headerFormat: "TEXT",
        header: "Pedido {{1}}",
        body: "Olá {{1}}, seu pedido {{2}} saiu para entrega.",
        footer: "Loja Exemplo",
        headerVariables: 1,
        bodyVariables: 2,
        headerParams: ["1"],
        bodyParams: ["1", "2"],
        buttons: [],
      },
      {
        name: "hello_world",
        language: "en_US",
        category: "UTILITY",
        parameterFormat: "POSITIONAL",
        headerFormat: null,
        header: null,
        body: "Hello, we are back.",
        footer: null,
        headerVariables: 0,
        bodyVariables: 0,
        headerParams: [],
        bodyParams: [],
        buttons: [],
      },
    ]);
    // Cached: a second look does not call Graph again.
    const calls = fake.requests.filter((r) => r.path.endsWith("/message_templates")).length;
    expectOk(await call("GET", `/whatsapp/${cloud.id}/templates`, admin));
    expect(fake.requests.filter((r) => r.path.endsWith("/message_templates")).length).toBe(calls);
    expectError(await call("GET", `/whatsapp/${cloud.id}/templates`, stranger), 404, "ERR_NO_WAPP_FOUND");
  });

  it("is open for 24 hours after the customer's last message, then offers only templates", async () => {
    const ticketId = await customerWrites({ number: "5511970000002" });
    const open = expectOk<ConversationWindowDTO>(await call("GET", `/tickets/${ticketId}/window`, admin));
    expect(open).toMatchObject({ applies: true, whatsappId: cloud.id, open: true });
    expect(Date.parse(open.endsAt!) - Date.parse(open.lastInboundAt!)).toBe(24 * 3600_000);
    expectError(await call("GET", `/tickets/${ticketId}/window`, stranger), 404, "ERR_NO_TICKET_FOUND");

    ctx.clock.now = new Date(Date.parse(open.endsAt!) + 60_000);
    try {
      const closed = expectOk<ConversationWindowDTO>(await call("GET", `/tickets/${ticketId}/window`, admin));
      expect(closed).toMatchObject({ applies: true, open: false, endsAt: open.endsAt });
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("sends a template with its variables through the outbound queue, its text filled in on the ticket", async () => {
    const ticketId = await customerWrites({ number: "5511970000003" });
    const before = graphSends().length;
    const sent = expectOk<MessageDTO>(
      await call("POST", `/messages/${ticketId}/template`, admin, {
        name: "order_update",
        language: "pt_BR",
        header: ["#123"],
        body: ["Ana", "123"],
      }),
      201,
    );
    expect(sent.body).toBe("Pedido #123\n\nOlá Ana, seu pedido 123 saiu para entrega.\n\nLoja Exemplo");
    await eventually(async () => (await messageRow(sent.id)).ack === 1);
    expect(
      graphSends()
        .slice(before)
        .map((r) => r.json),
    ).toEqual([
      expect.objectContaining({
        to: "5511970000003",
        type: "template",
        template: {
          name: "order_update",
          language: { code: "pt_BR" },
          components: [
            { type: "header", parameters: [{ type: "text", text: "#123" }] },
            {
              type: "body",
              parameters: [
                { type: "text", text: "Ana" },
                { type: "text", text: "123" },
              ],
            },
          ],
        },
      }),
    ]);
  });

  it("refuses a template it does not know or with the wrong number of variables, sending nothing", async () => {
    const ticketId = await customerWrites({ number: "5511970000004" });
    const before = graphSends().length;
    const send = (body: unknown) => call("POST", `/messages/${ticketId}/template`, admin, body);
    expectError(
      await send({ name: "order_update", language: "pt_BR", body: ["Ana"] }),
      422,
      "ERR_WAPP_TEMPLATE_PARAMS",
    );
    expectError(await send({ name: "draft_offer", language: "pt_BR" }), 404, "ERR_WAPP_TEMPLATE_MISSING");
    expectError(await send({ name: "hello_world", language: "pt_BR" }), 404, "ERR_WAPP_TEMPLATE_MISSING");
    expectError(
      await call("POST", `/messages/${ticketId}/template`, stranger, {
        name: "hello_world",
        language: "en_US",
      }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
    expect(graphSends().length).toBe(before);
  });

  it("a 131047 failed status marks the message so the screen offers templates; 132000-series are named", async () => {
    const ticketId = await customerWrites({ number: "5511970000005" });
    const sent = expectOk<MessageDTO>(
      await call("POST", `/messages/${ticketId}`, admin, { body: "Late" }),
      201,
    );
    await eventually(async () => (await messageRow(sent.id)).ack === 1);
    const row = await messageRow(sent.id);
    const failed = (code: number, title: string) =>
      deliver({
        statuses: [
          {
            id: row.wid,
            status: "failed",
            timestamp: String(Math.floor(Date.now() / 1000)),
            recipient_id: "5511970000005",
            errors: [{ code, title, message: title, error_data: { details: title } }],
          },
        ],
      });
    await failed(131047, "Re-engagement message");
    await eventually(async () => (await messageRow(sent.id)).sendError !== null);
    expect((await messageRow(sent.id)).sendError).toMatch(/^ERR_WAPP_24H_WINDOW: 131047/);
    await failed(132001, "Template name does not exist in the translation");
    await eventually(async () =>
      /^ERR_WAPP_TEMPLATE_MISSING/.test((await messageRow(sent.id)).sendError ?? ""),
    );
  });

  it("a ticket on another provider has no window, and its connection no templates", async () => {
    const simulator = await buildConnection(ctx.deps.db, companyId, { status: "DISCONNECTED" });
    const [contact] = await ctx.deps.db
      .insert(contacts)
      .values({ companyId, name: "Sim", number: "5511970000099" })
      .returning();
    const [ticket] = await ctx.deps.db
      .insert(tickets)
      .values({
        companyId,
        contactId: contact!.id,
        whatsappId: simulator.id,
        status: "open",
        userId: adminId,
      })
      .returning();
    expect(
      expectOk<ConversationWindowDTO>(await call("GET", `/tickets/${ticket!.id}/window`, admin)),
    ).toEqual({
      applies: false,
      whatsappId: simulator.id,
      open: true,
      lastInboundAt: null,
      endsAt: null,
    });
    expectError(await call("GET", `/whatsapp/${simulator.id}/templates`, admin), 400, "ERR_WAPP_NO_WABA");
    expectError(
      await call("POST", `/messages/${ticket!.id}/template`, admin, {
        name: "hello_world",
        language: "en_US",
      }),
      400,
      "ERR_WAPP_NO_WABA",
    );
  });
});

describe("customers without a phone number, and customers who change it", () => {
  it("a customer known only by the business-scoped user id gets a contact with it, and is answered by it", async () => {
    const userId = "BR.1502576394655843";
    const ticketId = await customerWrites({ userId }, "sem número");
    const [contact] = await ctx.deps.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.lid, userId)));
    expect(contact).toMatchObject({ number: "", lid: userId, name: "Cliente" });
    // The next message, by the same id, is the same contact's ticket.
    expect(await customerWrites({ userId }, "de novo")).toBe(ticketId);
    const before = graphSends().length;
    const sent = expectOk<MessageDTO>(
      await call("POST", `/messages/${ticketId}`, admin, { body: "Olá!" }),
      201,
    );
    await eventually(async () => (await messageRow(sent.id)).ack === 1);
    const [post] = graphSends().slice(before);
    expect(post!.json).toMatchObject({ recipient: userId, type: "text", text: { body: "Olá!" } });
    expect(post!.json).not.toHaveProperty("to");
  });

  it("a number given with the user id stores both on the contact", async () => {
    await customerWrites({ number: "5511970000006", userId: "BR.99887766" });
    const [contact] = await ctx.deps.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.number, "5511970000006")));
    expect(contact!.lid).toBe("BR.99887766");
  });

  it("a system message of a changed number shows on the ticket and moves the contact to the new number", async () => {
    const ticketId = await customerWrites({ number: "5511970000007" });
    const id = `wamid.SYS${++seq}`;
    await deliver({
      messages: [
        {
          from: "5511970000007",
          id,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: "system",
          system: {
            body: "User Cliente changed from 5511970000007 to 5511970000008",
            wa_id: "5511970000008",
            type: "user_changed_number",
          },
        },
      ],
    });
    await eventually(async () => {
      const [row] = await ctx.deps.db.select().from(messages).where(eq(messages.wid, id));
      return row?.ticketId === ticketId;
    });
    await eventually(async () => {
      const [t] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, ticketId));
      const [c] = await ctx.deps.db.select().from(contacts).where(eq(contacts.id, t!.contactId));
      return c!.number === "5511970000008";
    });
    const [system] = await ctx.deps.db.select().from(messages).where(eq(messages.wid, id));
    expect(system!.body).toBe("User Cliente changed from 5511970000007 to 5511970000008");
  });
});
