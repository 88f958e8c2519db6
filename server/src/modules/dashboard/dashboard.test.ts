import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardData, TicketReportPage, TicketsDayData, TicketsUsersData } from "@atende/contracts";
import { companies, contacts, ticketTracking, tickets, users } from "../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import { connectSimulator, phoneSends } from "../../test/channels.js";
import {
  type LoggedIn,
  buildCompany,
  buildQueue,
  buildUser,
  login,
  buildContact,
} from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";
import { resolveRange, startOfDay } from "./service.js";

/**
 * The dashboard and the reports after a scripted day, driven through the real API with the app's
 * clock frozen at each step: customers write through the simulator, agents accept, answer and
 * resolve, customers rate. Company A runs on São Paulo time (UTC-3), company B on Tokyo time
 * (UTC+9); several steps sit a few minutes either side of those zones' midnights.
 */
let ctx: TestContext;
const call = caller(() => ctx);
const eventually = (check: () => boolean | Promise<boolean>) => waitFor(check, 10_000);

interface Team {
  companyId: number;
  admin: LoggedIn;
  adminId: number;
  connectionId: number;
}
let A: Team & { bruno: LoggedIn; brunoId: number; suporte: number; vendas: number; connectionName: string };
let B: Team;
let superLogin: LoggedIn;
/** Ticket ids of the script, by customer. */
const T: Record<string, number> = {};

const NUMBERS = {
  c1: "5511900000001",
  c2: "5511900000002",
  c3: "5511900000003",
  c4: "5511900000004",
  c5: "5511900000005",
  b1: "81300000001",
  b2: "81300000002",
  b3: "81300000003",
  b4: "81300000004",
};

function at(iso: string) {
  ctx.clock.now = new Date(iso);
}

async function ticketFor(companyId: number, number: string): Promise<number | undefined> {
  const [row] = await ctx.deps.db
    .select({ id: tickets.id })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(tickets.companyId, companyId), eq(contacts.number, number)));
  return row?.id;
}

/** The customer writes; answers the ticket it landed on. */
async function customerSays(team: Team, key: keyof typeof NUMBERS, name: string, body: string) {
  const res = await phoneSends(ctx, team.admin, team.connectionId, { from: NUMBERS[key], name, body });
  expect(res.statusCode, res.body).toBeLessThan(300);
  await eventually(async () => (await ticketFor(team.companyId, NUMBERS[key])) !== undefined);
  T[key] = (await ticketFor(team.companyId, NUMBERS[key]))!;
  return T[key];
}

async function ticketPut(who: LoggedIn, id: number, payload: Record<string, unknown>) {
  expectOk(await call("PUT", `/tickets/${id}`, who, payload));
}

async function agentSays(who: LoggedIn, id: number, body: string) {
  const res = await call("POST", `/messages/${id}`, who, { body });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** The customer answers the rating question; the bot records it at the frozen time. */
async function customerRates(team: Team, key: keyof typeof NUMBERS, rate: number) {
  await phoneSends(ctx, team.admin, team.connectionId, { from: NUMBERS[key], body: String(rate) });
  await eventually(async () => {
    const [row] = await ctx.deps.db
      .select({ rating: ticketTracking.rating })
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, T[key]!));
    return row?.rating === rate;
  });
}

async function putSetting(who: LoggedIn, key: string, value: string) {
  expectOk(await call("PUT", `/settings/${key}`, who, { key, value }));
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
  const db = ctx.deps.db;

  // Company A: São Paulo, customers rate the service.
  const a = await buildCompany(db, { name: "Empresa A" });
  const suporte = await buildQueue(db, a.id, { name: "Suporte", color: "#1e88e5" });
  const vendas = await buildQueue(db, a.id, { name: "Vendas", color: "#43a047" });
  const ana = await buildUser(db, a.id, { profile: "admin", name: "Ana" });
  const bruno = await buildUser(db, a.id, { profile: "user", name: "Bruno", queueIds: [suporte.id] });
  const aAdmin = await login(ctx, ana.email);
  await putSetting(aAdmin, "userRating", "enabled");
  await putSetting(aAdmin, "sendGreetingMessageOneQueues", "disabled");
  const aConnection = await connectSimulator(ctx, aAdmin, {
    name: "Central A",
    queueIds: [suporte.id],
    greetingMessage: "",
    ratingMessage: "Avalie nosso atendimento:",
    complationMessage: "Obrigado pelo contato!",
  });
  A = {
    companyId: a.id,
    admin: aAdmin,
    adminId: ana.id,
    connectionId: aConnection.id,
    connectionName: "Central A",
    bruno: await login(ctx, bruno.email),
    brunoId: bruno.id,
    suporte: suporte.id,
    vendas: vendas.id,
  };

  // Company B: Tokyo, one queue, no rating.
  const b = await buildCompany(db, { name: "Empresa B" });
  const bQueue = await buildQueue(db, b.id, { name: "Geral" });
  const kaito = await buildUser(db, b.id, { profile: "admin", name: "Kaito" });
  const bAdmin = await login(ctx, kaito.email);
  await putSetting(bAdmin, "timezone", "Asia/Tokyo");
  await putSetting(bAdmin, "sendGreetingMessageOneQueues", "disabled");
  const bConnection = await connectSimulator(ctx, bAdmin, { queueIds: [bQueue.id], greetingMessage: "" });
  B = { companyId: b.id, admin: bAdmin, adminId: kaito.id, connectionId: bConnection.id };

  const platform = await buildCompany(db, { name: "Plataforma" });
  const root = await buildUser(db, platform.id, { profile: "admin", super: true, name: "Root" });
  superLogin = await login(ctx, root.email);

  // ---- The script, in time order (UTC; São Paulo = UTC-3, Tokyo = UTC+9).
  // c1: arrives 23:30 of 03-09 in São Paulo, waits 10 min, served 30 min across midnight, rated 3.
  at("2025-03-10T02:30:00Z");
  const c1 = await customerSays(A, "c1", "Maria Souza", "Olá, preciso de ajuda");
  at("2025-03-10T02:40:00Z");
  await ticketPut(A.admin, c1, { status: "open" });
  at("2025-03-10T02:45:00Z");
  await agentSays(A.admin, c1, "Olá Maria, em que posso ajudar?");
  at("2025-03-10T03:10:00Z");
  await ticketPut(A.admin, c1, { status: "closed" });
  at("2025-03-10T03:12:00Z");
  await customerRates(A, "c1", 3);

  // c2: 09:00 of 03-10; Bruno waits it 20 min, serves 45 min, rated 1.
  at("2025-03-10T12:00:00Z");
  const c2 = await customerSays(A, "c2", "João Lima", "Bom dia");
  at("2025-03-10T12:20:00Z");
  await ticketPut(A.bruno, c2, { status: "open" });
  at("2025-03-10T12:25:00Z");
  await agentSays(A.bruno, c2, "Bom dia João");
  at("2025-03-10T13:05:00Z");
  await ticketPut(A.bruno, c2, { status: "closed" });
  at("2025-03-10T13:06:00Z");
  await customerRates(A, "c2", 1);

  // b1: 23:50 of 03-10 in Tokyo; waits 5 min, served 25 min across Tokyo's midnight (15:00 UTC).
  at("2025-03-10T14:50:00Z");
  const b1 = await customerSays(B, "b1", "Kenji Sato", "Konnichiwa");
  at("2025-03-10T14:55:00Z");
  await ticketPut(B.admin, b1, { status: "open" });
  at("2025-03-10T14:56:00Z");
  await agentSays(B.admin, b1, "Hello Kenji");
  // b2: 00:10 of 03-11 in Tokyo, left waiting.
  at("2025-03-10T15:10:00Z");
  await customerSays(B, "b2", "Yuki Mori", "Hi");
  at("2025-03-10T15:20:00Z");
  await ticketPut(B.admin, b1, { status: "closed" });

  // c3: 15:00 of 03-10; Ana accepts after 5 min and is still serving it.
  at("2025-03-10T18:00:00Z");
  const c3 = await customerSays(A, "c3", "Carla Dias", "Oi");
  at("2025-03-10T18:05:00Z");
  await ticketPut(A.admin, c3, { status: "open" });
  at("2025-03-10T18:06:00Z");
  await agentSays(A.admin, c3, "Oi Carla");

  // c4: 23:59 of 03-10, still waiting (moved to Vendas); c5: 00:01 of 03-11, Bruno, rated 2.
  at("2025-03-11T02:59:00Z");
  const c4 = await customerSays(A, "c4", "Pedro Alves", "Alguém aí?");
  at("2025-03-11T03:01:00Z");
  const c5 = await customerSays(A, "c5", "Lúcia Rocha", "Boa noite");
  at("2025-03-11T03:11:00Z");
  await ticketPut(A.bruno, c5, { status: "open" });
  at("2025-03-11T03:12:00Z");
  await agentSays(A.bruno, c5, "Boa noite Lúcia");
  at("2025-03-11T03:30:00Z");
  await ticketPut(A.admin, c4, { queueId: vendas.id });
  at("2025-03-11T03:41:00Z");
  await ticketPut(A.bruno, c5, { status: "closed" });
  at("2025-03-11T03:45:00Z");
  await customerRates(A, "c5", 2);

  // b3: an agent's own ticket with no queue, left waiting at 14:00 in Tokyo, accepted 7 min later
  // (its wait runs from its creation); b4: an agent's own ticket opened at once (it never waited).
  at("2025-03-11T05:00:00Z");
  const contact = async (number: string, name: string) =>
    (await buildContact(db, B.companyId, { name, number })).id;
  const b3 = expectOk<{ id: number }>(
    await call("POST", "/tickets", B.admin, {
      contactId: await contact(NUMBERS.b3, "Aiko Ito"),
      whatsappId: B.connectionId,
      status: "pending",
    }),
    201,
  ).id;
  T.b3 = b3;
  at("2025-03-11T05:07:00Z");
  await ticketPut(B.admin, b3, { status: "open" });
  at("2025-03-11T06:00:00Z");
  T.b4 = expectOk<{ id: number }>(
    await call("POST", "/tickets", B.admin, {
      contactId: await contact(NUMBERS.b4, "Ren Abe"),
      whatsappId: B.connectionId,
    }),
    201,
  ).id;

  // Looked at the next morning: 09:00 in São Paulo, 21:00 in Tokyo, both on 03-11.
  at("2025-03-11T12:00:00Z");
  await db.update(users).set({ online: true, lastSeenAt: ctx.clock.now }).where(eq(users.id, bruno.id));
  await db.update(users).set({ online: false }).where(eq(users.id, ana.id));
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

async function get<T>(who: LoggedIn, url: string): Promise<T> {
  return expectOk<T>(await call("GET", url, who));
}

describe("GET /dashboard after the scripted day (São Paulo)", () => {
  it("today (days=1): live open and waiting counts; resolved, times and ratings of 03-11 only", async () => {
    const d = await get<DashboardData>(A.admin, "/dashboard?days=1");
    expect(d.range).toEqual({ from: "2025-03-11", to: "2025-03-11", timezone: "America/Sao_Paulo" });
    expect(d.counters).toEqual({
      supportHappening: 1, // c3
      supportPending: 1, // c4
      supportFinished: 1, // c5
      avgSupportTime: 30,
      avgWaitTime: 10,
      totalWhatsappSessions: 1,
      totalCompanies: null,
    });
    expect(d.attendants).toEqual([
      {
        id: A.adminId,
        name: "Ana",
        rating: null,
        ratings: 0,
        avgSupportTime: null,
        finished: 0,
        online: false,
      },
      { id: A.brunoId, name: "Bruno", rating: 2, ratings: 1, avgSupportTime: 30, finished: 1, online: true },
    ]);
  });

  it("the day 03-10: c1 resolved 00:10 and rated that day though it arrived the day before", async () => {
    const d = await get<DashboardData>(A.admin, "/dashboard?date_from=2025-03-10&date_to=2025-03-10");
    expect(d.counters).toMatchObject({
      supportHappening: 1,
      supportPending: 1,
      supportFinished: 2, // c1 (00:10), c2
      avgSupportTime: 37.5, // (30 + 45) / 2
      avgWaitTime: 12.5, // c2 20, c3 5 (c1 was accepted at 23:40 of 03-09)
    });
    expect(d.attendants).toEqual([
      { id: A.adminId, name: "Ana", rating: 3, ratings: 1, avgSupportTime: 30, finished: 1, online: false },
      { id: A.brunoId, name: "Bruno", rating: 1, ratings: 1, avgSupportTime: 45, finished: 1, online: true },
    ]);
  });

  it("the day 03-09 holds only c1's acceptance at 23:40", async () => {
    const d = await get<DashboardData>(A.admin, "/dashboard?date_from=2025-03-09&date_to=2025-03-09");
    expect(d.counters).toMatchObject({ supportFinished: 0, avgSupportTime: null, avgWaitTime: 10 });
    expect(d.attendants.map((x) => x.rating)).toEqual([null, null]);
  });

  it("two days (days=2) average over both", async () => {
    const d = await get<DashboardData>(A.admin, "/dashboard?days=2");
    expect(d.range).toMatchObject({ from: "2025-03-10", to: "2025-03-11" });
    expect(d.counters).toMatchObject({
      supportFinished: 3,
      avgSupportTime: 35, // (30 + 45 + 30) / 3
      avgWaitTime: 11.7, // (20 + 5 + 10) / 3
    });
    expect(d.attendants).toEqual([
      { id: A.adminId, name: "Ana", rating: 3, ratings: 1, avgSupportTime: 30, finished: 1, online: false },
      {
        id: A.brunoId,
        name: "Bruno",
        rating: 1.5,
        ratings: 2,
        avgSupportTime: 37.5,
        finished: 2,
        online: true,
      },
    ]);
  });

  it("no parameters: the last 7 days, today included", async () => {
    const d = await get<DashboardData>(A.admin, "/dashboard");
    expect(d.range).toEqual({ from: "2025-03-05", to: "2025-03-11", timezone: "America/Sao_Paulo" });
    expect(d.counters.supportFinished).toBe(3);
    // days wins over dates; a date_from alone runs to today.
    expect((await get<DashboardData>(A.admin, "/dashboard?days=3&date_from=2025-01-01")).range).toMatchObject(
      {
        from: "2025-03-09",
        to: "2025-03-11",
      },
    );
    expect((await get<DashboardData>(A.admin, "/dashboard?date_from=2025-03-10")).range).toMatchObject({
      from: "2025-03-10",
      to: "2025-03-11",
    });
  });

  it("the super user also gets the number of companies", async () => {
    const d = await get<DashboardData>(superLogin, "/dashboard");
    const [all] = await ctx.deps.db.select({ total: count() }).from(companies);
    expect(d.counters.totalCompanies).toBe(all!.total);
    expect(d.counters.totalWhatsappSessions).toBe(0); // the platform company has no connection
  });
});

describe("charts", () => {
  it("tickets per day, in São Paulo days, every day present", async () => {
    const d = await get<TicketsDayData>(
      A.admin,
      "/dashboard/ticketsDay?initialDate=2025-03-08&finalDate=2025-03-11",
    );
    // The shape clients of this API family read: {data: [{data: "dd/mm/YYYY", total}], count}.
    expect(d.data).toEqual([
      { data: "08/03/2025", total: 0 },
      { data: "09/03/2025", total: 1 }, // c1 at 23:30
      { data: "10/03/2025", total: 3 }, // c2, c3, c4 (23:59)
      { data: "11/03/2025", total: 1 }, // c5 at 00:01
    ]);
    expect(d.count).toBe(5);
  });

  it("a single day: per hour of that day", async () => {
    const d = await get<TicketsDayData>(
      A.admin,
      "/dashboard/ticketsDay?initialDate=2025-03-10&finalDate=2025-03-10",
    );
    // {data: [{horario, total}], count}: every hour of the day, 0 to 23.
    expect(d.data).toHaveLength(24);
    expect(d.data.map((p) => ("horario" in p ? p.horario : null))).toEqual([...Array(24).keys()]);
    expect(d.data.filter((p) => p.total > 0)).toEqual([
      { horario: 9, total: 1 },
      { horario: 15, total: 1 },
      { horario: 23, total: 1 },
    ]);
    expect(d.count).toBe(3);
  });

  it("tickets per attendant: by who holds them, most first; waiting tickets left out", async () => {
    expect(
      (
        await get<TicketsUsersData>(
          A.admin,
          "/dashboard/ticketsUsers?initialDate=2025-03-09&finalDate=2025-03-11",
        )
      ).data,
    ).toEqual([
      { userId: A.adminId, nome: "Ana", quantidade: 2 },
      { userId: A.brunoId, nome: "Bruno", quantidade: 2 },
    ]);
    expect((await get<TicketsUsersData>(A.admin, "/dashboard/ticketsUsers?days=1")).data).toEqual([
      { userId: A.brunoId, nome: "Bruno", quantidade: 1 },
    ]);
    expect(
      (
        await get<TicketsUsersData>(
          A.admin,
          "/dashboard/ticketsUsers?initialDate=2025-01-01&finalDate=2025-01-31",
        )
      ).data,
    ).toEqual([]);
  });
});

describe("company B on Tokyo time", () => {
  it("its own day boundaries: b1 resolved at 00:20 of 03-11, b2 arrived 00:10 of 03-11", async () => {
    const today = await get<DashboardData>(B.admin, "/dashboard?days=1");
    expect(today.range).toEqual({ from: "2025-03-11", to: "2025-03-11", timezone: "Asia/Tokyo" });
    expect(today.counters).toEqual({
      supportHappening: 2, // b3, b4
      supportPending: 1, // b2
      supportFinished: 1, // b1
      avgSupportTime: 25,
      avgWaitTime: 7, // b3 from its creation; b4 never waited; b1 was accepted at 23:55 of 03-10
      totalWhatsappSessions: 1,
      totalCompanies: null,
    });
    const before = await get<DashboardData>(B.admin, "/dashboard?date_from=2025-03-10&date_to=2025-03-10");
    expect(before.counters).toMatchObject({ supportFinished: 0, avgWaitTime: 5 });
    const days = await get<TicketsDayData>(
      B.admin,
      "/dashboard/ticketsDay?initialDate=2025-03-10&finalDate=2025-03-11",
    );
    expect(days.data).toEqual([
      { data: "10/03/2025", total: 1 },
      { data: "11/03/2025", total: 3 },
    ]);
    const rows = (await get<TicketReportPage>(B.admin, "/ticket/reports?days=1")).tickets;
    expect(rows.map((r) => [r.id, r.queue, r.waitTime])).toEqual([
      [T.b4, null, 0],
      [T.b3, null, 7],
      [T.b2, expect.anything(), null],
    ]);
  });

  it("never sees company A's figures, whatever the query says", async () => {
    const q = `companyId=${A.companyId}&initialDate=2025-03-01&finalDate=2025-03-31`;
    const d = await get<DashboardData>(B.admin, `/dashboard?days=30&companyId=${A.companyId}`);
    expect(d.attendants.map((x) => x.name)).toEqual(["Kaito"]);
    expect(d.counters).toMatchObject({ supportHappening: 2, supportPending: 1, supportFinished: 1 });
    const day = await get<TicketsDayData>(B.admin, `/dashboard/ticketsDay?${q}`);
    expect(day.count).toBe(4);
    expect((await get<TicketsUsersData>(B.admin, `/dashboard/ticketsUsers?${q}`)).data).toEqual([
      { userId: B.adminId, nome: "Kaito", quantidade: 3 },
    ]);
    const report = await get<TicketReportPage>(B.admin, `/ticket/reports?${q}&userIds=${A.brunoId}`);
    expect(report).toMatchObject({ tickets: [], count: 0, hasMore: false });
    const all = await get<TicketReportPage>(B.admin, `/ticket/reports?${q}`);
    expect(all.tickets.map((t) => t.id)).toEqual([T.b4, T.b3, T.b2, T.b1]);
    const csv = (await call("GET", `/ticket/reports/export?${q}`, B.admin)).body;
    expect(csv).not.toContain("Maria");
    expect(csv.trim().split("\r\n")).toHaveLength(5);
  });
});

describe("GET /ticket/reports", () => {
  const three = "initialDate=2025-03-09&finalDate=2025-03-11";

  it("rows newest first with who, where, when, how long and the rating", async () => {
    const page = await get<TicketReportPage>(A.admin, `/ticket/reports?${three}`);
    expect(page.count).toBe(5);
    expect(page.hasMore).toBe(false);
    expect(page.tickets.map((t) => t.id)).toEqual([T.c5, T.c4, T.c3, T.c2, T.c1]);
    const byId = new Map(page.tickets.map((t) => [t.id, t]));
    expect(byId.get(T.c1!)).toMatchObject({
      status: "closed",
      contact: { name: "Maria Souza", number: NUMBERS.c1 },
      user: { id: A.adminId, name: "Ana" },
      queue: { id: A.suporte, name: "Suporte", color: "#1e88e5" },
      whatsapp: { id: A.connectionId, name: A.connectionName },
      createdAt: "2025-03-10T02:30:00.000Z",
      closedAt: "2025-03-10T03:10:00.000Z",
      supportTime: 30,
      waitTime: 10,
      rating: 3,
    });
    expect(byId.get(T.c1!)!.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(byId.get(T.c3!)).toMatchObject({
      status: "open",
      closedAt: null,
      supportTime: null,
      waitTime: 5,
      rating: null,
    });
    expect(byId.get(T.c4!)).toMatchObject({
      status: "pending",
      user: null,
      queue: { id: A.vendas, name: "Vendas" },
      waitTime: null,
      supportTime: null,
    });
    expect(byId.get(T.c2!)).toMatchObject({ supportTime: 45, waitTime: 20, rating: 1 });
  });

  it("pages", async () => {
    const first = await get<TicketReportPage>(A.admin, `/ticket/reports?${three}&pageSize=2`);
    expect(first.tickets.map((t) => t.id)).toEqual([T.c5, T.c4]);
    expect(first).toMatchObject({ count: 5, hasMore: true });
    const last = await get<TicketReportPage>(A.admin, `/ticket/reports?${three}&pageSize=2&pageNumber=3`);
    expect(last.tickets.map((t) => t.id)).toEqual([T.c1]);
    expect(last).toMatchObject({ count: 5, hasMore: false });
  });

  it("filters by agent, status, queue, contact and day", async () => {
    const ids = async (query: string) =>
      (await get<TicketReportPage>(A.admin, `/ticket/reports?${query}`)).tickets.map((t) => t.id);
    expect(await ids(`${three}&userIds=${A.brunoId}`)).toEqual([T.c5, T.c2]);
    expect(await ids(`${three}&userIds=[${A.brunoId},${A.adminId}]`)).toEqual([T.c5, T.c3, T.c2, T.c1]);
    expect(await ids(`${three}&status=closed`)).toEqual([T.c5, T.c2, T.c1]);
    expect(await ids(`${three}&queueIds=${A.vendas}`)).toEqual([T.c4]);
    expect(await ids(`${three}&searchParam=souza`)).toEqual([T.c1]);
    expect(await ids(`${three}&searchParam=900000003`)).toEqual([T.c3]);
    expect(await ids(`${three}&searchParam=%25`)).toEqual([]); // a literal %, not a wildcard
    expect(await ids("initialDate=2025-03-10&finalDate=2025-03-10")).toEqual([T.c4, T.c3, T.c2]);
    expect(await ids("days=1")).toEqual([T.c5]);
    expect(await ids("")).toEqual([T.c5, T.c4, T.c3, T.c2, T.c1]); // the last 7 days
  });

  it("exports the same filter as CSV, with a BOM and local times", async () => {
    const res = await call("GET", `/ticket/reports/export?${three}`, A.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="tickets-2025-03-09-2025-03-11.csv"',
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "id,uuid,status,contact,number,user,queue,connection,createdAt,closedAt,waitTime (min),supportTime (min),rating",
    );
    expect(lines).toHaveLength(6);
    const c1 = lines.find((l) => l.startsWith(`${T.c1},`))!;
    expect(c1.split(",").slice(2)).toEqual([
      "closed",
      "Maria Souza",
      NUMBERS.c1,
      "Ana",
      "Suporte",
      "Central A",
      "2025-03-09 23:30",
      "2025-03-10 00:10",
      "10",
      "30",
      "3",
    ]);
    expect(lines.find((l) => l.startsWith(`${T.c5},`))).toContain("Lúcia Rocha");
    const open = await call("GET", `/ticket/reports/export?${three}&status=open`, A.admin);
    expect(open.body.trim().split("\r\n")).toHaveLength(2);
  });
});

describe("who may ask, and what", () => {
  const urls = [
    "/dashboard",
    "/dashboard/ticketsDay",
    "/dashboard/ticketsUsers",
    "/ticket/reports",
    "/ticket/reports/export",
  ];

  it("a plain user gets 403 ERR_NO_PERMISSION; no session gets 401", async () => {
    for (const url of urls) {
      expectError(await call("GET", url, A.bruno), 403, "ERR_NO_PERMISSION");
      expect((await ctx.app.inject({ method: "GET", url })).statusCode, url).toBe(401);
    }
  });

  it("bad dates, periods and filters answer 400 ERR_VALIDATION with the field", async () => {
    expect(
      fieldsOf(await call("GET", "/dashboard?date_from=2025-03-11&date_to=2025-03-10", A.admin)),
    ).toEqual({
      date_to: "O fim deve ser depois do início",
    });
    expect(Object.keys(fieldsOf(await call("GET", "/dashboard?days=0", A.admin)))).toEqual(["days"]);
    expect(Object.keys(fieldsOf(await call("GET", "/dashboard?days=abc", A.admin)))).toEqual(["days"]);
    expect(Object.keys(fieldsOf(await call("GET", "/dashboard?date_from=2025-02-30", A.admin)))).toEqual([
      "date_from",
    ]);
    expect(
      Object.keys(
        fieldsOf(
          await call("GET", "/dashboard/ticketsDay?initialDate=2023-01-01&finalDate=2025-01-01", A.admin),
        ),
      ),
    ).toEqual(["finalDate"]);
    expect(Object.keys(fieldsOf(await call("GET", "/ticket/reports?status=lost", A.admin)))).toEqual([
      "status",
    ]);
    expect(Object.keys(fieldsOf(await call("GET", "/ticket/reports?queueIds=x", A.admin)))).toEqual([
      "queueIds.0",
    ]);
    expect(Object.keys(fieldsOf(await call("GET", "/ticket/reports?pageSize=1000", A.admin)))).toEqual([
      "pageSize",
    ]);
  });
});

describe("calendar days in a time zone", () => {
  it("a day starts at the zone's midnight, daylight saving included", () => {
    const start = (day: string, zone: string) => startOfDay(day, zone).toISOString();
    expect(start("2025-03-10", "America/Sao_Paulo")).toBe("2025-03-10T03:00:00.000Z");
    expect(start("2025-03-10", "Asia/Tokyo")).toBe("2025-03-09T15:00:00.000Z");
    // New York: EST until 2025-03-09 02:00, EDT after; back on 2025-11-02.
    expect(start("2025-03-09", "America/New_York")).toBe("2025-03-09T05:00:00.000Z");
    expect(start("2025-03-10", "America/New_York")).toBe("2025-03-10T04:00:00.000Z");
    expect(start("2025-11-03", "America/New_York")).toBe("2025-11-03T05:00:00.000Z");
    // Santiago skips 2025-09-07 00:00 (clocks go to 01:00): the day starts at the change.
    expect(start("2025-09-07", "America/Santiago")).toBe("2025-09-07T04:00:00.000Z");
  });

  it("periods and dates resolve to calendar days", () => {
    const range = (input: Parameters<typeof resolveRange>[2]) => resolveRange("2025-03-11", "UTC", input);
    expect(range({ days: 1 })).toMatchObject({ from: "2025-03-11", to: "2025-03-11" });
    expect(range({ days: 90 })).toMatchObject({ from: "2024-12-12", to: "2025-03-11" });
    expect(range({})).toMatchObject({ from: "2025-03-05", to: "2025-03-11" });
    expect(range({ from: "2025-03-01" })).toMatchObject({ from: "2025-03-01", to: "2025-03-11" });
    expect(range({ from: "2025-04-01" })).toMatchObject({ from: "2025-04-01", to: "2025-04-01" });
    expect(range({ to: "2025-02-28" })).toMatchObject({ from: "2025-02-28", to: "2025-02-28" });
  });
});
