import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, expect } from "vitest";
import { type ContactDTO, type MessageDTO, type MessagesPage, type TicketDTO } from "@atende/contracts";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, phoneSends, phoneShows } from "../../test/channels.js";
import { type LoggedIn, buildCompany, buildUser, login, newNumber } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { caller } from "../../test/calls.js";

/**
 * What the messages API's test files share (history, send, media, edit, forward, live), driven end to
 * end: a customer's phone (the simulator) writes, agents answer, and the tests look at what the inbox
 * stores, what the live channel carries and what the phone shows. Each file gets its own database with
 * a simulator company (two queues, three agents) and a stranger company, and these helpers.
 */

/** Waits generously: the job runner and the simulator's delivery timer run on a busy machine. */
export const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

export const MEDIA_MAX_BYTES = 64 * 1024;
export let ctx: TestContext;
export let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
/** Queue 1's agents (Ana and her colleague Beto) and queue 2's (Caio). */
export let ana: { id: number; name: string; login: LoggedIn };
export let beto: { id: number; name: string; login: LoggedIn };
export let caio: { id: number; name: string; login: LoggedIn };
export let stranger: LoggedIn;
export let strangerCompanyId: number;
export const sockets: Socket[] = [];

export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
export const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);

/**
 * A WebM as a browser's recorder writes it: the EBML header says "webm" whether it holds sound or
 * picture (file-type calls every WebM video/webm), then the recording's bytes (over the 10 000 a
 * voice note needs).
 */
export const WEBM = Buffer.concat([
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

/** A real recording as Chrome's MediaRecorder writes it: WebM with Opus inside, 1.5 s, mono. */
export const RECORDING_WEBM = fs.readFileSync(new URL("../../test/media/recording.webm", import.meta.url));

export type Who = LoggedIn | null;
export const call = caller(() => ctx);

/** The customer's phone sends; answers the phone's id of the message. */
export async function phoneSays(number: string, payload: Record<string, unknown>): Promise<string> {
  const res = await phoneSends(ctx, team.adminLogin, team.connection.id, { from: number, ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** What the phone shows of its chat with the business, oldest first. */
export const phone = (number: string) => phoneShows(ctx, team.adminLogin, team.connection.id, number);
export const phoneOut = async (number: string) => (await phone(number)).filter((m) => m.direction === "out");

export async function ticketOf(number: string) {
  const [row] = await ctx.deps.db
    .select({ t: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(contacts.companyId, team.company.id), eq(contacts.number, number)));
  return row?.t ?? null;
}

/** A customer writes in; the admin hands the ticket to an agent in a queue (accept). */
export async function openConversation(opts: { agent?: typeof ana; queue?: 0 | 1; first?: string } = {}) {
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

export async function page(
  ticketId: number,
  who: Who = team.adminLogin,
  pageNumber = 1,
): Promise<MessagesPage> {
  const res = await call("GET", `/messages/${ticketId}?pageNumber=${pageNumber}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function sendText(
  ticketId: number,
  who: Who,
  payload: Record<string, unknown>,
): Promise<MessageDTO> {
  const res = await call("POST", `/messages/${ticketId}`, who, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function stored(id: number) {
  return (await ctx.deps.db.select().from(messages).where(eq(messages.id, id)))[0]!;
}
export const ackOf = async (id: number) => (await stored(id)).ack;
export const countOf = async (ticketId: number) =>
  (await ctx.deps.db.select().from(messages).where(eq(messages.ticketId, ticketId))).length;

/** The agent's message as the phone received it (its provider id is the message's wid once sent). */
export async function onPhone(number: string, id: number) {
  await eventually(async () => (await ackOf(id)) >= 1);
  const wid = (await stored(id)).wid!;
  await eventually(async () => (await phone(number)).some((m) => m.id === wid));
  return (await phone(number)).find((m) => m.id === wid)!;
}

export type Part =
  { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };
export function multipart(parts: Part[]) {
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
export function postForm(ticketId: number, who: LoggedIn, parts: Part[], lang?: string) {
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

export function mediaFiles(): string[] {
  const dir = path.join(ctx.deps.media.root, String(team.company.id));
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

export type AppMessageEvent = {
  action: "create" | "update";
  message: MessageDTO;
  ticket: TicketDTO;
  contact: ContactDTO;
};
export async function listen(who: LoggedIn, companyId = team.company.id) {
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

/** Registers the suite's shared setup and teardown: call once at the top of each test file. */
export function setupMessagesSuite() {
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
}
