import { expect } from "vitest";
import type { SimulatorPhoneMessage, WhatsappDetailDTO } from "@atende/contracts";
import { type LoggedIn, buildCompany, buildQueue, buildUser, login } from "./factories.js";
import { type TestContext, waitFor } from "./harness.js";
import { and, eq, ne } from "drizzle-orm";
import { contacts, tickets } from "../db/schema/index.js";
import type { ConversationItem } from "../modules/inbound/queries.js";

/**
 * A company with an admin, its queues, and a CONNECTED simulator connection (paired like a person
 * would). With `bot: false` the connection has no queues and no greeting, so the chatbot stays
 * silent and a customer's message leaves an unqueued pending ticket: for suites about something else.
 */
export async function buildSimulatorCompany(ctx: TestContext, opts: { queues?: number; bot?: boolean } = {}) {
  const db = ctx.deps.db;
  const company = await buildCompany(db);
  const queues = [];
  for (let i = 0; i < (opts.queues ?? 1); i++)
    queues.push(await buildQueue(db, company.id, { name: `Fila ${i + 1}` }));
  const admin = await buildUser(db, company.id, { profile: "admin" });
  const adminLogin = await login(ctx, admin.email);
  const connection = await connectSimulator(
    ctx,
    adminLogin,
    opts.bot === false
      ? { queueIds: [], greetingMessage: "" }
      : { queueIds: queues.map((q) => q.id), greetingMessage: "Olá!" },
  );
  return { company, queues, admin, adminLogin, connection };
}

export async function connectSimulator(
  ctx: TestContext,
  who: LoggedIn,
  fields: Record<string, unknown> = {},
): Promise<WhatsappDetailDTO> {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/whatsapp",
    headers: who.auth,
    payload: { name: `Sim ${Math.random().toString(36).slice(2, 8)}`, provider: "simulator", ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<WhatsappDetailDTO>();
  await waitFor(async () => (await status(ctx, who, created.id)) === "qrcode", 5_000);
  const scan = await ctx.app.inject({
    method: "POST",
    url: `/simulator/${created.id}/scan`,
    headers: who.auth,
  });
  expect(scan.statusCode).toBe(204);
  await waitFor(async () => (await status(ctx, who, created.id)) === "CONNECTED", 5_000);
  return created;
}

async function status(ctx: TestContext, who: LoggedIn, id: number) {
  const res = await ctx.app.inject({ method: "GET", url: `/whatsapp/${id}`, headers: who.auth });
  return res.json<WhatsappDetailDTO>().status;
}

/** What the customer's phone shows of its chat with the connection, oldest first. */
export async function phoneShows(
  ctx: TestContext,
  who: LoggedIn,
  whatsappId: number,
  number: string,
): Promise<SimulatorPhoneMessage[]> {
  const res = await ctx.app.inject({
    method: "GET",
    url: `/simulator/${whatsappId}/messages?number=${encodeURIComponent(number)}`,
    headers: who.auth,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SimulatorPhoneMessage[]>();
}

/**
 * A customer's phone writes to the company's simulator connection; answers the contact's live (not
 * closed) ticket as the inbound pipeline left it.
 */
export async function phoneOpensTicket(
  ctx: TestContext,
  team: { company: { id: number }; adminLogin: LoggedIn; connection: { id: number } },
  message: { number: string; name: string; body: string },
) {
  const res = await phoneSends(ctx, team.adminLogin, team.connection.id, {
    from: message.number,
    name: message.name,
    body: message.body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await ctx.deps.db
    .select({ t: tickets })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(contacts.companyId, team.company.id),
        eq(contacts.number, message.number),
        ne(tickets.status, "closed"),
      ),
    );
  if (!row) throw new Error(`no live ticket for ${message.number}`);
  return row.t;
}

/** The customer's phone sends to the connection through the simulator API. */
export function phoneSends(
  ctx: TestContext,
  who: LoggedIn,
  whatsappId: number,
  payload: Record<string, unknown>,
) {
  return ctx.app.inject({
    method: "POST",
    url: `/simulator/${whatsappId}/messages`,
    headers: who.auth,
    payload,
  });
}

/**
 * A customer's text message as the inbound writer takes it (storeQuietMessages and the batch
 * statements), on `connection` of its company, keyed by number; `wid` is the phone's message id.
 */
export function customerTextItem(
  connection: { companyId: number; whatsappId: number },
  v: { number: string; body: string; name: string; wid: string },
): ConversationItem {
  const at = new Date().toISOString();
  return {
    key: "number",
    values: {
      ...connection,
      name: v.name,
      number: v.number,
      lid: null,
      isGroup: false,
      at,
      wid: v.wid,
      body: v.body,
      fromMe: false,
      ack: 0,
      mediaType: "chat",
      mediaPath: null,
      mediaMime: null,
      mediaName: null,
      mediaStatus: null,
      participant: null,
      isForwarded: false,
      createdAt: at,
      updatedAt: at,
      quotedWid: null,
      preview: v.body,
      unread: 1,
    },
  };
}
