import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulatorPhoneMessage } from "@atende/contracts";
import { dbAuthStore } from "../../channels/authStore.js";
import { fakeSocketProvider } from "../../channels/baileys/fixtures/harness.js";
import { contacts, messages, plans, simulatorMessages, tickets, whatsapps } from "../../db/schema/index.js";
import { inTransaction } from "../../events/bus.js";
import { queueOutbound } from "../messages/outbound.js";
import { buildSimulatorCompany, connectSimulator, phoneSends, phoneShows } from "../../test/channels.js";
import {
  type LoggedIn,
  buildCompany,
  buildUser,
  login,
  newNumber,
  buildConnection,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { expectError, caller } from "../../test/calls.js";
import { caughtUp } from "../../test/settled.js";

/** Waits generously: the job runner and the simulator's timers run on a busy machine. */
const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

/**
 * The simulator's HTTP API: a person (or a test) plays a customer's phone on a simulator
 * connection. Admins only, their own company's simulator connections only; the phone's view of
 * the chat, with the business's messages arriving and their ticks moving.
 */

const MEDIA_MAX_BYTES = 64 * 1024;
let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let agentLogin: LoggedIn;
let stranger: LoggedIn;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext(
    {
      LOGIN_MAX_PER_EMAIL: 1000,
      LOGIN_MAX_PER_IP: 100_000,
      MEDIA_MAX_BYTES,
    },
    // A "beta" connection must never reach WhatsApp from a test: Baileys runs on fake sockets.
    { providers: { beta: fakeSocketProvider() } },
  );
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx);
  // Room for the extra connections the tests add (beta, cloud, unpaired simulators).
  await ctx.deps.db.update(plans).set({ connections: 20 }).where(eq(plans.id, team.company.planId!));
  const agent = await buildUser(ctx.deps.db, team.company.id, { queueIds: [team.queues[0]!.id] });
  agentLogin = await login(ctx, agent.email);
  const other = await buildCompany(ctx.deps.db);
  stranger = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const call = caller(() => ctx);
const send = (payload: Record<string, unknown>, whatsappId = team.connection.id, who = team.adminLogin) =>
  phoneSends(ctx, who, whatsappId, payload);

const phone = (number: string, whatsappId = team.connection.id) =>
  phoneShows(ctx, team.adminLogin, whatsappId, number);

async function insertConnection(
  companyId: number,
  provider: "beta" | "cloud" | "simulator",
  status: "CONNECTED" | "DISCONNECTED",
) {
  return buildConnection(ctx.deps.db, companyId, { provider, status, number: "5511900000001" });
}

async function ticketOf(number: string, whatsappId = team.connection.id) {
  const [row] = await ctx.deps.db
    .select({ t: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(contacts.companyId, team.company.id),
        eq(contacts.number, number),
        eq(tickets.whatsappId, whatsappId),
      ),
    );
  return row?.t ?? null;
}

async function phoneRows(whatsappId: number) {
  return ctx.deps.db.select().from(simulatorMessages).where(eq(simulatorMessages.whatsappId, whatsappId));
}

/** Every route of the simulator API for one connection, with a valid request each. */
function allRoutes(whatsappId: number | string, number = "5511912345678") {
  return [
    ["GET", `/simulator/${whatsappId}/phones`, undefined],
    ["GET", `/simulator/${whatsappId}/messages?number=${number}`, undefined],
    ["POST", `/simulator/${whatsappId}/messages`, { from: number, body: "oi" }],
    ["POST", `/simulator/${whatsappId}/scan`, undefined],
    ["POST", `/simulator/${whatsappId}/read?number=${number}`, undefined],
    ["POST", `/simulator/${whatsappId}/calls`, { from: number }],
  ] as const;
}

describe("who may play the phone, and on which connection", () => {
  it("a connection that is not a simulator (beta, cloud) answers 404 ERR_NO_WAPP_FOUND on every route", async () => {
    for (const provider of ["beta", "cloud"] as const) {
      const row = await insertConnection(team.company.id, provider, "DISCONNECTED");
      for (const [method, url, body] of allRoutes(row.id)) {
        expectError(await call(method, url, team.adminLogin, body), 404, "ERR_NO_WAPP_FOUND");
      }
      expect(await phoneRows(row.id)).toEqual([]);
    }
  });

  it("a simulator connection that is not CONNECTED refuses a phone's message with 409 ERR_WAPP_NOT_INITIALIZED", async () => {
    const res = await call("POST", "/whatsapp", team.adminLogin, {
      name: "Sim sem QR",
      provider: "simulator",
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json<{ id: number }>().id;
    await eventually(
      async () =>
        (await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0]!.status === "qrcode",
    );
    const number = newNumber();
    expectError(await send({ from: number, body: "alô?" }, id), 409, "ERR_WAPP_NOT_INITIALIZED");
    const disconnected = await insertConnection(team.company.id, "simulator", "DISCONNECTED");
    expectError(await send({ from: number, body: "alô?" }, disconnected.id), 409, "ERR_WAPP_NOT_INITIALIZED");
    // Nothing reached the phone book or the inbox.
    expect(await phoneRows(id)).toEqual([]);
    expect(await phoneRows(disconnected.id)).toEqual([]);
    expect(await ticketOf(number, id)).toBeNull();
    // The phone's side may still be looked at.
    expect(await phone(number, id)).toEqual([]);
  });

  it("an agent gets 403 ERR_NO_PERMISSION on every route", async () => {
    const number = newNumber();
    for (const [method, url, body] of allRoutes(team.connection.id, number)) {
      expectError(await call(method, url, agentLogin, body), 403, "ERR_NO_PERMISSION");
    }
    expect(await phone(number)).toEqual([]);
    expect(await ticketOf(number)).toBeNull();
  });

  it("another company's admin gets 404 ERR_NO_WAPP_FOUND on every route and cannot pair or read for it", async () => {
    const res = await call("POST", "/whatsapp", team.adminLogin, { name: "Sim de A", provider: "simulator" });
    const unpaired = res.json<{ id: number }>().id;
    await eventually(
      async () =>
        (await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, unpaired)))[0]!.status ===
        "qrcode",
    );

    // A conversation on A's connected simulator, so there is something to read or leak.
    const number = newNumber();
    await send({ from: number, name: "Cliente de A", body: "segredo de A" });

    for (const id of [team.connection.id, unpaired]) {
      for (const [method, url, body] of allRoutes(id, number)) {
        const answer = await call(method, url, stranger, body);
        expectError(answer, 404, "ERR_NO_WAPP_FOUND");
        expect(answer.body).not.toContain("segredo de A");
      }
    }
    // The stranger's scan paired nothing: no pairing for the simulator's poll to find, still a QR code.
    expect(await dbAuthStore(ctx.deps.db, team.company.id, unpaired).get("simulator", ["paired"])).toEqual(
      {},
    );
    expect((await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, unpaired)))[0]!.status).toBe(
      "qrcode",
    );
    // The stranger's message went nowhere.
    expect((await phone(number)).map((m) => m.body)).toEqual(["segredo de A"]);
  });

  it("without a session every route answers 401", async () => {
    for (const [method, url, body] of allRoutes(team.connection.id)) {
      expect((await call(method, url, null, body)).statusCode).toBe(401);
    }
  });
});

describe("what the phone may send", () => {
  it("refuses a bad number and an empty message with 400 and field errors", async () => {
    const bad = await send({ from: "abc", body: "x" });
    expectError(bad, 400, "ERR_VALIDATION");
    expect(bad.json().fields).toHaveProperty("from");
    for (const payload of [
      { from: newNumber() },
      { from: newNumber(), body: "" },
      { from: newNumber(), name: "Só nome" },
    ]) {
      const res = await send(payload);
      expectError(res, 400, "ERR_VALIDATION");
      expect(res.json().fields).toHaveProperty("body");
    }
    for (const payload of [
      {},
      { from: "1234567", body: "curto demais" },
      { from: "1234567890123456", body: "longo demais" },
      { from: 5511912345678, body: "número como número" },
      { from: newNumber(), body: 42 },
      { from: newNumber(), body: "x", media: { filename: "a.png", mimetype: "image/png", dataBase64: "" } },
      { from: newNumber(), body: "x", media: "iVBORw0KGgo=" },
      { from: newNumber(), location: { latitude: "north", longitude: 0 } },
      { from: newNumber(), presence: "dancing" },
      { from: newNumber(), edit: { targetId: "", body: "x" } },
    ]) {
      const res = await send(payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
  });

  it("a call: it shows on the phone, the missed call is stored in the ticket; a bad call is refused with 400", async () => {
    const number = newNumber();
    const res = await call("POST", `/simulator/${team.connection.id}/calls`, team.adminLogin, {
      from: number,
      name: "Caio",
      isVideo: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json<{ id: string }>();
    expect(await phone(number)).toMatchObject([
      { id, direction: "in", kind: "call", body: "Chamada de vídeo", isDeleted: false },
    ]);
    const ticket = await ticketOf(number);
    const [contact] = await ctx.deps.db.select().from(contacts).where(eq(contacts.id, ticket!.contactId));
    expect(contact!.name).toBe("Caio");
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticket!.id));
    expect(stored).toMatchObject([
      {
        wid: `call:${id}`,
        mediaType: "call_log",
        fromMe: false,
        body: expect.stringMatching(/^Chamada de vídeo perdida às \d\d:\d\d$/),
      },
    ]);
    for (const payload of [
      {},
      { from: "abc" },
      { from: newNumber(), isVideo: "sim" },
      { from: newNumber(), name: "x".repeat(101) },
    ]) {
      const bad = await call("POST", `/simulator/${team.connection.id}/calls`, team.adminLogin, payload);
      expectError(bad, 400, "ERR_VALIDATION");
    }
  });

  it("bodies that are not objects, and bad ids, answer 400, never 500", async () => {
    for (const payload of ['"texto"', "[]", "[{}]", "null", "{oops", "42"]) {
      const res = await ctx.app.inject({
        method: "POST",
        url: `/simulator/${team.connection.id}/messages`,
        payload,
        headers: { ...team.adminLogin.auth, "content-type": "application/json" },
      });
      expect(res.statusCode, `${payload}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    for (const id of ["0", "-1", "abc", "1.5", "99999999999"]) {
      for (const [method, url, body] of allRoutes(id)) {
        const res = await call(method, url, team.adminLogin, body);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toBe("ERR_VALIDATION");
      }
    }
    for (const query of ["", "?number=", "?number=abc", "?number=123", "?number[]=5511912345678"]) {
      for (const path of ["messages", "read"]) {
        const res = await call(
          path === "read" ? "POST" : "GET",
          `/simulator/${team.connection.id}/${path}${query}`,
          team.adminLogin,
        );
        expect(res.statusCode, `${path}${query}: ${res.body}`).toBe(400);
        expect(res.json().error).toBe("ERR_VALIDATION");
      }
    }
  });

  it("media whose base64 is not valid is refused whole: 400 ERR_VALIDATION, no ticket, nothing on the phone", async () => {
    for (const dataBase64 of ["!!!not-base64!!!", "@@@@", "%%%%====", "abcde", "aGVsbG8=aGVsbG8="]) {
      const number = newNumber();
      const res = await send({
        from: number,
        body: "arquivo estranho",
        media: { filename: "estranho.png", mimetype: "image/png", dataBase64 },
      });
      expect(res.statusCode, `${dataBase64}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(await phone(number)).toHaveLength(0);
      expect(await ticketOf(number)).toBeNull();
    }
  });

  it("media that is valid base64 but not the type it claims is stored, never served as that type", async () => {
    for (const dataBase64 of ["iVBORw0KGgo", "aGVsbG8gd29ybGQ"]) {
      const number = newNumber();
      const res = await send({
        from: number,
        body: "arquivo estranho",
        media: { filename: "estranho.png", mimetype: "image/png", dataBase64 },
      });
      expect(res.statusCode, `${dataBase64}: ${res.body}`).toBe(201);
      const view = await phone(number);
      expect(view).toHaveLength(1);
      expect(view[0]).toMatchObject({ direction: "in", body: "arquivo estranho" });
      const ticket = await ticketOf(number);
      expect(ticket).not.toBeNull();
      const storedNow = () => ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticket!.id));
      expect(await storedNow()).toHaveLength(1);
      // The file is copied by the media job, after the message is stored.
      await waitFor(async () => (await storedNow())[0]!.mediaStatus === null);
      const stored = await storedNow();
      // Whatever the bytes were, they are never served as the image type the phone claimed.
      expect(stored[0]!.mediaPath).not.toBeNull();
      expect(stored[0]!.mediaMime).toBe("application/octet-stream");
    }
  });

  it("media over the size limit answers 413 ERR_MEDIA_TOO_LARGE and leaves nothing behind", async () => {
    const number = newNumber();
    const res = await send({
      from: number,
      body: "grande demais",
      media: {
        filename: "grande.bin",
        mimetype: "application/octet-stream",
        dataBase64: Buffer.alloc(MEDIA_MAX_BYTES + 1, 7).toString("base64"),
      },
    });
    expectError(res, 413, "ERR_MEDIA_TOO_LARGE");
    expect(await phone(number)).toEqual([]);
    expect(await ticketOf(number)).toBeNull();
  });
});

describe("the phone's view", () => {
  it("GET /phones lists the numbers that wrote, with their names and lastMessageAt as ISO, most recent first", async () => {
    const own = await connectSimulator(ctx, team.adminLogin, { queueIds: [team.queues[0]!.id] });
    expect((await call("GET", `/simulator/${own.id}/phones`, team.adminLogin)).json()).toEqual([]);
    const ana = newNumber();
    const bruno = newNumber();
    const caio = newNumber();
    const at = (iso: string) => {
      ctx.clock.now = new Date(iso);
    };
    try {
      at("2026-03-01T10:00:00.000Z");
      expect((await send({ from: ana, name: "Ana", body: "primeira" }, own.id)).statusCode).toBe(201);
      at("2026-03-01T11:00:00.000Z");
      expect((await send({ from: bruno, name: "Bruno", body: "oi" }, own.id)).statusCode).toBe(201);
      at("2026-03-01T12:00:00.000Z");
      expect((await send({ from: caio, body: "sem nome" }, own.id)).statusCode).toBe(201);
      at("2026-03-01T13:00:00.000Z");
      expect((await send({ from: ana, name: "Ana", body: "de novo" }, own.id)).statusCode).toBe(201);
    } finally {
      ctx.clock.now = new Date();
    }
    const res = await call("GET", `/simulator/${own.id}/phones`, team.adminLogin);
    expect(res.statusCode).toBe(200);
    const list = res.json<{ number: string; name: string; lastMessageAt: string }[]>();
    expect(list).toEqual([
      { number: ana, name: "Ana", lastMessageAt: "2026-03-01T13:00:00.000Z" },
      { number: caio, name: expect.any(String), lastMessageAt: "2026-03-01T12:00:00.000Z" },
      { number: bruno, name: "Bruno", lastMessageAt: "2026-03-01T11:00:00.000Z" },
    ]);
    // Phones of the company's other simulator are not listed here.
    const main = (await call("GET", `/simulator/${team.connection.id}/phones`, team.adminLogin)).json<
      { number: string }[]
    >();
    expect(main.map((p) => p.number)).not.toContain(ana);
  });

  it("GET /messages?number= shows what the phone sent as direction 'in', delivered (ack 3), oldest first; an unknown number answers []", async () => {
    const number = newNumber();
    expect((await send({ from: number, name: "Dora", id: "PH-1", body: "olá" })).json()).toEqual({
      id: "PH-1",
    });
    expect(
      (await send({ from: `+${number}`, id: "PH-2", body: "tudo bem?", quotedId: "PH-1" })).statusCode,
    ).toBe(201);
    const view = await phone(number);
    expect(view).toEqual([
      {
        id: "PH-1",
        direction: "in",
        body: "olá",
        kind: "text",
        media: null,
        quotedId: null,
        ack: 3,
        isDeleted: false,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
      expect.objectContaining({ id: "PH-2", direction: "in", body: "tudo bem?", quotedId: "PH-1", ack: 3 }),
    ]);
    // The same number written with "+" is the same phone.
    expect(await phone(`+${number}`)).toEqual(view);
    expect(await phone("5511933332222")).toEqual([]);
    // What the phone sent became one ticket in the inbox.
    const ticket = await ticketOf(number);
    expect(ticket).toMatchObject({ status: "pending", unreadMessages: 2 });
  });
});

describe("the business side on the phone", () => {
  async function queue(ticketId: number, body: string) {
    return inTransaction(ctx.deps.db, ctx.deps.bus, (tx, raise) =>
      queueOutbound(tx, raise, { companyId: team.company.id, ticketId, body, userId: team.admin.id }),
    );
  }
  const ackOf = async (id: number) =>
    (await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!.ack;

  it("an agent's message reaches the phone as direction 'out', turns delivered, and POST /read turns it read (ack 4) on both sides", async () => {
    const number = newNumber();
    await send({ from: number, name: "Eva", body: "preciso de ajuda" });
    const ticket = (await ticketOf(number))!;
    const first = await queue(ticket.id, "Olá Eva, como posso ajudar?");
    const second = await queue(ticket.id, "Pode me mandar o pedido?");

    await eventually(
      async () => (await phone(number)).filter((m) => m.direction === "out" && m.ack === 3).length === 2,
    );
    const view = await phone(number);
    expect(view.map((m) => [m.direction, m.body])).toEqual([
      ["in", "preciso de ajuda"],
      ["out", "Olá Eva, como posso ajudar?"],
      ["out", "Pode me mandar o pedido?"],
    ]);
    await eventually(async () => (await ackOf(first)) === 3 && (await ackOf(second)) === 3);

    const read = await call(
      "POST",
      `/simulator/${team.connection.id}/read?number=${number}`,
      team.adminLogin,
    );
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ read: 2 });
    expect((await phone(number)).filter((m) => m.direction === "out").map((m) => m.ack)).toEqual([4, 4]);
    expect(await ackOf(first)).toBe(4);
    expect(await ackOf(second)).toBe(4);
    // The phone's own messages are not "read" by the phone.
    expect((await phone(number)).find((m) => m.direction === "in")!.ack).toBe(3);

    // Reading again reads nothing new; another number reads nothing.
    expect(
      (await call("POST", `/simulator/${team.connection.id}/read?number=${number}`, team.adminLogin)).json(),
    ).toEqual({ read: 0 });
    expect(
      (
        await call("POST", `/simulator/${team.connection.id}/read?number=5511933332222`, team.adminLogin)
      ).json(),
    ).toEqual({ read: 0 });
  });

  it("a live company-{id}-simulator event reaches an admin socket, not an agent socket, when the phone receives a message", async () => {
    const number = newNumber();
    await send({ from: number, body: "me responde?" });
    const ticket = (await ticketOf(number))!;
    const url = await ctx.url();
    const adminSocket = await connectSocket(url, team.adminLogin.token);
    const agentSocket = await connectSocket(url, agentLogin.token);
    const strangerSocket = await connectSocket(url, stranger.token);
    sockets.push(adminSocket, agentSocket, strangerSocket);
    const event = `company-${team.company.id}-simulator`;
    type PhoneEvent = { whatsappId: number; number: string; message: SimulatorPhoneMessage };
    const adminGot = record<PhoneEvent>(adminSocket, event);
    const agentGot = record<PhoneEvent>(agentSocket, event);
    const strangerGot: string[] = [];
    strangerSocket.onAny((name: string) => strangerGot.push(name));

    await queue(ticket.id, "Respondo sim!");
    await eventually(() =>
      adminGot.some((e) => e.number === number && e.message.direction === "out" && e.message.ack === 3),
    );
    const arrival = adminGot.find((e) => e.number === number && e.message.direction === "out")!;
    expect(arrival).toMatchObject({
      whatsappId: team.connection.id,
      number,
      message: { direction: "out", body: "Respondo sim!", kind: "text", media: null },
    });
    // The admin heard the delivery tick; what went to the other sockets by then has reached them.
    await Promise.all([caughtUp(agentSocket), caughtUp(strangerSocket)]);
    expect(agentGot).toEqual([]);
    expect(strangerGot.filter((n) => n.startsWith(`company-${team.company.id}-`))).toEqual([]);
  });
});

describe("media from the phone", () => {
  it("a PNG from the phone is served at its media.url to the company's admin as image/png, and 404 to another company's admin", async () => {
    const number = newNumber();
    const res = await send({
      from: number,
      body: "foto do produto",
      media: { filename: "produto.png", mimetype: "image/png", dataBase64: PNG.toString("base64") },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [msg] = await phone(number);
    expect(msg).toMatchObject({
      direction: "in",
      kind: "image",
      body: "foto do produto",
      media: {
        filename: "produto.png",
        mimetype: "image/png",
        url: expect.stringMatching(new RegExp(`^/media/${team.company.id}/[0-9a-f-]{36}\\.png$`)),
      },
    });
    const file = await call("GET", msg!.media!.url, team.adminLogin);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.rawPayload.equals(PNG)).toBe(true);

    expectError(await call("GET", msg!.media!.url, stranger), 404, "ERR_NOT_FOUND");
    expect((await call("GET", msg!.media!.url, null)).statusCode).toBe(401);

    // The inbox got the image too.
    const ticket = (await ticketOf(number))!;
    const [stored] = await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    expect(stored).toMatchObject({ mediaType: "image", mediaMime: "image/png", body: "foto do produto" });
  });
});
