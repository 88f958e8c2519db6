import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContactDTO,
  type MessageDTO,
  type MessagesPage,
  type SimulatorPhoneMessage,
  type TicketDTO,
  validationMessage,
} from "@atende/contracts";
import type { OutboundMessage } from "../../channels/provider.js";
import { contacts, jobs, messages, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, phoneSends } from "../../test/channels.js";
import { type LoggedIn, buildCompany, buildUser, login, buildContact } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { expectError, caller } from "../../test/calls.js";

/**
 * The messages API on a real database, driven end to end: a customer's phone (the simulator) writes,
 * agents answer, edit, delete, react and forward, and the test looks at what the inbox stores, what
 * the live channel carries and what the phone shows.
 */

/** Waits generously: the job runner and the simulator's delivery timer run on a busy machine. */
const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

const MEDIA_MAX_BYTES = 64 * 1024;
let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
/** Queue 1's agents (Ana and her colleague Beto) and queue 2's (Caio). */
let ana: { id: number; name: string; login: LoggedIn };
let beto: { id: number; name: string; login: LoggedIn };
let caio: { id: number; name: string; login: LoggedIn };
let stranger: LoggedIn;
let strangerCompanyId: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000, MEDIA_MAX_BYTES });
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx, { queues: 2, bot: false });
  const agent = async (name: string, queueId: number) => {
    const row = await buildUser(ctx.deps.db, team.company.id, { name, queueIds: [queueId] });
    return { id: row.id, name, login: await login(ctx, row.email) };
  };
  ana = await agent("Ana Souza", team.queues[0]!.id);
  beto = await agent("Beto Lima", team.queues[0]!.id);
  caio = await agent("Caio Reis", team.queues[1]!.id);
  const other = await buildCompany(ctx.deps.db);
  strangerCompanyId = other.id;
  stranger = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx?.close();
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/**
 * A WebM as a browser's recorder writes it: the EBML header says "webm" whether it holds sound or
 * picture (file-type calls every WebM video/webm), then the recording's bytes (over the 10 000 a
 * voice note needs).
 */
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f]),
  Buffer.from([
    0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3, 0x81, 0x08,
  ]),
  Buffer.from([0x42, 0x82, 0x84]),
  Buffer.from("webm"),
  Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
  // A Segment of unknown size, then the payload.
  Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
  Buffer.alloc(12_000, 0x5a),
]);

let seq = 0;
const newNumber = () => `55119${String(70000000 + ++seq).padStart(8, "0")}`;

type Who = LoggedIn | null;
const call = caller(() => ctx);

/** The customer's phone sends; answers the phone's id of the message. */
async function phoneSays(number: string, payload: Record<string, unknown>): Promise<string> {
  const res = await phoneSends(ctx, team.adminLogin, team.connection.id, { from: number, ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** What the phone shows of its chat with the business, oldest first. */
async function phone(number: string): Promise<SimulatorPhoneMessage[]> {
  const res = await call(
    "GET",
    `/simulator/${team.connection.id}/messages?number=${number}`,
    team.adminLogin,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const phoneOut = async (number: string) => (await phone(number)).filter((m) => m.direction === "out");

async function ticketOf(number: string) {
  const [row] = await ctx.deps.db
    .select({ t: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));
  return row?.t ?? null;
}

/** A customer writes in; the admin hands the ticket to an agent in a queue (accept). */
async function openConversation(opts: { agent?: typeof ana; queue?: 0 | 1; first?: string } = {}) {
  const number = newNumber();
  const agent = opts.agent ?? ana;
  await phoneSays(number, { name: "Cliente", body: opts.first ?? "Olá, preciso de ajuda" });
  const ticket = (await ticketOf(number))!;
  expect(ticket).toMatchObject({ status: "pending", queueId: null });
  const res = await call("PUT", `/tickets/${ticket.id}`, team.adminLogin, {
    status: "open",
    userId: agent.id,
    queueId: team.queues[opts.queue ?? 0]!.id,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json<TicketDTO>()).toMatchObject({ status: "open", userId: agent.id });
  return { number, ticketId: ticket.id, contactId: ticket.contactId };
}

async function page(ticketId: number, who: Who = team.adminLogin, pageNumber = 1): Promise<MessagesPage> {
  const res = await call("GET", `/messages/${ticketId}?pageNumber=${pageNumber}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function sendText(ticketId: number, who: Who, payload: Record<string, unknown>): Promise<MessageDTO> {
  const res = await call("POST", `/messages/${ticketId}`, who, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function stored(id: number) {
  return (await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!;
}
const ackOf = async (id: number) => (await stored(id)).ack;
const countOf = async (ticketId: number) =>
  (await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticketId))).length;

/** The agent's message as the phone received it (its provider id is the message's wid once sent). */
async function onPhone(number: string, id: number) {
  await eventually(async () => (await ackOf(id)) >= 1);
  const wid = (await stored(id)).wid!;
  await eventually(async () => (await phone(number)).some((m) => m.id === wid));
  return (await phone(number)).find((m) => m.id === wid)!;
}

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };
function multipart(parts: Part[]) {
  const boundary = `----atende${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      "value" in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`;
    chunks.push(Buffer.from(head), "value" in p ? Buffer.from(p.value) : p.data, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
function postForm(ticketId: number, who: LoggedIn, parts: Part[], lang?: string) {
  const form = multipart(parts);
  return ctx.app.inject({
    method: "POST",
    url: `/messages/${ticketId}`,
    payload: form.payload,
    headers: {
      ...who.auth,
      "content-type": form.contentType,
      ...(lang ? { "accept-language": lang } : {}),
    },
  });
}

function mediaFiles(): string[] {
  const dir = path.join(ctx.deps.media.root, String(team.company.id));
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

type AppMessageEvent = {
  action: "create" | "update";
  message: MessageDTO;
  ticket: TicketDTO;
  contact: ContactDTO;
};
async function listen(who: LoggedIn, companyId = team.company.id) {
  const socket = await connectSocket(await ctx.url(), who.token);
  sockets.push(socket);
  return {
    appMessage: record<AppMessageEvent>(socket, `company-${companyId}-appMessage`),
    ticket: record<{ action: string; ticket: TicketDTO }>(socket, `company-${companyId}-ticket`),
    any: (() => {
      const names: string[] = [];
      socket.onAny((name: string) => names.push(name));
      return names;
    })(),
  };
}

describe("GET /messages/{ticketId}", () => {
  it("pages by 20, newest page first and oldest first inside a page, with hasMore and count", async () => {
    const number = newNumber();
    for (let i = 1; i <= 25; i++) await phoneSays(number, { body: `m${i}` });
    const ticket = (await ticketOf(number))!;

    const first = await page(ticket.id);
    expect(first.messages.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect(first).toMatchObject({ count: 25, hasMore: true, ticket: { id: ticket.id, status: "pending" } });
    expect(first.messages[0]).toMatchObject({
      ticketId: ticket.id,
      contactId: ticket.contactId,
      fromMe: false,
      mediaType: "chat",
      mediaUrl: null,
      isDeleted: false,
      quotedMsg: null,
      reactions: [],
    });

    const second = await page(ticket.id, team.adminLogin, 2);
    expect(second.messages.map((m) => m.body)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(await page(ticket.id, team.adminLogin, 3)).toMatchObject({ messages: [], hasMore: false });

    expectError(
      await call("GET", `/messages/${ticket.id}?pageNumber=0`, team.adminLogin),
      400,
      "ERR_VALIDATION",
    );
    expectError(await call("GET", `/messages/abc`, team.adminLogin), 400, "ERR_VALIDATION");
  });

  it("another company answers 404, an agent outside the ticket's queue 403 ERR_TICKET_ACCESS_DENIED, no session 401", async () => {
    const { ticketId } = await openConversation({ first: "dados sigilosos" });
    const notFound = await call("GET", `/messages/${ticketId}`, stranger);
    expectError(notFound, 404, "ERR_NO_TICKET_FOUND");
    expect(notFound.body).not.toContain("sigilosos");
    const denied = await call("GET", `/messages/${ticketId}`, caio.login);
    expectError(denied, 403, "ERR_TICKET_ACCESS_DENIED");
    expect(denied.json().message).toBe("Acesso não permitido");
    expect((await call("GET", `/messages/${ticketId}`, null)).statusCode).toBe(401);
    // The queue's agents and the admin see it.
    expect((await page(ticketId, beto.login)).messages.map((m) => m.body)).toEqual(["dados sigilosos"]);
    expect((await page(ticketId, ana.login)).messages.map((m) => m.body)).toEqual(["dados sigilosos"]);
  });
});

describe("what an agent may read follows the queues: history and media", () => {
  it("the history shows the contact's earlier tickets only where the viewer may see them; admins see all", async () => {
    // An earlier conversation in queue 1 (Ana's), resolved; the customer writes again, the admin
    // gives the new ticket to Caio in queue 2.
    const { number, ticketId: earlier } = await openConversation({ first: "segredo do suporte" });
    await sendText(earlier, ana.login, { body: "resposta do suporte" });
    expect((await call("PUT", `/tickets/${earlier}`, team.adminLogin, { status: "closed" })).statusCode).toBe(
      200,
    );
    await phoneSays(number, { body: "agora é sobre vendas" });
    const [later] = await ctx.deps.db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.companyId, team.company.id),
          eq(tickets.status, "pending"),
          eq(tickets.contactId, (await ticketOf(number))!.contactId),
        ),
      );
    const given = await call("PUT", `/tickets/${later!.id}`, team.adminLogin, {
      status: "open",
      userId: caio.id,
      queueId: team.queues[1]!.id,
    });
    expect(given.statusCode, given.body).toBe(200);

    const caioSees = await page(later!.id, caio.login);
    expect(caioSees.messages.map((m) => m.body)).toEqual(["agora é sobre vendas"]);
    expect(caioSees).toMatchObject({ count: 1, hasMore: false });
    expect(JSON.stringify(caioSees)).not.toContain("segredo");
    const adminSees = await page(later!.id, team.adminLogin);
    expect(adminSees.messages.map((m) => m.body)).toEqual([
      "segredo do suporte",
      "resposta do suporte",
      "agora é sobre vendas",
    ]);
    expect(adminSees.count).toBe(3);
    // Ana held the earlier ticket: opening it, she still sees her conversation.
    expect((await page(earlier, ana.login)).messages.map((m) => m.body)).toContain("segredo do suporte");
  });

  it("GET /media/... answers only to who may see a ticket the file belongs to; a file of no ticket, to the company", async () => {
    const { ticketId } = await openConversation();
    const sent = await postForm(ticketId, ana.login, [
      { name: "medias", filename: "laudo.png", type: "image/png", data: PNG },
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const answer = sent.json<MessageDTO | MessageDTO[]>();
    const url = (Array.isArray(answer) ? answer[0]! : answer).mediaUrl!;
    for (const who of [ana.login, beto.login, team.adminLogin]) {
      const res = await call("GET", url, who);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
    }
    const refused = await call("GET", url, caio.login);
    expectError(refused, 404, "ERR_NOT_FOUND");
    expect(refused.rawPayload.equals(PNG)).toBe(false);

    // Handed to queue 2: Caio may now see the ticket, so its file; Ana and Beto no longer.
    const moved = await call("PUT", `/tickets/${ticketId}`, team.adminLogin, {
      userId: caio.id,
      queueId: team.queues[1]!.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await call("GET", url, caio.login)).statusCode).toBe(200);
    expectError(await call("GET", url, beto.login), 404, "ERR_NOT_FOUND");

    // A file that belongs to no ticket (as a quick message's) is the company's.
    const loose = await ctx.deps.media.save(team.company.id, PNG, "image/png");
    expect((await call("GET", `/media/${loose.path}`, caio.login)).statusCode).toBe(200);
    expectError(await call("GET", `/media/${loose.path}`, stranger), 404, "ERR_NOT_FOUND");
  });
});

describe("POST /messages/{ticketId} with text", () => {
  it("stores the agent's message fromMe, delivers it to the phone, and its ack moves sent → delivered → read", async () => {
    const { number, ticketId } = await openConversation();
    const live = await listen(ana.login);
    const sent = await sendText(ticketId, ana.login, { body: "Olá! Como posso ajudar?", quotedMsg: null });
    expect(sent).toMatchObject({
      ticketId,
      body: "Olá! Como posso ajudar?",
      fromMe: true,
      read: true,
      ack: 0,
      mediaType: "chat",
      userId: ana.id,
      queueId: team.queues[0]!.id,
      quotedMsg: null,
      sendError: null,
    });

    const onThePhone = await onPhone(number, sent.id);
    expect(onThePhone).toMatchObject({ direction: "out", body: "Olá! Como posso ajudar?", kind: "text" });
    await eventually(async () => (await ackOf(sent.id)) === 3);
    expect((await phone(number)).find((m) => m.id === onThePhone.id)!.ack).toBe(3);

    const read = await call(
      "POST",
      `/simulator/${team.connection.id}/read?number=${number}`,
      team.adminLogin,
    );
    expect(read.json()).toEqual({ read: 1 });
    await eventually(async () => (await ackOf(sent.id)) === 4);
    const last = (await page(ticketId, ana.login)).messages.at(-1)!;
    expect(last).toMatchObject({ id: sent.id, ack: 4, fromMe: true });

    // The live channel carried every step, in order: created pending, then sent, delivered, read.
    await eventually(() => live.appMessage.some((e) => e.message.id === sent.id && e.message.ack === 4));
    const steps = live.appMessage.filter((e) => e.message.id === sent.id);
    expect(steps[0]).toMatchObject({ action: "create", message: { ack: 0 } });
    const acks = steps.map((e) => e.message.ack);
    expect(acks).toEqual([...acks].sort((a, b) => a - b));
    expect(new Set(acks)).toEqual(new Set([0, 1, 3, 4]));
    // The ticket's preview follows the last message.
    expect((await page(ticketId)).ticket.lastMessage).toBe("Olá! Como posso ajudar?");
  });

  it("signs with a '*Name:*' line only when signMessage is on (the client's setting rides on each send)", async () => {
    const { number, ticketId } = await openConversation();
    const signed = await sendText(ticketId, ana.login, { body: "Seu pedido saiu.", signMessage: true });
    expect(signed.body).toBe("*Ana Souza:*\nSeu pedido saiu.");
    const plain = await sendText(ticketId, ana.login, { body: "Chega amanhã.", signMessage: false });
    expect(plain.body).toBe("Chega amanhã.");
    const unset = await sendText(ticketId, ana.login, { body: "Mais alguma coisa?" });
    expect(unset.body).toBe("Mais alguma coisa?");
    expect((await onPhone(number, signed.id)).body).toBe("*Ana Souza:*\nSeu pedido saiu.");
    expect((await onPhone(number, plain.id)).body).toBe("Chega amanhã.");
    expect((await onPhone(number, unset.id)).body).toBe("Mais alguma coisa?");
  });

  it("quotedMsg makes a reply: stored with the quote and seen on the phone quoting the right message", async () => {
    const { number, ticketId } = await openConversation();
    const phoneId = await phoneSays(number, { id: `PH-${number}-Q`, body: "Qual o preço do plano?" });
    const inbound = (await page(ticketId)).messages.find((m) => m.body === "Qual o preço do plano?")!;

    // As web clients send it: the whole quoted message.
    const reply = await sendText(ticketId, ana.login, { body: "R$ 49,90 por mês.", quotedMsg: inbound });
    expect(reply.quotedMsg).toEqual({
      id: inbound.id,
      body: "Qual o preço do plano?",
      fromMe: false,
      mediaType: "chat",
      isDeleted: false,
    });
    expect(await onPhone(number, reply.id)).toMatchObject({ body: "R$ 49,90 por mês.", quotedId: phoneId });

    // Quoting the agent's own message, by id only.
    const again = await sendText(ticketId, ana.login, {
      body: "Com desconto à vista.",
      quotedMsg: { id: reply.id },
    });
    expect(again.quotedMsg).toMatchObject({ id: reply.id, fromMe: true, body: "R$ 49,90 por mês." });
    const replyWid = (await stored(reply.id)).wid!;
    expect((await onPhone(number, again.id)).quotedId).toBe(replyWid);

    // A message of another conversation cannot be quoted; nothing is sent.
    const other = await openConversation();
    const foreign = (await page(other.ticketId)).messages[0]!;
    const before = await countOf(ticketId);
    expectError(
      await call("POST", `/messages/${ticketId}`, ana.login, { body: "x", quotedMsg: { id: foreign.id } }),
      404,
      "ERR_NOT_FOUND",
    );
    expect(await countOf(ticketId)).toBe(before);
  });

  it("an empty or blank body answers 400 ERR_EMPTY_MESSAGE and sends nothing", async () => {
    const { number, ticketId } = await openConversation();
    const before = await countOf(ticketId);
    for (const payload of [{ body: "" }, { body: "   \n  " }, {}]) {
      const res = await call("POST", `/messages/${ticketId}`, ana.login, payload);
      expectError(res, 400, "ERR_EMPTY_MESSAGE");
      expect(res.json().message).toBe("Mensagem vazia não é enviada.");
    }
    expectError(await call("POST", `/messages/${ticketId}`, ana.login, { body: 42 }), 400, "ERR_VALIDATION");
    await new Promise((r) => setTimeout(r, 300));
    expect(await countOf(ticketId)).toBe(before);
    expect(await phoneOut(number)).toEqual([]);
  });

  it("a ticket that is not open answers 409 ERR_TICKET_NOT_OPEN (pending and closed) and the phone gets nothing", async () => {
    const number = newNumber();
    await phoneSays(number, { body: "alguém aí?" });
    const pending = (await ticketOf(number))!;
    const res = await call("POST", `/messages/${pending.id}`, team.adminLogin, { body: "Oi" });
    expectError(res, 409, "ERR_TICKET_NOT_OPEN");
    expect(res.json().message).toBe("Aceite o atendimento antes de responder.");

    const open = await openConversation();
    expect((await call("PUT", `/tickets/${open.ticketId}`, ana.login, { status: "closed" })).statusCode).toBe(
      200,
    );
    expectError(
      await call("POST", `/messages/${open.ticketId}`, ana.login, { body: "Oi de novo" }),
      409,
      "ERR_TICKET_NOT_OPEN",
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await countOf(pending.id)).toBe(1);
    expect(await countOf(open.ticketId)).toBe(1);
    expect(await phoneOut(number)).toEqual([]);
    expect(await phoneOut(open.number)).toEqual([]);
  });

  it("an agent outside the queue gets 403, another company 404; nothing is sent", async () => {
    const { number, ticketId } = await openConversation();
    expectError(
      await call("POST", `/messages/${ticketId}`, caio.login, { body: "intruso" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("POST", `/messages/${ticketId}`, stranger, { body: "intruso" }),
      404,
      "ERR_NO_TICKET_FOUND",
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await countOf(ticketId)).toBe(1);
    expect(await phoneOut(number)).toEqual([]);
  });
});

describe("POST /messages/{ticketId} with files (multipart)", () => {
  it("an image with its caption and a document are stored with their mediaType, served back byte for byte, and reach the phone", async () => {
    const { number, ticketId } = await openConversation();
    const res = await postForm(ticketId, ana.login, [
      { name: "body", value: "Segue a foto e o contrato" },
      { name: "signMessage", value: "true" },
      { name: "medias", filename: "foto.png", type: "image/png", data: PNG },
      { name: "medias", filename: "contrato.pdf", type: "application/pdf", data: PDF },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [image, doc] = res.json<MessageDTO[]>();
    expect(image).toMatchObject({
      fromMe: true,
      body: "*Ana Souza:*\nSegue a foto e o contrato",
      mediaType: "image",
      mediaName: "foto.png",
      mediaUrl: expect.stringMatching(new RegExp(`^/media/${team.company.id}/[0-9a-f-]{36}\\.png$`)),
    });
    // The caption rides on the first file only.
    expect(doc).toMatchObject({
      fromMe: true,
      body: "",
      mediaType: "application",
      mediaName: "contrato.pdf",
    });

    const imageFile = await call("GET", image!.mediaUrl!, ana.login);
    expect(imageFile.statusCode).toBe(200);
    expect(imageFile.headers["content-type"]).toBe("image/png");
    expect(imageFile.rawPayload.equals(PNG)).toBe(true);
    const docFile = await call("GET", doc!.mediaUrl!, ana.login);
    expect(docFile.headers["content-type"]).toBe("application/pdf");
    expect(docFile.rawPayload.equals(PDF)).toBe(true);
    expectError(await call("GET", image!.mediaUrl!, stranger), 404, "ERR_NOT_FOUND");

    const onImage = await onPhone(number, image!.id);
    expect(onImage).toMatchObject({
      kind: "image",
      body: "*Ana Souza:*\nSegue a foto e o contrato",
      media: { filename: "foto.png", mimetype: "image/png" },
    });
    expect((await call("GET", onImage.media!.url, team.adminLogin)).rawPayload.equals(PNG)).toBe(true);
    expect(await onPhone(number, doc!.id)).toMatchObject({
      kind: "document",
      media: { filename: "contrato.pdf", mimetype: "application/pdf" },
    });
    expect((await page(ticketId)).messages.slice(-2).map((m) => [m.mediaType, m.mediaName])).toEqual([
      ["image", "foto.png"],
      ["application", "contrato.pdf"],
    ]);
  });

  it("a recorded voice note (WebM declared as audio) is stored as audio and goes out as a voice note; a WebM video stays video; a declared audio type retypes nothing else", async () => {
    const { number, ticketId } = await openConversation();
    // What the connection's session is handed, as the outbound queue sends.
    const session = ctx.built.channels.sessions.session(team.connection.id)!;
    const handed: OutboundMessage[] = [];
    const send = session.send.bind(session);
    session.send = (message) => {
      handed.push(message);
      return send(message);
    };
    try {
      const phoneId = await phoneSays(number, { id: `PH-${number}-V`, body: "Pode mandar um áudio?" });
      const quoted = (await page(ticketId)).messages.find((m) => m.body === "Pode mandar um áudio?")!;
      const voice = await postForm(ticketId, ana.login, [
        { name: "body", value: "" },
        { name: "quotedMsgId", value: String(quoted.id) },
        { name: "signMessage", value: "true" },
        {
          name: "medias",
          filename: "audio-20240521-143005.webm",
          type: "audio/webm;codecs=opus",
          data: WEBM,
        },
      ]);
      expect(voice.statusCode, voice.body).toBe(201);
      const audio = voice.json<MessageDTO>();
      expect(audio).toMatchObject({
        fromMe: true,
        body: "",
        mediaType: "audio",
        mediaName: "audio-20240521-143005.webm",
        mediaUrl: expect.stringMatching(/\.webm$/),
        quotedMsg: { id: quoted.id },
      });
      expect((await stored(audio.id)).mediaMime).toBe("audio/webm");
      expect(await onPhone(number, audio.id)).toMatchObject({
        kind: "audio",
        media: { filename: "audio-20240521-143005.webm", mimetype: "audio/webm" },
        quotedId: phoneId,
      });
      const audioOut = handed.find((m) => m.media?.filename === "audio-20240521-143005.webm");
      expect(audioOut?.media).toMatchObject({ kind: "audio", mimetype: "audio/webm", voiceNote: true });
      expect(audioOut!.media!.data.equals(WEBM)).toBe(true);

      // The same bytes declared as a video are a video, not a voice note.
      const film = await postForm(ticketId, ana.login, [
        { name: "medias", filename: "clip.webm", type: "video/webm", data: WEBM },
      ]);
      expect(film.statusCode, film.body).toBe(201);
      const video = film.json<MessageDTO>();
      expect(video).toMatchObject({ mediaType: "video", mediaName: "clip.webm" });
      expect((await stored(video.id)).mediaMime).toBe("video/webm");
      expect(await onPhone(number, video.id)).toMatchObject({
        kind: "video",
        media: { mimetype: "video/webm" },
      });
      expect(handed.find((m) => m.media?.filename === "clip.webm")?.media).toMatchObject({
        kind: "video",
        voiceNote: false,
      });

      // Declaring audio does not make other content audio: the bytes decide.
      const disguised = await postForm(ticketId, ana.login, [
        { name: "medias", filename: "audio.ogg", type: "audio/ogg", data: PNG },
      ]);
      expect(disguised.statusCode, disguised.body).toBe(201);
      expect(disguised.json<MessageDTO>()).toMatchObject({ mediaType: "image", mediaName: "audio.ogg" });
      expect((await stored(disguised.json<MessageDTO>().id)).mediaMime).toBe("image/png");
      expect(await onPhone(number, disguised.json<MessageDTO>().id)).toMatchObject({ kind: "image" });
    } finally {
      session.send = send;
    }
  });

  it("a file over the size limit answers 413 ERR_MEDIA_TOO_LARGE and stores nothing", async () => {
    const { number, ticketId } = await openConversation();
    const before = await countOf(ticketId);
    const files = mediaFiles().length;
    const res = await postForm(ticketId, ana.login, [
      { name: "body", value: "arquivo grande" },
      {
        name: "medias",
        filename: "grande.bin",
        type: "application/octet-stream",
        data: Buffer.alloc(MEDIA_MAX_BYTES + 1, 7),
      },
    ]);
    expectError(res, 413, "ERR_MEDIA_TOO_LARGE");
    expect(res.json().message).toBe("O arquivo é grande demais.");
    await new Promise((r) => setTimeout(r, 300));
    expect(await countOf(ticketId)).toBe(before);
    expect(mediaFiles()).toHaveLength(files);
    expect(await phoneOut(number)).toEqual([]);
  });

  it("a bad multipart request answers 400 with translated field messages, never a raw key", async () => {
    const { ticketId } = await openConversation();
    const before = await countOf(ticketId);
    const files = mediaFiles().length;

    // A form cut short: no closing boundary.
    const cut = await ctx.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      payload: '------x\r\nContent-Disposition: form-data; name="body"\r\n\r\nmeia mensa',
      headers: { ...ana.login.auth, "content-type": "multipart/form-data; boundary=----x" },
    });
    expectError(cut, 400, "ERR_VALIDATION");
    expect(cut.json().fields).toEqual({ medias: validationMessage("validation.invalid", "pt") });
    expect(cut.json().fields.medias).toBe("Valor inválido");

    // A caption over the limit, in English.
    const long = await postForm(
      ticketId,
      ana.login,
      [
        { name: "body", value: "x".repeat(65_537) },
        { name: "medias", filename: "foto.png", type: "image/png", data: PNG },
      ],
      "en",
    );
    expectError(long, 400, "ERR_VALIDATION");
    expect(long.json().fields).toEqual({ body: "Too Long!" });

    // A quoted message id that is not an id.
    const quoted = await postForm(ticketId, ana.login, [
      { name: "quotedMsgId", value: "abc" },
      { name: "medias", filename: "foto.png", type: "image/png", data: PNG },
    ]);
    expectError(quoted, 400, "ERR_VALIDATION");
    expect(quoted.json().fields).toEqual({ quotedMsgId: "Valor inválido" });

    // An empty file, and more files than one message may carry (10).
    const empty = await postForm(ticketId, ana.login, [
      { name: "body", value: "vazio" },
      { name: "medias", filename: "vazio.png", type: "image/png", data: Buffer.alloc(0) },
    ]);
    expectError(empty, 400, "ERR_VALIDATION");
    expect(empty.json().fields).toEqual({ medias: "Valor inválido" });
    const many = await postForm(
      ticketId,
      ana.login,
      Array.from({ length: 11 }, (_, i) => ({
        name: "medias",
        filename: `f${i}.png`,
        type: "image/png",
        data: PNG,
      })),
      "es",
    );
    expectError(many, 400, "ERR_VALIDATION");
    expect(many.json().fields).toEqual({ medias: "Valor inválido" });

    for (const res of [cut, long, quoted, empty, many]) {
      for (const text of Object.values(res.json<{ fields: Record<string, string> }>().fields)) {
        expect(text).not.toMatch(/^validation\./);
      }
    }
    expect(await countOf(ticketId)).toBe(before);
    expect(mediaFiles()).toHaveLength(files);
  });
});

describe("editing and deleting a message", () => {
  it("only the author edits; the phone sees the new text and GET shows it edited", async () => {
    const { number, ticketId } = await openConversation();
    const sent = await sendText(ticketId, ana.login, { body: "O prazo é 5 dias." });
    const wid = (await onPhone(number, sent.id)).id;

    for (const who of [beto.login, team.adminLogin]) {
      const res = await call("POST", `/messages/edit/${sent.id}`, who, { body: "hackeado" });
      expectError(res, 403, "ERR_NOT_MESSAGE_AUTHOR");
    }
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, caio.login, { body: "x" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, stranger, { body: "x" }),
      404,
      "ERR_NOT_FOUND",
    );
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, ana.login, { body: "  " }),
      400,
      "ERR_VALIDATION",
    );
    // The customer's message is nobody's to edit.
    const inbound = (await page(ticketId)).messages.find((m) => !m.fromMe)!;
    expectError(
      await call("POST", `/messages/edit/${inbound.id}`, ana.login, { body: "x" }),
      403,
      "ERR_NOT_MESSAGE_AUTHOR",
    );
    expect((await stored(sent.id)).body).toBe("O prazo é 5 dias.");

    const live = await listen(team.adminLogin);
    const res = await call("POST", `/messages/edit/${sent.id}`, ana.login, { body: "O prazo é 3 dias." });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MessageDTO>()).toMatchObject({ id: sent.id, body: "O prazo é 3 dias.", isEdited: true });
    await eventually(
      async () => (await phone(number)).find((m) => m.id === wid)!.body === "O prazo é 3 dias.",
    );
    expect((await page(ticketId)).messages.find((m) => m.id === sent.id)).toMatchObject({
      body: "O prazo é 3 dias.",
      isEdited: true,
    });
    await eventually(() =>
      live.appMessage.some((e) => e.action === "update" && e.message.id === sent.id && e.message.isEdited),
    );
  });

  it("only the author deletes; the phone sees it deleted for everyone and GET shows it deleted", async () => {
    const { number, ticketId } = await openConversation();
    const sent = await sendText(ticketId, ana.login, { body: "Mensagem errada" });
    const wid = (await onPhone(number, sent.id)).id;

    expectError(await call("DELETE", `/messages/${sent.id}`, beto.login), 403, "ERR_NOT_MESSAGE_AUTHOR");
    expectError(await call("DELETE", `/messages/${sent.id}`, team.adminLogin), 403, "ERR_NOT_MESSAGE_AUTHOR");
    expectError(await call("DELETE", `/messages/${sent.id}`, stranger), 404, "ERR_NOT_FOUND");
    expect((await stored(sent.id)).isDeleted).toBe(false);
    expect((await phone(number)).find((m) => m.id === wid)!.isDeleted).toBe(false);

    const live = await listen(ana.login);
    const res = await call("DELETE", `/messages/${sent.id}`, ana.login);
    expect(res.statusCode, res.body).toBe(204);
    await eventually(async () => (await phone(number)).find((m) => m.id === wid)!.isDeleted);
    expect((await phone(number)).find((m) => m.id === wid)!.body).toBe("");
    expect((await page(ticketId)).messages.find((m) => m.id === sent.id)).toMatchObject({ isDeleted: true });
    await eventually(() => live.appMessage.some((e) => e.message.id === sent.id && e.message.isDeleted));
    // Deleted is final: deleting again tells WhatsApp nothing more, and it can no longer be edited.
    expect((await call("DELETE", `/messages/${sent.id}`, ana.login)).statusCode).toBe(204);
    const deletes = (await ctx.deps.db.select().from(jobs).where(eq(jobs.type, "channel-action"))).filter(
      (j) => (j.payload as { action?: string; messageId?: number }).messageId === sent.id,
    );
    expect(deletes.map((j) => (j.payload as { action: string }).action)).toEqual(["delete"]);
    expectError(
      await call("POST", `/messages/edit/${sent.id}`, ana.login, { body: "volta" }),
      403,
      "ERR_NOT_MESSAGE_AUTHOR",
    );
  });

  it("editing or deleting the ticket's last message changes the list's preview, live; an older one leaves it", async () => {
    const { ticketId } = await openConversation();
    const first = await sendText(ticketId, ana.login, { body: "Seu pedido saiu hoje." });
    const last = await sendText(ticketId, ana.login, { body: "Chega amanhã" });
    const preview = async () =>
      (await call("GET", `/tickets/${ticketId}`, ana.login)).json<TicketDTO>().lastMessage;
    expect(await preview()).toBe("Chega amanhã");
    const colleague = await listen(beto.login);
    const heard = (text: string) =>
      colleague.ticket.some(
        (e) => e.action === "update" && e.ticket.id === ticketId && e.ticket.lastMessage === text,
      );

    // An older message is not the preview: editing it changes nothing there.
    const older = await call("POST", `/messages/edit/${first.id}`, ana.login, { body: "Seu pedido saiu." });
    expect(older.statusCode, older.body).toBe(200);
    expect(await preview()).toBe("Chega amanhã");

    const edited = await call("POST", `/messages/edit/${last.id}`, ana.login, { body: "Chega amanhã cedo" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await preview()).toBe("Chega amanhã cedo");
    await eventually(() => heard("Chega amanhã cedo"));

    // Deleted, the message before it becomes the preview: the agent's, then the customer's first one.
    expect((await call("DELETE", `/messages/${last.id}`, ana.login)).statusCode).toBe(204);
    expect(await preview()).toBe("Seu pedido saiu.");
    await eventually(() => heard("Seu pedido saiu."));
    expect((await call("DELETE", `/messages/${first.id}`, ana.login)).statusCode).toBe(204);
    expect(await preview()).toBe("Olá, preciso de ajuda");
    await eventually(() => heard("Olá, preciso de ajuda"));
  });
});

describe("POST /messages/{id}/reactions", () => {
  it("the phone sees the agent's reaction; reacting again replaces it, and an empty one removes it", async () => {
    const { number, ticketId } = await openConversation();
    const phoneId = await phoneSays(number, { id: `PH-${number}-R`, body: "Chegou o produto!" });
    const target = (await page(ticketId)).messages.find((m) => m.body === "Chegou o produto!")!;
    const count = (await page(ticketId)).count;

    const first = await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "👍" });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<MessageDTO>()).toMatchObject({
      id: target.id,
      reactions: [{ emoji: "👍", fromMe: true }],
    });
    const reactionsOnPhone = async () =>
      (await phoneOut(number))
        .filter((m) => m.kind === "reaction" && m.quotedId === phoneId)
        .map((m) => m.body);
    await eventually(async () => (await reactionsOnPhone()).join() === "👍");

    const second = await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "❤️" });
    expect(second.json<MessageDTO>().reactions).toEqual([{ emoji: "❤️", fromMe: true }]);
    await eventually(async () => (await reactionsOnPhone()).at(-1) === "❤️");
    const after = await page(ticketId);
    expect(after.messages.find((m) => m.id === target.id)!.reactions).toEqual([
      { emoji: "❤️", fromMe: true },
    ]);
    // Reactions are not messages of their own in the list.
    expect(after.count).toBe(count);
    expect(after.messages.some((m) => m.mediaType === "reactionMessage")).toBe(false);

    // The customer reacts to the agent's message and to their own: each side keeps its own reaction.
    await phoneSays(number, { reaction: { targetId: phoneId, emoji: "😂" } });
    await eventually(
      async () => (await page(ticketId)).messages.find((m) => m.id === target.id)!.reactions.length === 2,
    );
    expect((await page(ticketId)).messages.find((m) => m.id === target.id)!.reactions).toEqual([
      { emoji: "❤️", fromMe: true },
      { emoji: "😂", fromMe: false },
    ]);

    const removed = await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "" });
    expect(removed.json<MessageDTO>().reactions).toEqual([{ emoji: "😂", fromMe: false }]);
    await eventually(async () => (await reactionsOnPhone()).at(-1) === "");

    expectError(
      await call("POST", `/messages/${target.id}/reactions`, ana.login, { type: "x".repeat(17) }),
      400,
      "ERR_VALIDATION",
    );
    expectError(
      await call("POST", `/messages/${target.id}/reactions`, caio.login, { type: "👍" }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    expectError(
      await call("POST", `/messages/${target.id}/reactions`, stranger, { type: "👍" }),
      404,
      "ERR_NOT_FOUND",
    );
  });
});

describe("POST /message/forward", () => {
  it("sends a copy to another contact's open ticket, marked forwarded, and their phone receives it", async () => {
    const from = await openConversation();
    const to = await openConversation();
    // Signed by its author: the copy carries one signature, the forwarder's, not two.
    const original = await sendText(from.ticketId, ana.login, {
      body: "Nosso endereço: Rua A, 100",
      signMessage: true,
    });
    expect(original.body).toBe("*Ana Souza:*\nNosso endereço: Rua A, 100");
    await onPhone(from.number, original.id);
    const live = await listen(ana.login);

    const res = await call("POST", "/message/forward", ana.login, {
      messageId: original.id,
      contactId: to.contactId,
      signMessage: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json<MessageDTO>();
    expect(copy).toMatchObject({
      ticketId: to.ticketId,
      contactId: to.contactId,
      fromMe: true,
      isForwarded: true,
      body: "*Ana Souza:*\nNosso endereço: Rua A, 100",
      userId: ana.id,
    });
    expect((await onPhone(to.number, copy.id)).body).toBe("*Ana Souza:*\nNosso endereço: Rua A, 100");
    expect((await page(to.ticketId)).messages.at(-1)).toMatchObject({ id: copy.id, isForwarded: true });
    // The first the live channel says of the copy already says it is forwarded.
    await eventually(() => live.appMessage.some((e) => e.message.id === copy.id));
    expect(live.appMessage.find((e) => e.message.id === copy.id)).toMatchObject({
      action: "create",
      message: { isForwarded: true },
      ticket: { id: to.ticketId },
    });
    // The source conversation is untouched.
    expect((await phoneOut(from.number)).map((m) => m.body)).toEqual([
      "*Ana Souza:*\nNosso endereço: Rua A, 100",
    ]);
  });

  it("forwards a file to a contact without a ticket: a new open ticket of the caller carries it", async () => {
    const from = await openConversation();
    const upload = await postForm(from.ticketId, ana.login, [
      { name: "medias", filename: "catalogo.png", type: "image/png", data: PNG },
    ]);
    const image = upload.json<MessageDTO>();
    const number = newNumber();
    const contact = await buildContact(ctx.deps.db, team.company.id, { name: "Novo Cliente", number });
    const res = await call("POST", "/message/forward", ana.login, {
      messageId: image.id,
      contactId: contact.id,
      signMessage: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json<MessageDTO>();
    expect(copy).toMatchObject({
      mediaType: "image",
      mediaName: "catalogo.png",
      isForwarded: true,
      body: "",
    });
    const ticket = (await ticketOf(number))!;
    expect(ticket).toMatchObject({
      id: copy.ticketId,
      status: "open",
      userId: ana.id,
      queueId: team.queues[0]!.id,
    });
    const onTheirPhone = await onPhone(number, copy.id);
    expect(onTheirPhone).toMatchObject({ kind: "image", media: { filename: "catalogo.png" } });
    expect((await call("GET", onTheirPhone.media!.url, team.adminLogin)).rawPayload.equals(PNG)).toBe(true);
  });

  it("is refused across companies, into a conversation the caller may not see, and for a deleted message", async () => {
    const from = await openConversation();
    const original = await sendText(from.ticketId, ana.login, { body: "confidencial" });
    const foreign = await buildContact(ctx.deps.db, strangerCompanyId, { name: "De outra empresa" });
    const mine = await buildContact(ctx.deps.db, team.company.id, { name: "Meu contato" });
    const before = (await ctx.deps.db.select().from(messages)).length;

    expectError(
      await call("POST", "/message/forward", ana.login, { messageId: original.id, contactId: foreign.id }),
      404,
      "ERR_NO_CONTACT_FOUND",
    );
    expectError(
      await call("POST", "/message/forward", stranger, { messageId: original.id, contactId: mine.id }),
      404,
      "ERR_NOT_FOUND",
    );
    // Caio's queue holds the other contact's conversation: Ana may not write into it.
    const theirs = await openConversation({ agent: caio, queue: 1 });
    expectError(
      await call("POST", "/message/forward", ana.login, {
        messageId: original.id,
        contactId: theirs.contactId,
      }),
      403,
      "ERR_TICKET_ACCESS_DENIED",
    );
    // A waiting conversation is accepted before anyone writes into it.
    const waiting = newNumber();
    await phoneSays(waiting, { body: "oi?" });
    const waitingTicket = (await ticketOf(waiting))!;
    expectError(
      await call("POST", "/message/forward", team.adminLogin, {
        messageId: original.id,
        contactId: waitingTicket.contactId,
      }),
      409,
      "ERR_TICKET_NOT_OPEN",
    );
    expect((await call("DELETE", `/messages/${original.id}`, ana.login)).statusCode).toBe(204);
    expectError(
      await call("POST", "/message/forward", ana.login, { messageId: original.id, contactId: mine.id }),
      404,
      "ERR_NOT_FOUND",
    );

    // Only the conversations the test itself opened added messages.
    expect((await ctx.deps.db.select().from(messages)).length).toBe(before + 2);
    expect(await ticketOf(mine!.number)).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(await phoneOut(theirs.number)).toEqual([]);
    expect(await phoneOut(waiting)).toEqual([]);
  });
});

describe("POST /messages/{id}/retry", () => {
  it("a send WhatsApp refused shows its error; retry sends it again once the cause is fixed", async () => {
    // Numbers ending in 0000 are not on WhatsApp in the simulator: the customer can write, replies fail.
    const number = `5511977${String(++seq).padStart(2, "0")}0000`;
    await phoneSays(number, { body: "oi" });
    const ticket = (await ticketOf(number))!;
    await call("PUT", `/tickets/${ticket.id}`, team.adminLogin, {
      status: "open",
      userId: ana.id,
      queueId: team.queues[0]!.id,
    });
    const live = await listen(ana.login);
    const sent = await sendText(ticket.id, ana.login, { body: "Olá!" });
    await eventually(async () => (await stored(sent.id)).sendError !== null);
    expect(await stored(sent.id)).toMatchObject({ ack: 0 });
    expect((await page(ticket.id, ana.login)).messages.at(-1)).toMatchObject({
      id: sent.id,
      ack: 0,
      sendError: expect.stringContaining("ERR_WAPP_INVALID_CONTACT"),
    });
    await eventually(() => live.appMessage.some((e) => e.message.id === sent.id && e.message.sendError));

    // Retrying what still cannot go fails again, visibly.
    const retried = await call("POST", `/messages/${sent.id}/retry`, ana.login);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<MessageDTO>()).toMatchObject({ id: sent.id, sendError: null, ack: 0 });
    await eventually(async () => (await stored(sent.id)).sendError !== null);

    // The contact's number is corrected: the retry goes through and the phone receives it.
    const fixed = newNumber();
    await ctx.deps.db.update(contacts).set({ number: fixed }).where(eq(contacts.id, ticket.contactId));
    expect((await call("POST", `/messages/${sent.id}/retry`, caio.login)).statusCode).toBe(403);
    expect((await call("POST", `/messages/${sent.id}/retry`, ana.login)).statusCode).toBe(200);
    await eventually(async () => (await ackOf(sent.id)) === 3);
    expect(await stored(sent.id)).toMatchObject({ sendError: null });
    expect((await phoneOut(fixed)).map((m) => m.body)).toEqual(["Olá!"]);

    // A message that went out is not sent twice by a retry.
    expect((await call("POST", `/messages/${sent.id}/retry`, ana.login)).json<MessageDTO>()).toMatchObject({
      ack: 3,
    });
    await new Promise((r) => setTimeout(r, 400));
    expect((await phoneOut(fixed)).map((m) => m.body)).toEqual(["Olá!"]);
  });
});

describe("the live channel", () => {
  it("company-{id}-appMessage create and update reach the admin and the queue's agents, not another queue nor another company", async () => {
    const { number, ticketId } = await openConversation();
    const admin = await listen(team.adminLogin);
    const colleague = await listen(beto.login);
    const otherQueue = await listen(caio.login);
    const otherCompany = await listen(stranger, team.company.id);

    const sent = await sendText(ticketId, ana.login, { body: "Respondendo" });
    await phoneSays(number, { body: "Obrigado!" });
    for (const got of [admin, colleague]) {
      await eventually(() => got.appMessage.some((e) => e.message.id === sent.id && e.message.ack === 3));
      const created = got.appMessage.find((e) => e.message.id === sent.id)!;
      expect(created).toMatchObject({
        action: "create",
        message: { body: "Respondendo", fromMe: true, ticketId },
        ticket: { id: ticketId, status: "open", userId: ana.id },
        contact: { number },
      });
      await eventually(() =>
        got.appMessage.some(
          (e) => e.action === "create" && e.message.body === "Obrigado!" && !e.message.fromMe,
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(otherQueue.appMessage.filter((e) => e.ticket.id === ticketId)).toEqual([]);
    expect(otherCompany.any.filter((n) => n.startsWith(`company-${team.company.id}-`))).toEqual([]);
  });

  it("opening the conversation as its agent resets unread and the customer's ticks turn read", async () => {
    const { number, ticketId } = await openConversation();
    await phoneSays(number, { body: "Está aí?" });
    await phoneSays(number, { body: "Preciso de ajuda urgente" });
    const before = await page(ticketId, team.adminLogin);
    // Looking at it as the admin (not the ticket's agent) reads nothing.
    expect(before.ticket.unreadMessages).toBe(3);
    expect((await phone(number)).map((m) => m.ack)).toEqual([3, 3, 3]);

    const colleague = await listen(beto.login);
    const opened = await page(ticketId, ana.login);
    expect(opened.ticket.unreadMessages).toBe(0);
    expect((await call("GET", `/tickets/${ticketId}`, ana.login)).json<TicketDTO>().unreadMessages).toBe(0);
    expect(opened.messages.every((m) => m.read)).toBe(true);
    await eventually(async () => (await phone(number)).every((m) => m.ack === 4));
    await eventually(() =>
      colleague.ticket.some((e) => e.ticket.id === ticketId && e.ticket.unreadMessages === 0),
    );
  });
});

describe("messages from the customer's phone", () => {
  it("text, a reply to the agent, an edit and a delete for everyone show in GET", async () => {
    const { number, ticketId } = await openConversation();
    const agentMsg = await sendText(ticketId, ana.login, { body: "Qual o número do pedido?" });
    const onTheirPhone = await onPhone(number, agentMsg.id);

    const replyId = await phoneSays(number, {
      id: `PH-${number}-A`,
      body: "É o 1234",
      quotedId: onTheirPhone.id,
    });
    let list = (await page(ticketId)).messages;
    const reply = list.find((m) => m.body === "É o 1234")!;
    expect(reply).toMatchObject({
      fromMe: false,
      mediaType: "chat",
      quotedMsg: { id: agentMsg.id, body: "Qual o número do pedido?", fromMe: true, isDeleted: false },
    });

    const live = await listen(ana.login);
    await phoneSays(number, { edit: { targetId: replyId, body: "É o 4321" } });
    await eventually(
      async () => (await page(ticketId)).messages.find((m) => m.id === reply.id)!.body === "É o 4321",
    );
    expect((await page(ticketId)).messages.find((m) => m.id === reply.id)).toMatchObject({ isEdited: true });

    await phoneSays(number, { revoke: { targetId: replyId } });
    await eventually(async () => (await page(ticketId)).messages.find((m) => m.id === reply.id)!.isDeleted);
    list = (await page(ticketId)).messages;
    expect(list.find((m) => m.id === reply.id)).toMatchObject({ isDeleted: true, fromMe: false });
    await eventually(() => live.appMessage.some((e) => e.message.id === reply.id && e.message.isDeleted));
    // The ticket's conversation keeps every message in order.
    expect(list.map((m) => m.id)).toEqual([...list.map((m) => m.id)].sort((a, b) => a - b));
  });
});
