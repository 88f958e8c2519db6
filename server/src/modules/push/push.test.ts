import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatDTO, PushKeyDTO } from "@atende/contracts";
import { pushSubscriptions, refreshTokens, tickets } from "../../db/schema/index.js";
import { caller, expectError, expectOk } from "../../test/calls.js";
import { buildSimulatorCompany, phoneSends } from "../../test/channels.js";
import { type Member, buildMember, login, newNumber } from "../../test/factories.js";
import { type FakeDevice, type PushServiceFake, startPushService } from "../../test/fakes/pushService.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";

/**
 * Web Push on a real database, to a local push service that speaks the protocol (it checks the
 * VAPID signature and decrypts each payload with the device's own keys): who hears what, by the
 * in-app alerts' rules, nothing across queues or companies, the company's preview switch, the
 * device's language, and devices forgotten when their push service or their session says so.
 */

let ctx: TestContext;
let pushService: PushServiceFake;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let other: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let agentA: Member;
let agentB: Member;
const call = caller(() => ctx);

async function register(who: Pick<Member, "login">, device: FakeDevice, language?: "pt" | "en" | "es") {
  expectOk(await call("PUT", "/push/subscription", who.login, { ...device.subscription, language }), 204);
}

async function devicesOf(userId: number) {
  return ctx.deps.db
    .select({ endpoint: pushSubscriptions.endpoint, sessionId: pushSubscriptions.sessionId })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
}

/** The pushes the server started are all answered: what a device has not received by then, it never will. */
const settled = () => ctx.built.push.settled();

beforeAll(async () => {
  pushService = await startPushService();
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx, { queues: 2 });
  other = await buildSimulatorCompany(ctx, { queues: 1 });
  agentA = await buildMember(ctx, team.company.id, { name: "Ana", queueIds: [team.queues[0]!.id] });
  agentB = await buildMember(ctx, team.company.id, { name: "Bruno", queueIds: [team.queues[1]!.id] });
});
afterAll(async () => {
  await ctx?.close();
  await pushService?.close();
});

describe("push: the devices", () => {
  it("answers the server's VAPID key to a signed-in user only", async () => {
    const { publicKey } = expectOk<PushKeyDTO>(await call("GET", "/push/key", agentA.login));
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expectError(await call("GET", "/push/key", null), 401, "ERR_NO_SESSION");
  });

  it("refuses what no browser would give: bad keys, no http(s) URL, a private address", async () => {
    const { subscription } = pushService.device();
    const put = (body: unknown) => call("PUT", "/push/subscription", agentA.login, body);
    expectError(
      await put({ ...subscription, keys: { ...subscription.keys, p256dh: "abc" } }),
      400,
      "ERR_VALIDATION",
    );
    expectError(
      await put({ ...subscription, keys: { ...subscription.keys, auth: "" } }),
      400,
      "ERR_VALIDATION",
    );
    expectError(
      await put({ ...subscription, endpoint: "ftp://push.example/x" }),
      400,
      "ERR_PUSH_ENDPOINT_INVALID",
    );
    expectError(
      await put({ ...subscription, endpoint: "http://169.254.169.254/latest/meta-data" }),
      400,
      "ERR_PUSH_ENDPOINT_FORBIDDEN",
    );
    expectError(
      await put({ ...subscription, endpoint: "http://10.1.2.3/push/x" }),
      400,
      "ERR_PUSH_ENDPOINT_FORBIDDEN",
    );
    expect(await devicesOf(agentA.id)).toEqual([]);
  });

  it("keeps one row per device, the user's latest five, and removes only the caller's own", async () => {
    const member = await buildMember(ctx, team.company.id, { queueIds: [team.queues[0]!.id] });
    const devices = Array.from({ length: 6 }, () => pushService.device());
    for (const device of devices) await register(member, device);
    await register(member, devices[5]!); // the same device again: still one row
    const kept = (await devicesOf(member.id)).map((d) => d.endpoint).sort();
    expect(kept).toEqual(
      devices
        .slice(1)
        .map((d) => d.subscription.endpoint)
        .sort(),
    );

    // Another user cannot remove it; its owner can.
    const endpoint = devices[1]!.subscription.endpoint;
    expectOk(await call("DELETE", "/push/subscription", agentB.login, { endpoint }), 204);
    expect((await devicesOf(member.id)).map((d) => d.endpoint)).toContain(endpoint);
    expectOk(await call("DELETE", "/push/subscription", member.login, { endpoint }), 204);
    expect((await devicesOf(member.id)).map((d) => d.endpoint)).not.toContain(endpoint);

    // A shared computer: the next user to turn them on there takes the device over.
    const shared = devices[2]!;
    await register(agentB, shared);
    expect((await devicesOf(member.id)).map((d) => d.endpoint)).not.toContain(shared.subscription.endpoint);
    expect((await devicesOf(agentB.id)).map((d) => d.endpoint)).toEqual([shared.subscription.endpoint]);
    expectOk(
      await call("DELETE", "/push/subscription", agentB.login, { endpoint: shared.subscription.endpoint }),
      204,
    );
  });
});

describe("push: who hears what", () => {
  let admin: FakeDevice;
  let ana: FakeDevice;
  let bruno: FakeDevice;
  let stranger: FakeDevice;
  const customer = newNumber();
  const say = async (body: string) => {
    const res = await phoneSends(ctx, team.adminLogin, team.connection.id, {
      from: customer,
      name: "Carla",
      body,
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    admin = pushService.device();
    ana = pushService.device();
    bruno = pushService.device();
    stranger = pushService.device();
    await register({ login: team.adminLogin }, admin);
    await register(agentA, ana, "en");
    await register(agentB, bruno, "es");
    await register({ login: other.adminLogin }, stranger);
  });

  it("follows the ticket from the bot's menu to Ana's queue and into her hands, and no further", async () => {
    // A new conversation waits for the bot's menu, in no queue: the admin hears it, the agents do not.
    await say("Oi, bom dia");
    await waitFor(() => admin.received.length === 1);
    const [first] = admin.received;
    const ticketRow = async () =>
      (await ctx.deps.db.select().from(tickets).where(eq(tickets.companyId, team.company.id)))[0]!;
    const ticket = await ticketRow();
    expect(first!.payload).toEqual({
      title: "Carla",
      body: "Oi, bom dia",
      url: `/tickets/${ticket.uuid}`,
      tag: `ticket-${ticket.uuid}`,
      key: expect.stringMatching(/^message-\d+$/),
      lang: "pt",
    });
    // Signed with the key the browser subscribed with; kept a while; urgent; one topic per ticket.
    const { publicKey } = expectOk<PushKeyDTO>(await call("GET", "/push/key", agentA.login));
    expect(first).toMatchObject({ vapidKey: publicKey, urgency: "high", topic: `ticket-${ticket.id}` });
    expect(first!.ttl).toBeGreaterThan(3600);

    // The customer reads the bot's menu (the chatbot sends it after the first message, in its own
    // job: on a busy machine after the test's next line), then picks Fila 1: Ana hears the ticket
    // arrive, in English, with what the customer wrote; Bruno's queue is not told.
    await waitFor(async () => (await ticketRow()).lastMessage.includes("Fila 1"));
    await say("1");
    await waitFor(() => ana.received.length === 1);
    expect(ana.received[0]!.payload).toMatchObject({
      title: "New ticket waiting in Fila 1",
      body: "Carla: 1",
      url: `/tickets/${ticket.uuid}`,
      lang: "en",
    });

    // The customer writes again: Ana and the admin hear it (a waiting ticket of Ana's queue).
    await say("Quero um orçamento");
    await waitFor(() => ana.received.length === 2 && admin.received.length === 3);
    expect(ana.received[1]!.payload).toMatchObject({ title: "Carla", body: "Quero um orçamento" });

    // Ana takes it: from then on it is hers alone to hear; the admin sees it but stays quiet.
    expectOk(await call("PUT", `/tickets/${ticket.id}`, agentA.login, { status: "open", userId: agentA.id }));
    await say("Obrigada!");
    await waitFor(() => ana.received.length === 3);
    await settled();
    expect(ana.received[2]!.payload.body).toBe("Obrigada!");
    expect(admin.received).toHaveLength(3);
    // Nothing reached Bruno (another queue) nor the other company.
    expect(bruno.received).toEqual([]);
    expect(stranger.received).toEqual([]);
    expect(pushService.refused).toEqual([]);
  });

  it("carries no message text when the company turns previews off", async () => {
    expectOk(await call("PUT", "/settings/notificationPreview", team.adminLogin, { value: "disabled" }));
    try {
      const before = ana.received.length;
      await say("Meu CPF é 123.456.789-00");
      await waitFor(() => ana.received.length === before + 1);
      const { payload } = ana.received[before]!;
      expect(payload).toMatchObject({ title: "Carla", body: "New message" });
      expect(JSON.stringify(payload)).not.toContain("CPF");
    } finally {
      expectOk(await call("PUT", "/settings/notificationPreview", team.adminLogin, { value: "enabled" }));
    }
  });

  it("tells a chat's members of a colleague's message, never its author", async () => {
    const chat = expectOk<ChatDTO>(
      await call("POST", "/chats", agentA.login, { title: "Plantão", users: [agentB.id] }),
      201,
    );
    const before = { ana: ana.received.length, bruno: bruno.received.length };
    expectOk(
      await call("POST", `/chats/${chat.id}/messages`, agentA.login, { message: "Cobre a fila 2?" }),
      201,
    );
    await waitFor(() => bruno.received.length === before.bruno + 1);
    await settled();
    expect(bruno.received.at(-1)!.payload).toMatchObject({
      title: "Ana en Plantão",
      body: "Cobre a fila 2?",
      url: `/chats/${chat.uuid}`,
      tag: `chat-${chat.uuid}`,
      lang: "es",
    });
    expect(ana.received).toHaveLength(before.ana);
  });
});

describe("push: mentions", () => {
  it("tells a colleague mentioned in a ticket's note, never one who may not see that ticket", async () => {
    const admin = pushService.device();
    const bruno = pushService.device();
    await register({ login: team.adminLogin }, admin);
    await register(agentB, bruno);
    const customer = newNumber();
    const res = await phoneSends(ctx, team.adminLogin, team.connection.id, { from: customer, body: "Oi" });
    expect(res.statusCode, res.body).toBe(201);
    await waitFor(() => admin.received.length === 1);
    const [ticket] = await ctx.deps.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.companyId, team.company.id), eq(tickets.status, "pending")));
    // In Ana's queue: Bruno (another queue) may not see it.
    await ctx.deps.db.update(tickets).set({ queueId: team.queues[0]!.id }).where(eq(tickets.id, ticket!.id));
    const note = `@${team.admin.name} e @Bruno, vejam o pedido`;
    expectOk(await call("POST", "/ticket-notes", agentA.login, { ticketId: ticket!.id, note }), 201);
    await waitFor(() => admin.received.length === 2);
    await settled();
    expect(admin.received[1]!.payload).toMatchObject({
      title: `Ana em Ana & ${team.admin.name}`,
      body: note,
      url: expect.stringMatching(/^\/chats\/[0-9a-f-]{36}$/),
    });
    expect(bruno.received).toEqual([]);
  });
});

describe("push: devices forgotten", () => {
  it("forgets a device its push service says is gone", async () => {
    const member = await buildMember(ctx, team.company.id, { profile: "admin" });
    const device = pushService.device();
    await register(member, device);
    pushService.gone(device);
    const res = await phoneSends(ctx, team.adminLogin, team.connection.id, {
      from: newNumber(),
      body: "Olá",
    });
    expect(res.statusCode, res.body).toBe(201);
    await waitFor(async () => (await devicesOf(member.id)).length === 0);
    expect(device.received).toEqual([]);
  });

  it("sends nothing to a device whose session ran out with no logout to say so", async () => {
    const [lapsed, active] = [
      await buildMember(ctx, team.company.id, { profile: "admin" }),
      await buildMember(ctx, team.company.id, { profile: "admin" }),
    ];
    const [lapsedDevice, activeDevice] = [pushService.device(), pushService.device()];
    await register(lapsed, lapsedDevice);
    await register(active, activeDevice);
    await ctx.deps.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, lapsed.id));
    const res = await phoneSends(ctx, team.adminLogin, team.connection.id, {
      from: newNumber(),
      body: "Alô",
    });
    expect(res.statusCode, res.body).toBe(201);
    await waitFor(() => activeDevice.received.length === 1);
    await settled();
    expect(lapsedDevice.received).toEqual([]);
  });

  it("forgets the devices of a session that ends: a logout, a login elsewhere", async () => {
    const member = await buildMember(ctx, team.company.id, { queueIds: [team.queues[0]!.id] });
    await register(member, pushService.device());
    // Logging in elsewhere ends the first session (one per user): its device goes.
    const again = { login: await login(ctx, member.email) };
    expect(await devicesOf(member.id)).toEqual([]);
    const phone = pushService.device();
    await register(again, phone);
    const [row] = await devicesOf(member.id);
    expect(row).toMatchObject({ endpoint: phone.subscription.endpoint });
    // Logging out takes the device along.
    expectOk(await call("DELETE", "/auth/logout", again.login), 204);
    expect(await devicesOf(member.id)).toEqual([]);
    expect(
      await ctx.deps.db
        .select()
        .from(pushSubscriptions)
        .where(
          and(eq(pushSubscriptions.companyId, team.company.id), eq(pushSubscriptions.userId, member.id)),
        ),
    ).toEqual([]);
  });
});
