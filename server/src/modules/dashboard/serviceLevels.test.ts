import * as XLSX from "@e965/xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlaReport, SlaTargetFigures } from "@atende/contracts";
import type { tickets } from "../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import {
  type LoggedIn,
  buildCompany,
  buildContact,
  buildQueue,
  buildTicket,
  buildUser,
  login,
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * The service-level report on a known set of tickets whose clocks are written straight in the
 * database (the engine that fills them is tested on its own): every figure below is worked out by
 * hand in the comments. Company A is on São Paulo time (UTC-3): the day 2026-11-10 runs from
 * 03:00 UTC to 03:00 UTC the next day.
 */
let ctx: TestContext;
const call = caller(() => ctx);

const NOW = new Date("2026-11-12T12:00:00Z");
const BASE = Date.parse("2026-11-10T12:00:00Z");
const MIN = 60_000;
const t = (minutes: number) => new Date(BASE + minutes * MIN);

let admin: LoggedIn;
let bruno: LoggedIn;
let otherAdmin: LoggedIn;
let suporte: number;
let vendas: number;
let otherQueue: number;
const users: Record<string, number> = {};
/** Ticket ids and uuids of the set, by number. */
const T: Record<number, { id: number; uuid: string }> = {};

type Clocks = Partial<typeof tickets.$inferInsert>;

/** A ticket whose clocks started `start` minutes after BASE: first response due 30 min later, resolution 4 h later. */
function clocks(start: number, v: Clocks = {}): Clocks {
  return {
    slaStartedAt: t(start),
    slaFirstResponseDueAt: t(start + 30),
    slaResolutionDueAt: t(start + 240),
    ...v,
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.now = NOW;
  const db = ctx.deps.db;
  const a = await buildCompany(db, { name: "Empresa A" });
  suporte = (
    await buildQueue(db, a.id, { name: "Suporte", slaFirstResponseMinutes: 30, slaResolutionMinutes: 240 })
  ).id;
  vendas = (
    await buildQueue(db, a.id, { name: "Vendas", slaFirstResponseMinutes: 30, slaResolutionMinutes: 240 })
  ).id;
  const ana = await buildUser(db, a.id, { profile: "admin", name: "Ana" });
  const b = await buildUser(db, a.id, { profile: "user", name: "Bruno", queueIds: [suporte, vendas] });
  const carla = await buildUser(db, a.id, { profile: "user", name: "Carla", queueIds: [suporte, vendas] });
  users.ana = ana.id;
  users.bruno = b.id;
  users.carla = carla.id;
  admin = await login(ctx, ana.email);
  bruno = await login(ctx, b.email);

  const make = async (key: number, name: string, v: Clocks) => {
    const contact = await buildContact(db, a.id, { name });
    const row = await buildTicket(db, a.id, { contactId: contact.id, ...v });
    T[key] = { id: row.id, uuid: row.uuid };
  };
  const m = (minutes: number) => minutes * 60;
  // Suporte
  // 1 Bruno: answered in 10 min, resolved in 2 h: both met.
  await make(1, "Cliente 1", {
    ...clocks(1, { slaFirstResponseAt: t(11), slaResolvedAt: t(121) }),
    slaFirstResponseSeconds: m(10),
    slaResolutionSeconds: m(120),
    status: "closed",
    queueId: suporte,
    userId: b.id,
  });
  // 2 Bruno: answered in 20 min, resolved in 3.5 h: both met.
  await make(2, "Cliente 2", {
    ...clocks(2, { slaFirstResponseAt: t(22), slaResolvedAt: t(212) }),
    slaFirstResponseSeconds: m(20),
    slaResolutionSeconds: m(210),
    status: "closed",
    queueId: suporte,
    userId: b.id,
  });
  // 3 Carla: answered in 40 min (late, not yet marked by the engine), resolved in 3 h.
  await make(3, "Cliente 3", {
    ...clocks(3, { slaFirstResponseAt: t(43), slaResolvedAt: t(183) }),
    slaFirstResponseSeconds: m(40),
    slaResolutionSeconds: m(180),
    status: "closed",
    queueId: suporte,
    userId: carla.id,
  });
  // 4 Carla: never answered nor resolved, both due times long past: both breached, no seconds.
  await make(4, "Cliente 4", { ...clocks(4), status: "open", queueId: suporte, userId: carla.id });
  // Vendas
  // 5 Bruno: answered in 5 min; resolution paused after 1 h (before its due time), still paused: running.
  await make(5, "Cliente 5", {
    ...clocks(5, { slaFirstResponseAt: t(10), slaPausedAt: t(65) }),
    slaFirstResponseSeconds: m(5),
    status: "open",
    queueId: vendas,
    userId: b.id,
  });
  // 6 nobody: long targets, due after NOW: both running.
  await make(6, "Cliente 6", {
    ...clocks(6, {
      slaFirstResponseDueAt: new Date("2026-11-13T12:00:00Z"),
      slaResolutionDueAt: new Date("2026-11-20T12:00:00Z"),
    }),
    status: "pending",
    queueId: vendas,
  });
  // 7 Carla: both breaches found by the engine; answered in 50 min, resolved in 6 h.
  await make(7, "Cliente 7", {
    ...clocks(7, {
      slaFirstResponseAt: t(57),
      slaFirstResponseBreachedAt: t(37),
      slaResolvedAt: t(367),
      slaResolutionBreachedAt: t(247),
    }),
    slaFirstResponseSeconds: m(50),
    slaResolutionSeconds: m(360),
    status: "closed",
    queueId: vendas,
    userId: carla.id,
  });
  // 8 Ana: resolved in 15 min without a reply: no first response to count; resolution met.
  await make(8, "Cliente 8", {
    ...clocks(8, { slaResolvedAt: t(23) }),
    slaResolutionSeconds: m(15),
    status: "closed",
    queueId: vendas,
    userId: ana.id,
  });
  // 9 Bruno, Suporte: started 2026-11-09 23:30 in São Paulo (02:30 UTC on the 10th): the day before.
  await make(9, "Cliente 9", {
    slaStartedAt: new Date("2026-11-10T02:30:00Z"),
    slaFirstResponseDueAt: new Date("2026-11-10T03:00:00Z"),
    slaFirstResponseAt: new Date("2026-11-10T02:31:00Z"),
    slaFirstResponseSeconds: 60,
    slaResolutionDueAt: new Date("2026-11-10T06:30:00Z"),
    slaResolvedAt: new Date("2026-11-10T02:32:00Z"),
    slaResolutionSeconds: 120,
    status: "closed",
    queueId: suporte,
    userId: b.id,
  });
  // A ticket of the day in a queue without targets: no clocks, not in the report.
  await make(10, "Sem metas", { status: "open", queueId: suporte, userId: b.id, createdAt: t(30) });

  // Company B (same day, UTC-3 too): one breached ticket, never in A's report.
  const other = await buildCompany(db, { name: "Empresa B" });
  otherQueue = (await buildQueue(db, other.id, { name: "Geral" })).id;
  const kaito = await buildUser(db, other.id, { profile: "admin", name: "Kaito" });
  otherAdmin = await login(ctx, kaito.email);
  const bContact = await buildContact(db, other.id, { name: "Cliente B" });
  await buildTicket(db, other.id, {
    contactId: bContact.id,
    ...clocks(5),
    status: "open",
    queueId: otherQueue,
    userId: kaito.id,
  });
});

afterAll(async () => {
  await ctx?.close();
});

const DAY = "dateFrom=2026-11-10&dateTo=2026-11-10";

async function report(query: string, who: LoggedIn = admin): Promise<SlaReport> {
  return expectOk<SlaReport>(await call("GET", `/reports/service-levels?${query}`, who));
}

function figures(
  counted: number,
  met: number,
  breached: number,
  running: number,
  metPercent: number | null,
  medianSeconds: number | null,
  p90Seconds: number | null,
): SlaTargetFigures {
  return { counted, met, breached, running, metPercent, medianSeconds, p90Seconds };
}

describe("GET /reports/service-levels: the figures", () => {
  it("counts each target per queue, per agent and in total, with medians and p90 of the working seconds", async () => {
    const r = await report(DAY);
    expect(r.range).toEqual({ from: "2026-11-10", to: "2026-11-10", timezone: "America/Sao_Paulo" });

    // First response: 1, 2, 5 met; 3, 4, 7 breached; 6 running; 8 not counted. 3 / 6 = 50 %.
    // Seconds (met or late): 300, 600, 1200, 2400, 3000: median 1200; p90 at 0.9 × 4 = 3.6:
    // 2400 + 0.6 × 600 = 2760.
    expect(r.total.firstResponse).toEqual(figures(7, 3, 3, 1, 50, 1200, 2760));
    // Resolution: 1, 2, 3, 8 met; 4, 7 breached; 5 (paused), 6 running. 4 / 6 = 66.7 %.
    // Seconds: 900, 7200, 10800, 12600, 21600: median 10800; p90 12600 + 0.6 × 9000 = 18000.
    expect(r.total.resolution).toEqual(figures(8, 4, 2, 2, 66.7, 10800, 18000));

    expect(r.queues).toEqual([
      {
        queue: { id: suporte, name: "Suporte", color: expect.any(String) },
        // 1, 2 met, 3, 4 breached; seconds 600, 1200, 2400: p90 at 1.8: 1200 + 0.8 × 1200 = 2160.
        firstResponse: figures(4, 2, 2, 0, 50, 1200, 2160),
        // 1, 2, 3 met, 4 breached; 7200, 10800, 12600: p90 10800 + 0.8 × 1800 = 12240.
        resolution: figures(4, 3, 1, 0, 75, 10800, 12240),
      },
      {
        queue: { id: vendas, name: "Vendas", color: expect.any(String) },
        // 5 met, 7 breached, 6 running; 300, 3000: median 1650, p90 300 + 0.9 × 2700 = 2730.
        firstResponse: figures(3, 1, 1, 1, 50, 1650, 2730),
        // 8 met, 7 breached, 5 and 6 running; 900, 21600: median 11250, p90 900 + 0.9 × 20700 = 19530.
        resolution: figures(4, 1, 1, 2, 50, 11250, 19530),
      },
    ]);

    expect(r.users).toEqual([
      // Ana: ticket 8 only: no first response counted.
      {
        user: { id: users.ana, name: "Ana" },
        firstResponse: figures(0, 0, 0, 0, null, null, null),
        resolution: figures(1, 1, 0, 0, 100, 900, 900),
      },
      // Bruno: 1, 2, 5. 300, 600, 1200: p90 600 + 0.8 × 600 = 1080; 7200, 12600: median 9900,
      // p90 7200 + 0.9 × 5400 = 12060.
      {
        user: { id: users.bruno, name: "Bruno" },
        firstResponse: figures(3, 3, 0, 0, 100, 600, 1080),
        resolution: figures(3, 2, 0, 1, 100, 9900, 12060),
      },
      // Carla: 3, 4, 7. 2400, 3000: median 2700, p90 2940; 10800, 21600: median 16200, p90 20520.
      {
        user: { id: users.carla, name: "Carla" },
        firstResponse: figures(3, 0, 3, 0, 0, 2700, 2940),
        resolution: figures(3, 1, 2, 0, 33.3, 16200, 20520),
      },
      // Nobody holds 6 yet.
      {
        user: null,
        firstResponse: figures(1, 0, 0, 1, null, null, null),
        resolution: figures(1, 0, 0, 1, null, null, null),
      },
    ]);
  });

  it("lists the breaches, latest due time first, paged, with the ticket's uuid to open it", async () => {
    const page1 = await report(`${DAY}&pageSize=2`);
    expect(page1.breachCount).toBe(5);
    expect(page1.hasMoreBreaches).toBe(true);
    expect(page1.breaches).toEqual([
      {
        ticketId: T[7]!.id,
        uuid: T[7]!.uuid,
        status: "closed",
        contact: { id: expect.any(Number), name: "Cliente 7" },
        queue: { id: vendas, name: "Vendas", color: expect.any(String) },
        user: { id: users.carla, name: "Carla" },
        target: "resolution",
        dueAt: t(247).toISOString(),
        reachedAt: t(367).toISOString(),
      },
      {
        ticketId: T[4]!.id,
        uuid: T[4]!.uuid,
        status: "open",
        contact: { id: expect.any(Number), name: "Cliente 4" },
        queue: { id: suporte, name: "Suporte", color: expect.any(String) },
        user: { id: users.carla, name: "Carla" },
        target: "resolution",
        dueAt: t(244).toISOString(),
        reachedAt: null,
      },
    ]);
    const page2 = await report(`${DAY}&pageSize=2&pageNumber=2`);
    expect(page2.breaches.map((b) => [b.ticketId, b.target, b.reachedAt])).toEqual([
      [T[7]!.id, "firstResponse", t(57).toISOString()],
      [T[4]!.id, "firstResponse", null],
    ]);
    const page3 = await report(`${DAY}&pageSize=2&pageNumber=3`);
    expect(page3.hasMoreBreaches).toBe(false);
    expect(page3.breaches.map((b) => [b.ticketId, b.target, b.reachedAt])).toEqual([
      [T[3]!.id, "firstResponse", t(43).toISOString()],
    ]);
  });
});

describe("GET /reports/service-levels: filters and the period", () => {
  it("narrows everything to the queues asked for", async () => {
    const r = await report(`${DAY}&queueIds=${vendas}`);
    expect(r.queues.map((q) => q.queue?.name)).toEqual(["Vendas"]);
    expect(r.total.firstResponse).toEqual(figures(3, 1, 1, 1, 50, 1650, 2730));
    expect(r.total.resolution).toEqual(figures(4, 1, 1, 2, 50, 11250, 19530));
    expect(r.breaches.map((b) => [b.ticketId, b.target])).toEqual([
      [T[7]!.id, "resolution"],
      [T[7]!.id, "firstResponse"],
    ]);
  });

  it("narrows everything to the agents asked for", async () => {
    const r = await report(`${DAY}&userIds=${users.carla}`);
    expect(r.users.map((u) => u.user?.name)).toEqual(["Carla"]);
    expect(r.total.resolution).toEqual(figures(3, 1, 2, 0, 33.3, 16200, 20520));
    expect(r.queues.map((q) => [q.queue?.name, q.firstResponse.counted])).toEqual([
      ["Suporte", 2],
      ["Vendas", 1],
    ]);
    expect(r.breachCount).toBe(5);
    const both = await report(`${DAY}&userIds=${users.bruno},${users.ana}&queueIds=${suporte}`);
    expect(both.total.firstResponse).toEqual(figures(2, 2, 0, 0, 100, 900, 1140));
    expect(both.breachCount).toBe(0);
  });

  it("takes the tickets whose clocks started within the company's calendar days", async () => {
    // Ticket 9 started at 23:30 on the 9th in São Paulo (02:30 UTC on the 10th).
    const dayBefore = await report("dateFrom=2026-11-09&dateTo=2026-11-09");
    expect(dayBefore.total.firstResponse).toEqual(figures(1, 1, 0, 0, 100, 60, 60));
    expect(dayBefore.total.resolution).toEqual(figures(1, 1, 0, 0, 100, 120, 120));
    const both = await report("dateFrom=2026-11-09&dateTo=2026-11-10");
    expect(both.total.firstResponse.counted).toBe(8);
    expect(both.total.resolution.counted).toBe(9);
    // The last 3 days (today 2026-11-12 included): the 10th to the 12th.
    const lastDays = await report("days=3");
    expect(lastDays.range).toMatchObject({ from: "2026-11-10", to: "2026-11-12" });
    expect(lastDays.total.firstResponse.counted).toBe(7);
    const empty = await report("dateFrom=2026-11-11&dateTo=2026-11-12");
    expect(empty.total.firstResponse).toEqual(figures(0, 0, 0, 0, null, null, null));
    expect(empty.queues).toEqual([]);
    expect(empty.users).toEqual([]);
    expect(empty.breaches).toEqual([]);
  });

  it("refuses an end before the start", async () => {
    const res = await call("GET", "/reports/service-levels?dateFrom=2026-11-10&dateTo=2026-11-09", admin);
    expect(fieldsOf(res)).toEqual({ dateTo: "O fim deve ser depois do início" });
  });
});

describe("GET /reports/service-levels: who sees what", () => {
  it("never counts another company's tickets, even when asked for its queue", async () => {
    const mine = await report(`${DAY}&queueIds=${otherQueue}`);
    expect(mine.total.firstResponse.counted).toBe(0);
    expect(mine.breachCount).toBe(0);
    // Company B's admin sees only B's ticket.
    const theirs = await report(DAY, otherAdmin);
    expect(theirs.total.firstResponse).toEqual(figures(1, 0, 1, 0, 0, null, null));
    expect(theirs.queues.map((q) => q.queue?.name)).toEqual(["Geral"]);
    expect(theirs.breaches.map((b) => b.contact.name)).toEqual(["Cliente B", "Cliente B"]);
  });

  it("refuses an agent, on the report and both exports", async () => {
    for (const path of ["", "/csv", "/xlsx"])
      expectError(
        await call("GET", `/reports/service-levels${path}?${DAY}`, bruno),
        403,
        "ERR_NO_PERMISSION",
      );
    expectError(await call("GET", `/reports/service-levels?${DAY}`, null), 401, "ERR_NO_SESSION");
  });
});

describe("GET /reports/service-levels/csv and /xlsx", () => {
  const FIGURES = [
    [
      "group",
      "name",
      "target",
      "counted",
      "met",
      "breached",
      "running",
      "met (%)",
      "median (min)",
      "p90 (min)",
    ],
    ["queue", "Suporte", "firstResponse", 4, 2, 2, 0, 50, 20, 36],
    ["queue", "Suporte", "resolution", 4, 3, 1, 0, 75, 180, 204],
    ["queue", "Vendas", "firstResponse", 3, 1, 1, 1, 50, 27.5, 45.5],
    ["queue", "Vendas", "resolution", 4, 1, 1, 2, 50, 187.5, 325.5],
    ["agent", "Ana", "firstResponse", 0, 0, 0, 0, "", "", ""],
    ["agent", "Ana", "resolution", 1, 1, 0, 0, 100, 15, 15],
    ["agent", "Bruno", "firstResponse", 3, 3, 0, 0, 100, 10, 18],
    ["agent", "Bruno", "resolution", 3, 2, 0, 1, 100, 165, 201],
    ["agent", "Carla", "firstResponse", 3, 0, 3, 0, 0, 45, 49],
    ["agent", "Carla", "resolution", 3, 1, 2, 0, 33.3, 270, 342],
    ["agent", "", "firstResponse", 1, 0, 0, 1, "", "", ""],
    ["agent", "", "resolution", 1, 0, 0, 1, "", "", ""],
    ["total", "", "firstResponse", 7, 3, 3, 1, 50, 20, 46],
    ["total", "", "resolution", 8, 4, 2, 2, 66.7, 180, 300],
  ];
  // Times in São Paulo: BASE is 09:00 there.
  const breaches = () => [
    ["ticket", "uuid", "status", "contact", "queue", "agent", "target", "dueAt", "reachedAt"],
    [
      T[7]!.id,
      T[7]!.uuid,
      "closed",
      "Cliente 7",
      "Vendas",
      "Carla",
      "resolution",
      "2026-11-10 13:07",
      "2026-11-10 15:07",
    ],
    [T[4]!.id, T[4]!.uuid, "open", "Cliente 4", "Suporte", "Carla", "resolution", "2026-11-10 13:04", ""],
    [
      T[7]!.id,
      T[7]!.uuid,
      "closed",
      "Cliente 7",
      "Vendas",
      "Carla",
      "firstResponse",
      "2026-11-10 09:37",
      "2026-11-10 09:57",
    ],
    [T[4]!.id, T[4]!.uuid, "open", "Cliente 4", "Suporte", "Carla", "firstResponse", "2026-11-10 09:34", ""],
    [
      T[3]!.id,
      T[3]!.uuid,
      "closed",
      "Cliente 3",
      "Suporte",
      "Carla",
      "firstResponse",
      "2026-11-10 09:33",
      "2026-11-10 09:43",
    ],
  ];

  it("writes the figures, a blank line and every breach as CSV", async () => {
    const res = await call("GET", `/reports/service-levels/csv?${DAY}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="niveis-de-servico-2026-11-10-2026-11-10.csv"',
    );
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const lines = res.body.slice(1).trimEnd().split("\r\n");
    expect(lines).toEqual([
      ...FIGURES.map((row) => row.join(",")),
      "",
      ...breaches().map((row) => row.join(",")),
    ]);
  });

  it("writes a workbook with a sheet of figures and a sheet of breaches", async () => {
    const res = await call("GET", `/reports/service-levels/xlsx?${DAY}&queueIds=${suporte},${vendas}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(res.headers["content-disposition"]).toBe(
      'attachment; filename="niveis-de-servico-2026-11-10-2026-11-10.xlsx"',
    );
    const book = XLSX.read(res.rawPayload, { type: "buffer" });
    expect(book.SheetNames).toEqual(["Service levels", "Breaches"]);
    const rows = (name: string) =>
      XLSX.utils.sheet_to_json<(string | number)[]>(book.Sheets[name]!, { header: 1, defval: "" });
    expect(rows("Service levels")).toEqual(FIGURES);
    expect(rows("Breaches")).toEqual(breaches());
  });
});
