import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type QueueDetailDTO,
  type SlaBreachEvent,
  TICKET_PAGE_SIZE,
  type TicketDTO,
  companyEvent,
  slaStateAt,
} from "@atende/contracts";
import { jobs } from "../../db/schema/index.js";
import { enqueueJob } from "../../jobs/runner.js";
import { expectOk, fieldsOf } from "../../test/calls.js";
import { type LoggedIn, newNumber, uid } from "../../test/factories.js";
import { connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { connectSimulator, phoneOpensTicket, phoneSends } from "../../test/channels.js";
import { type FakeDevice, type PushServiceFake, startPushService } from "../../test/fakes/pushService.js";
import {
  a,
  agentA,
  agentB,
  call,
  ctx,
  customerWrites,
  getTicket,
  insertTicket,
  listIds,
  queueA,
  queueB,
  rowOf,
  setupTicketsSuite,
  sockets,
  ticketOk,
  updateTicket,
} from "../tickets/testing.js";

/**
 * Service levels (issue 39) over HTTP: a queue's targets, the due times a ticket gets when it
 * enters the queue (round the clock, or in opening hours), the first response, the pause on the
 * customer and its resume, a transfer, the breach told once to the queue's agents and admins, and
 * the lists' "closest to breach first".
 */
setupTicketsSuite();

const MIN = 60_000;
const plus = (at: Date, minutes: number) => new Date(at.getTime() + minutes * MIN);
const iso = (at: Date) => at.toISOString();

/** Targets on a queue through the queue dialog's PUT (name and color as they are). */
async function setTargets(
  queue: { id: number; name: string; color: string },
  targets: Record<string, unknown>,
) {
  return expectOk<QueueDetailDTO>(
    await call("PUT", `/queue/${queue.id}`, a.adminLogin, {
      name: queue.name,
      color: queue.color,
      ...targets,
    }),
  );
}

/** A customer's new ticket (no queue) put into `queueId` by the admin's transfer at the clock's now. */
async function ticketInQueue(queueId: number) {
  const number = newNumber();
  const written = await customerWrites("preciso de ajuda", { number });
  const moved = ticketOk(await updateTicket(a.adminLogin, written.id, { queueId }));
  return { ...moved, number };
}

const customerSays = (number: string, body: string) =>
  phoneOpensTicket(ctx, a, { number, name: `Cliente ${uid()}`, body });

async function agentSays(who: LoggedIn, ticketId: number, body: string) {
  const res = await call("POST", `/messages/${ticketId}`, who, { body });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

async function slaOf(ticketId: number): Promise<TicketDTO["sla"]> {
  return ticketOk(await getTicket(a.adminLogin, ticketId)).sla;
}

describe("queue targets", () => {
  it("saves the four fields, keeps those left out, and refuses invalid ones field by field", async () => {
    const saved = await setTargets(queueB, {
      slaFirstResponseMinutes: 15,
      slaResolutionMinutes: 120,
      slaWarningPercent: 60,
      slaPauseOnCustomer: true,
    });
    expect(saved).toMatchObject({
      slaFirstResponseMinutes: 15,
      slaResolutionMinutes: 120,
      slaWarningPercent: 60,
      slaPauseOnCustomer: true,
    });
    // Left out: kept.
    expect(await setTargets(queueB, {})).toMatchObject({
      slaFirstResponseMinutes: 15,
      slaWarningPercent: 60,
    });
    // Empty: no target.
    const cleared = await setTargets(queueB, { slaFirstResponseMinutes: "", slaResolutionMinutes: null });
    expect(cleared).toMatchObject({ slaFirstResponseMinutes: null, slaResolutionMinutes: null });
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${queueB.id}`, a.adminLogin))).toMatchObject({
      slaFirstResponseMinutes: null,
      slaResolutionMinutes: null,
      slaWarningPercent: 60,
      slaPauseOnCustomer: true,
    });
    await setTargets(queueB, { slaWarningPercent: 80, slaPauseOnCustomer: false });

    const bad = await call("PUT", `/queue/${queueB.id}`, a.adminLogin, {
      name: queueB.name,
      color: queueB.color,
      slaFirstResponseMinutes: 0,
      slaResolutionMinutes: 1.5,
      slaWarningPercent: 100,
      slaPauseOnCustomer: "sim",
    });
    expect(fieldsOf(bad)).toEqual({
      slaFirstResponseMinutes: "Valor inválido",
      slaResolutionMinutes: "Valor inválido",
      slaWarningPercent: "Valor inválido",
      slaPauseOnCustomer: "Valor inválido",
    });

    // A new queue without them: no targets, warning at 80 %, no pause.
    const created = expectOk<QueueDetailDTO>(
      await call("POST", "/queue", a.adminLogin, { name: `Fila ${uid()}`, color: "#123abc" }),
      201,
    );
    expect(created).toMatchObject({
      slaFirstResponseMinutes: null,
      slaResolutionMinutes: null,
      slaWarningPercent: 80,
      slaPauseOnCustomer: false,
    });
  });
});

describe("a ticket's clocks", () => {
  it("start when it enters a queue with targets, restart on a transfer, and clear without targets", async () => {
    const t0 = new Date(Date.UTC(2026, 11, 2, 13, 0)); // a Wednesday, round the clock (no hours set)
    ctx.clock.now = t0;
    try {
      await setTargets(queueA, {
        slaFirstResponseMinutes: 30,
        slaResolutionMinutes: 240,
        slaWarningPercent: 50,
        slaPauseOnCustomer: false,
      });
      const written = await customerWrites("oi");
      expect(await slaOf(written.id)).toBeNull(); // no queue yet

      const moved = ticketOk(await updateTicket(a.adminLogin, written.id, { queueId: queueA.id }));
      expect(moved.sla).toEqual({
        running: "firstResponse",
        dueAt: iso(plus(t0, 30)),
        warnAt: iso(plus(t0, 15)),
        pausedAt: null,
        startedAt: iso(t0),
        firstResponseDueAt: iso(plus(t0, 30)),
        firstResponseAt: null,
        firstResponseBreachedAt: null,
        resolutionDueAt: iso(plus(t0, 240)),
        resolvedAt: null,
        resolutionBreachedAt: null,
      });
      expect(slaStateAt(moved.sla, plus(t0, 10))).toBe("ok");
      expect(slaStateAt(moved.sla, plus(t0, 20))).toBe("warning");
      // The list shows the same clocks.
      const listed = (await call("GET", "/tickets?status=pending", a.adminLogin)).json<{
        tickets: TicketDTO[];
      }>();
      expect(listed.tickets.find((t) => t.id === written.id)?.sla).toEqual(moved.sla);

      // To a queue without targets: no clocks.
      ctx.clock.now = plus(t0, 10);
      expect(ticketOk(await updateTicket(a.adminLogin, written.id, { queueId: queueB.id })).sla).toBeNull();
      expect(await rowOf(written.id)).toMatchObject({ slaStartedAt: null, slaDueAt: null });

      // Back to queue A: its targets start from the transfer.
      const t1 = plus(t0, 20);
      ctx.clock.now = t1;
      const back = ticketOk(await updateTicket(a.adminLogin, written.id, { queueId: queueA.id }));
      expect(back.sla).toMatchObject({
        startedAt: iso(t1),
        firstResponseDueAt: iso(plus(t1, 30)),
        resolutionDueAt: iso(plus(t1, 240)),
      });
    } finally {
      ctx.clock.real();
    }
  });

  it("meets the first response, stands while waiting on the customer, resumes, resolves and reopens fresh", async () => {
    const t0 = new Date(Date.UTC(2026, 11, 9, 13, 0));
    ctx.clock.now = t0;
    try {
      await setTargets(queueA, {
        slaFirstResponseMinutes: 30,
        slaResolutionMinutes: 240,
        slaWarningPercent: 50,
        slaPauseOnCustomer: true,
      });
      const ticket = await ticketInQueue(queueA.id);
      ctx.clock.now = plus(t0, 5);
      ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open", userId: agentA.id }));

      // The agent's first reply at +10: met in 600 working seconds; the resolution clock stands.
      ctx.clock.now = plus(t0, 10);
      await agentSays(agentA.login, ticket.id, "Olá! Pode me mandar o número do pedido?");
      const paused = await slaOf(ticket.id);
      expect(paused).toMatchObject({
        running: null,
        dueAt: null,
        warnAt: null,
        pausedAt: iso(plus(t0, 10)),
        firstResponseAt: iso(plus(t0, 10)),
        resolutionDueAt: iso(plus(t0, 240)),
      });
      expect(slaStateAt(paused, plus(t0, 11))).toBe("paused");
      expect(await rowOf(ticket.id)).toMatchObject({ slaFirstResponseSeconds: 600 });

      // The customer answers at +70: the clock runs again, its due time 60 minutes later.
      ctx.clock.now = plus(t0, 70);
      await customerSays(ticket.number, "É o 4521");
      await waitFor(async () => (await slaOf(ticket.id))?.pausedAt === null);
      expect(await slaOf(ticket.id)).toMatchObject({
        running: "resolution",
        dueAt: iso(plus(t0, 300)),
        resolutionDueAt: iso(plus(t0, 300)),
        // 50 % of 240 from the start (+120), moved by the 60 minutes it stood.
        warnAt: iso(plus(t0, 180)),
      });

      // Resolved at +100: 100 minutes since the start, less the 60 it stood.
      ctx.clock.now = plus(t0, 100);
      const closed = ticketOk(await updateTicket(agentA.login, ticket.id, { status: "closed" }));
      expect(closed.sla).toMatchObject({ running: null, dueAt: null, resolvedAt: iso(plus(t0, 100)) });
      expect(slaStateAt(closed.sla, plus(t0, 101))).toBe("met");
      expect(await rowOf(ticket.id)).toMatchObject({ slaResolutionSeconds: 40 * 60 });

      // Reopened at +200: fresh clocks from then.
      const t2 = plus(t0, 200);
      ctx.clock.now = t2;
      const reopened = ticketOk(await updateTicket(agentA.login, ticket.id, { status: "open" }));
      expect(reopened.sla).toMatchObject({
        startedAt: iso(t2),
        firstResponseAt: null,
        resolvedAt: null,
        dueAt: iso(plus(t2, 30)),
        running: "firstResponse",
      });
      ticketOk(await updateTicket(agentA.login, ticket.id, { status: "closed" }));
    } finally {
      ctx.clock.real();
      await setTargets(queueA, { slaPauseOnCustomer: false });
    }
  });

  it("counts only opening hours when the company uses the queues' hours", async () => {
    const setting = (value: string) =>
      call("PUT", "/settings/scheduleType", a.adminLogin, { key: "scheduleType", value });
    expect((await setting("queue")).statusCode).toBe(200);
    try {
      await setTargets(queueA, {
        slaFirstResponseMinutes: 30,
        slaResolutionMinutes: 240,
        slaWarningPercent: 50,
      });
      // Inside hours: Wednesday 10:00 in São Paulo (13:00Z), the queue's default Mon-Fri 08-18, Sat 08-12.
      ctx.clock.now = new Date("2026-12-02T13:00:00Z");
      const inside = await ticketInQueue(queueA.id);
      expect(inside.sla).toMatchObject({
        firstResponseDueAt: "2026-12-02T13:30:00.000Z",
        resolutionDueAt: "2026-12-02T17:00:00.000Z",
      });
      // Friday 17:45: 15 minutes on Friday, the rest on Saturday morning (Sunday is closed anyway).
      ctx.clock.now = new Date("2026-12-04T20:45:00Z");
      const late = await ticketInQueue(queueA.id);
      expect(late.sla).toMatchObject({
        firstResponseDueAt: "2026-12-05T11:15:00.000Z", // Saturday 08:15
        resolutionDueAt: "2026-12-05T14:45:00.000Z", // Saturday 11:45
        warnAt: "2026-12-04T21:00:00.000Z", // 15 of 30 minutes: Friday's close
      });
      // Saturday night: nothing counts until Monday 08:00.
      ctx.clock.now = new Date("2026-12-06T01:00:00Z");
      const night = await ticketInQueue(queueA.id);
      expect(night.sla?.firstResponseDueAt).toBe("2026-12-07T11:30:00.000Z");
      for (const t of [inside, late, night])
        ticketOk(await updateTicket(a.adminLogin, t.id, { status: "closed" }));
    } finally {
      ctx.clock.real();
      expect((await setting("disabled")).statusCode).toBe(200);
    }
  });
});

describe("breach", () => {
  let pushService: PushServiceFake;
  let devices: { admin: FakeDevice; ana: FakeDevice; bia: FakeDevice };
  beforeAll(async () => {
    pushService = await startPushService();
    devices = { admin: pushService.device(), ana: pushService.device(), bia: pushService.device() };
    const register = async (who: LoggedIn, device: FakeDevice, language: string) =>
      expectOk(await call("PUT", "/push/subscription", who, { ...device.subscription, language }), 204);
    await register(a.adminLogin, devices.admin, "pt");
    await register(agentA.login, devices.ana, "en");
    await register(agentB.login, devices.bia, "es");
  });
  afterAll(() => pushService.close());
  const slaPushes = (device: FakeDevice) =>
    device.received.filter((p) => p.payload.tag.startsWith("ticket-sla-"));

  it("is told once, to the queue's agents and the admins, never on a due time moved", async () => {
    const url = await ctx.url();
    const listen = async (who: LoggedIn) => {
      const socket = await connectSocket(url, who.token);
      sockets.push(socket);
      return socket;
    };
    const [admin, inQueue, otherQueue] = await Promise.all([
      listen(a.adminLogin),
      listen(agentA.login),
      listen(agentB.login),
    ]);
    const event = companyEvent(a.company.id, "ticketSla");
    const heard = (s: Socket) => record<SlaBreachEvent>(s, event);
    const [toAdmin, toAgent, toOther] = [heard(admin), heard(inQueue), heard(otherQueue)];

    const t0 = new Date(Date.now() + 24 * 3600_000);
    ctx.clock.now = t0;
    try {
      await setTargets(queueA, {
        slaFirstResponseMinutes: 30,
        slaResolutionMinutes: null,
        slaWarningPercent: 50,
      });
      const late = await ticketInQueue(queueA.id);
      // A second ticket whose due time moves: out to queue B and back at +20 (due +50 instead of +30).
      const moved = await ticketInQueue(queueA.id);
      ctx.clock.now = plus(t0, 10);
      ticketOk(await updateTicket(a.adminLogin, moved.id, { queueId: queueB.id }));
      ctx.clock.now = plus(t0, 20);
      ticketOk(await updateTicket(a.adminLogin, moved.id, { queueId: queueA.id }));

      // +31: the late ticket's first response is past due; the old job of the moved one finds nothing.
      ctx.clock.now = plus(t0, 31);
      await waitFor(() => toAdmin.length >= 1 && toAgent.length >= 1);
      const told = {
        action: "breach",
        ticketId: late.id,
        ticketUuid: late.uuid,
        queueId: queueA.id,
        target: "firstResponse",
        dueAt: iso(plus(t0, 30)),
        contactName: late.contact.name,
      };
      expect(toAdmin).toEqual([told]);
      expect(toAgent).toEqual([told]);
      const breached = await slaOf(late.id);
      expect(breached?.firstResponseBreachedAt).toBe(iso(plus(t0, 31)));
      expect(slaStateAt(breached, plus(t0, 31))).toBe("breached");
      const dueJobs = (ticketId: number) =>
        ctx.deps.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.type, "sla-breach"), eq(jobs.companyId, a.company.id)))
          .then((rows) => rows.filter((j) => (j.payload as { ticketId: number }).ticketId === ticketId));
      await waitFor(async () => (await dueJobs(moved.id)).some((j) => j.status === "done"));
      expect((await slaOf(moved.id))?.firstResponseBreachedAt).toBeNull();

      // The same job again, on this instance and on a second one of the same database: nothing more.
      const again = { ticketId: late.id, target: "firstResponse" as const, dueAt: iso(plus(t0, 30)) };
      await enqueueJob(ctx.deps.db, { type: "sla-breach", companyId: a.company.id, payload: again });
      const second = await createTestContext({}, { database: ctx.deps.database });
      try {
        second.clock.now = plus(t0, 32);
        second.built.startBackground();
        await enqueueJob(ctx.deps.db, { type: "sla-breach", companyId: a.company.id, payload: again });
        await waitFor(async () => (await dueJobs(late.id)).every((j) => j.status === "done"));
        expect((await dueJobs(late.id)).length).toBeGreaterThanOrEqual(3);
      } finally {
        await second.close();
      }
      // A queue change every socket hears after anything the jobs could have told.
      const queueHeard = [admin, inQueue, otherQueue].map((s) =>
        record(s, companyEvent(a.company.id, "queue")),
      );
      await setTargets(queueB, {});
      await waitFor(() => queueHeard.every((list) => list.length >= 1));
      expect(toAdmin).toHaveLength(1);
      expect(toAgent).toHaveLength(1);
      expect(toOther).toEqual([]);
      // Web Push too, in each device's language, to the same people, once.
      await ctx.built.push.settled();
      expect(slaPushes(devices.admin).map((p) => p.payload)).toEqual([
        {
          title: `Prazo de primeira resposta estourado em ${queueA.name}`,
          body: late.contact.name,
          url: `/tickets/${late.uuid}`,
          tag: `ticket-sla-${late.uuid}`,
          key: `sla-${late.id}-firstResponse-${iso(plus(t0, 30))}`,
          lang: "pt",
        },
      ]);
      expect(slaPushes(devices.ana).map((p) => p.payload.title)).toEqual([
        `First response target missed in ${queueA.name}`,
      ]);
      expect(slaPushes(devices.bia)).toEqual([]);

      // The late reply is recorded as missed: 40 working minutes against 30.
      ctx.clock.now = plus(t0, 40);
      ticketOk(await updateTicket(agentA.login, late.id, { status: "open", userId: agentA.id }));
      await agentSays(agentA.login, late.id, "Desculpe a demora!");
      expect(await rowOf(late.id)).toMatchObject({ slaFirstResponseSeconds: 40 * 60 });
      expect(slaStateAt(await slaOf(late.id), plus(t0, 41))).toBe("breached");
      for (const t of [late, moved]) ticketOk(await updateTicket(a.adminLogin, t.id, { status: "closed" }));
    } finally {
      ctx.clock.real();
    }
  });
});

describe("a ticket opened in the connection's only queue", () => {
  it("gets its clocks from the inbound pipeline as it opens", async () => {
    const t0 = new Date(Date.now() + 72 * 3600_000);
    ctx.clock.now = t0;
    try {
      await setTargets(queueA, {
        slaFirstResponseMinutes: 20,
        slaResolutionMinutes: 60,
        slaWarningPercent: 50,
      });
      const only = await connectSimulator(ctx, a.adminLogin, { queueIds: [queueA.id], greetingMessage: "" });
      const number = newNumber();
      const res = await phoneSends(ctx, a.adminLogin, only.id, { from: number, name: "Dora", body: "oi" });
      expect(res.statusCode, res.body).toBe(201);
      const page = await call("GET", "/tickets?status=pending", agentA.login);
      const opened = page.json<{ tickets: TicketDTO[] }>().tickets.find((t) => t.contact.number === number);
      expect(opened).toMatchObject({ queueId: queueA.id });
      expect(opened!.sla).toMatchObject({
        startedAt: iso(t0),
        firstResponseDueAt: iso(plus(t0, 20)),
        resolutionDueAt: iso(plus(t0, 60)),
        running: "firstResponse",
      });
      ticketOk(await updateTicket(a.adminLogin, opened!.id, { status: "closed" }));
    } finally {
      ctx.clock.real();
    }
  });
});

describe("closest to breach first", () => {
  it("lists running clocks by due time, then the usual order, page by page, within the viewer's queues", async () => {
    const base = new Date(Date.now() + 48 * 3600_000);
    const company = a.company.id;
    // Some tickets of the waiting tab with running clocks (due in reverse order of making), more
    // without, past one page together; another queue's ticket with a clock too.
    const running: number[] = [];
    for (let i = 0; i < 25; i++) {
      const { ticket } = await insertTicket(company, {
        queueId: queueA.id,
        whatsappId: a.connection.id,
        slaStartedAt: base,
        slaDueAt: plus(base, 100 - i),
        updatedAt: plus(base, -i),
      });
      running.unshift(ticket.id);
    }
    const plain: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { ticket } = await insertTicket(company, {
        queueId: queueA.id,
        whatsappId: a.connection.id,
        updatedAt: plus(base, 1000 - i),
      });
      plain.push(ticket.id);
    }
    const { ticket: elsewhere } = await insertTicket(company, {
      queueId: queueB.id,
      whatsappId: a.connection.id,
      slaStartedAt: base,
      slaDueAt: plus(base, -5),
    });
    const ours = new Set([...running, ...plain, elsewhere.id]);
    const page = async (who: LoggedIn, n: number) =>
      (await listIds(who, { status: "pending", orderBy: "slaDue", pageNumber: n })).filter((id) =>
        ours.has(id),
      );

    // The agent of queue A: their queue's tickets only; running first by due time, then newest first.
    const seen = [...(await page(agentA.login, 1)), ...(await page(agentA.login, 2))];
    expect(seen).toEqual([...running, ...plain]);
    const first = await listIds(agentA.login, { status: "pending", orderBy: "slaDue", pageNumber: 1 });
    expect(first).toHaveLength(TICKET_PAGE_SIZE);
    // The admin sees queue B's too, first (its due time is the earliest).
    expect((await page(a.adminLogin, 1))[0]).toBe(elsewhere.id);
    // An agent of queue B never sees queue A's.
    expect(await page(agentB.login, 1)).toEqual([elsewhere.id]);
  });
});
