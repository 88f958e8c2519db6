import { and, eq } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CompanyEventPayloads,
  MessagesPage,
  ScheduleDTO,
  SchedulesPage,
  SimulatorPhoneMessage,
} from "@atende/contracts";
import { messages, plans, schedules, simulatorMessages, ticketTracking } from "../../db/schema/index.js";
import { enqueueJob } from "../../jobs/runner.js";
import { TINY_PNG, caller, expectError, expectOk, fieldsOf, fileForm } from "../../test/calls.js";
import { buildSimulatorCompany, connectSimulator } from "../../test/channels.js";
import { jobsIdle } from "../../test/settled.js";
import {
  type LoggedIn,
  buildCompany,
  login,
  type Member,
  uid,
  newNumber,
  buildMember,
  buildContact,
} from "../../test/factories.js";
import {
  type TestContext,
  connectSocket,
  createTestContext,
  openTestDatabase,
  record,
  waitFor,
} from "../../test/harness.js";
import { SEND_SCHEDULE_JOB } from "./queries.js";

/**
 * Scheduled messages on a real database, sent for real through a simulator connection: the form's
 * rules ('Obrigatório', 'Mensagem muito curta'), the list and the calendar's range, who may change
 * what, the useSchedules plan flag, tenant isolation and the live channel; and the durable job: sent
 * once at its time to the contact's phone and into the ticket, read-only afterwards, sent after a
 * restart that skipped its time, never twice with two instances, ERRO with a reason when the
 * connection is down.
 */

const CONFIG = { LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 };
let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let ana: Member;
let aldo: Member;
let supervisor: Member;
let adminB: Member;
const sockets: Socket[] = [];
let current: () => TestContext = () => ctx;
const call = caller(() => current());

const newContact = (on: TestContext, companyId: number, name = `Cliente ${uid()}`) =>
  buildContact(on.deps.db, companyId, { name, number: newNumber(60_000_000) });

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

async function schedule(who: LoggedIn, body: Record<string, unknown>): Promise<ScheduleDTO> {
  return expectOk<ScheduleDTO>(await call("POST", "/schedules", who, body), 201);
}
const getSchedule = async (who: LoggedIn, id: number) =>
  expectOk<ScheduleDTO>(await call("GET", `/schedules/${id}`, who));

/** Waits for the schedule to reach a settled status (ENVIADA or ERRO) and answers it. */
async function settled(who: LoggedIn, id: number, timeoutMs = 15_000): Promise<ScheduleDTO> {
  let last: ScheduleDTO | null = null;
  await waitFor(async () => {
    last = await getSchedule(who, id);
    return last.status === "ENVIADA" || last.status === "ERRO";
  }, timeoutMs);
  return last!;
}

/** What the contact's phone received through the simulator. */
async function phoneGot(who: LoggedIn, whatsappId: number, number: string) {
  const list = expectOk<SimulatorPhoneMessage[]>(
    await call("GET", `/simulator/${whatsappId}/messages?number=${number}`, who),
  );
  return list.filter((m) => m.direction === "in" || m.direction === "out");
}

beforeAll(async () => {
  ctx = await createTestContext(CONFIG);
  ctx.built.startBackground();
  a = await buildSimulatorCompany(ctx);
  ana = await buildMember(ctx, a.company.id, { name: "Ana", queueIds: [a.queues[0]!.id] });
  aldo = await buildMember(ctx, a.company.id, { name: "Aldo", queueIds: [a.queues[0]!.id] });
  supervisor = await buildMember(ctx, a.company.id, { name: "Sara", profile: "supervisor" });
  const companyB = await buildCompany(ctx.deps.db);
  adminB = await buildMember(ctx, companyB.id, { profile: "admin" });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

describe("schedules: validation", () => {
  it("answers the form's texts: body 'Obrigatório' / 'Mensagem muito curta', contact and send time 'Obrigatório'", async () => {
    const contact = await newContact(ctx, a.company.id);
    const ok = { body: "Olá, tudo bem?", contactId: contact.id, sendAt: inSeconds(3600) };
    for (const [patch, field, text] of [
      [{ body: undefined }, "body", "Obrigatório"],
      [{ body: "   " }, "body", "Obrigatório"],
      [{ body: "abcd" }, "body", "Mensagem muito curta"],
      [{ body: " abcd " }, "body", "Mensagem muito curta"],
      [{ contactId: undefined }, "contactId", "Obrigatório"],
      [{ contactId: "" }, "contactId", "Obrigatório"],
      [{ sendAt: undefined }, "sendAt", "Obrigatório"],
      [{ sendAt: "" }, "sendAt", "Obrigatório"],
      [{ sendAt: "amanhã" }, "sendAt", "Valor inválido"],
      [{ sendAt: "2030-13-01T10:00" }, "sendAt", "Valor inválido"],
      [{ whatsappId: "x" }, "whatsappId", "Valor inválido"],
    ] as const) {
      const res = await call("POST", "/schedules", ana.login, { ...ok, ...patch });
      expect(fieldsOf(res)[field], JSON.stringify(patch)).toBe(text);
    }
    const english = await call(
      "POST",
      "/schedules",
      ana.login,
      { ...ok, body: "abc" },
      { "accept-language": "en" },
    );
    expect(fieldsOf(english).body).toBe("Message too short");

    // Another company's contact or connection is not found; nothing was written.
    const other = await newContact(ctx, adminB.companyId);
    expectError(
      await call("POST", "/schedules", ana.login, { ...ok, contactId: other.id }),
      404,
      "ERR_NO_CONTACT_FOUND",
    );
    const [count] = await ctx.deps.db.select().from(schedules).where(eq(schedules.contactId, contact.id));
    expect(count).toBeUndefined();

    const created = await schedule(ana.login, ok);
    expect(fieldsOf(await call("PUT", `/schedules/${created.id}`, ana.login, { body: "oi" })).body).toBe(
      "Mensagem muito curta",
    );
  });

  it("reads a send time without a zone in the company's time zone (America/Sao_Paulo)", async () => {
    const contact = await newContact(ctx, a.company.id);
    const local = await schedule(ana.login, {
      body: "Lembrete da consulta",
      contactId: contact.id,
      sendAt: "2030-01-15T10:00",
    });
    expect(local.sendAt).toBe("2030-01-15T13:00:00.000Z");
    const zoned = await schedule(ana.login, {
      body: "Lembrete da consulta",
      contactId: contact.id,
      sendAt: "2030-01-15T10:00:00+01:00",
    });
    expect(zoned.sendAt).toBe("2030-01-15T09:00:00.000Z");
  });
});

describe("schedules: create, read, list, edit, delete", () => {
  it("creates a PENDENTE schedule with its contact, author and connection; edits and deletes it", async () => {
    const contact = await newContact(ctx, a.company.id, "Maria Agenda");
    const sendAt = new Date(Date.now() + 3600_000);
    const created = await schedule(ana.login, {
      body: "  Sua consulta é amanhã  ",
      contactId: String(contact.id),
      sendAt: sendAt.toISOString(),
      whatsappId: a.connection.id,
    });
    expect(created).toEqual({
      id: expect.any(Number),
      body: "Sua consulta é amanhã",
      contactId: contact.id,
      contact: { id: contact.id, name: "Maria Agenda", number: contact.number, profilePicUrl: "" },
      userId: ana.id,
      user: { id: ana.id, name: "Ana" },
      whatsappId: a.connection.id,
      whatsapp: { id: a.connection.id, name: a.connection.name },
      sendAt: sendAt.toISOString(),
      sentAt: null,
      status: "PENDENTE",
      error: null,
      ticket: null,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(await getSchedule(aldo.login, created.id)).toEqual(created);

    const edited = expectOk<ScheduleDTO>(
      await call("PUT", `/schedules/${created.id}`, ana.login, {
        body: "Sua consulta é hoje",
        whatsappId: null,
      }),
    );
    expect(edited).toMatchObject({
      body: "Sua consulta é hoje",
      whatsappId: null,
      whatsapp: null,
      status: "PENDENTE",
    });

    expectOk(await call("DELETE", `/schedules/${created.id}`, ana.login), 204);
    expectError(await call("GET", `/schedules/${created.id}`, ana.login), 404, "ERR_NO_SCHEDULE_FOUND");
    expectError(await call("DELETE", `/schedules/${created.id}`, ana.login), 404, "ERR_NO_SCHEDULE_FOUND");
  });

  it("lists by send time, latest first, 20 a page, searching contact and text; a month at once for the calendar", async () => {
    const tag = `lst${uid()}`;
    const contact = await newContact(ctx, a.company.id, `Pessoa ${tag}`);
    const base = Date.UTC(2031, 4, 1, 12);
    for (let i = 0; i < 25; i++)
      await schedule(ana.login, {
        body: `Mensagem ${i} ${i === 3 ? "PROMOÇÃO" : ""}`,
        contactId: contact.id,
        sendAt: new Date(base + i * 86_400_000).toISOString(),
      });
    const first = expectOk<SchedulesPage>(await call("GET", `/schedules?searchParam=${tag}`, ana.login));
    expect(first).toMatchObject({ count: 25, hasMore: true });
    expect(first.schedules).toHaveLength(20);
    expect(first.schedules[0]!.body).toBe("Mensagem 24");
    const second = expectOk<SchedulesPage>(
      await call("GET", `/schedules?searchParam=${tag}&pageNumber=2`, ana.login),
    );
    expect(second).toMatchObject({ count: 25, hasMore: false });
    expect(second.schedules.at(-1)!.body).toBe("Mensagem 0");
    const byText = expectOk<SchedulesPage>(await call("GET", "/schedules?searchParam=promoção", ana.login));
    expect(byText.schedules.map((s) => s.contactId)).toContain(contact.id);

    // The calendar: May 2031 from the 10th to the 20th, in time order, not paged.
    const range = expectOk<SchedulesPage>(
      await call(
        "GET",
        `/schedules?contactId=${contact.id}&from=2031-05-10T00:00:00Z&to=2031-05-20T00:00:00Z`,
        ana.login,
      ),
    );
    expect(range.schedules.map((s) => s.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Mensagem ${i + 9}`),
    );
    expect(range.hasMore).toBe(false);
    expect(fieldsOf(await call("GET", "/schedules?from=ontem", ana.login))).toHaveProperty("from");
  });

  it("lets the author, admin and supervisor change a schedule; another agent may not", async () => {
    const contact = await newContact(ctx, a.company.id);
    const mine = await schedule(ana.login, {
      body: "Mensagem da Ana",
      contactId: contact.id,
      sendAt: inSeconds(3600),
    });
    expectError(
      await call("PUT", `/schedules/${mine.id}`, aldo.login, { body: "Mensagem do Aldo" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await call("DELETE", `/schedules/${mine.id}`, aldo.login), 403, "ERR_NO_PERMISSION");
    expect(
      expectOk<ScheduleDTO>(
        await call("PUT", `/schedules/${mine.id}`, supervisor.login, { body: "Revisada pela Sara" }),
      ).body,
    ).toBe("Revisada pela Sara");
    expectOk(await call("DELETE", `/schedules/${mine.id}`, a.adminLogin), 204);
  });

  it("stops at the plan's schedule limit, and is refused on a plan without schedules", async () => {
    const company = await buildCompany(ctx.deps.db);
    const boss = await buildMember(ctx, company.id, { profile: "admin" });
    const contact = await newContact(ctx, company.id);
    await ctx.deps.db.update(plans).set({ schedules: 1 }).where(eq(plans.id, company.planId!));
    const first = await schedule(boss.login, {
      body: "Primeira mensagem",
      contactId: contact.id,
      sendAt: inSeconds(3600),
    });
    expectError(
      await call("POST", "/schedules", boss.login, {
        body: "Segunda mensagem",
        contactId: contact.id,
        sendAt: inSeconds(3600),
      }),
      403,
      "ERR_PLAN_SCHEDULE_LIMIT",
    );
    await ctx.deps.db.update(plans).set({ useSchedules: false }).where(eq(plans.id, company.planId!));
    for (const [method, url] of [
      ["GET", "/schedules"],
      ["GET", `/schedules/${first.id}`],
      ["PUT", `/schedules/${first.id}`],
      ["DELETE", `/schedules/${first.id}`],
      ["POST", "/schedules"],
    ] as const)
      expectError(
        await call(
          method,
          url,
          boss.login,
          method === "PUT" || method === "POST"
            ? { body: "Outra mensagem", contactId: contact.id, sendAt: inSeconds(60) }
            : undefined,
        ),
        403,
        "ERR_PLAN_FEATURE_DISABLED",
      );
  });

  it("answers 404 across companies and never lists another company's schedule", async () => {
    const contact = await newContact(ctx, a.company.id);
    const mine = await schedule(ana.login, {
      body: "Só da empresa A",
      contactId: contact.id,
      sendAt: inSeconds(3600),
    });
    for (const [method, url] of [
      ["GET", `/schedules/${mine.id}`],
      ["PUT", `/schedules/${mine.id}`],
      ["DELETE", `/schedules/${mine.id}`],
      ["DELETE", `/schedules/${mine.id}/media-upload`],
    ] as const)
      expectError(
        await call(method, url, adminB.login, method === "PUT" ? { body: "invadida" } : undefined),
        404,
        "ERR_NO_SCHEDULE_FOUND",
      );
    const listed = expectOk<SchedulesPage>(await call("GET", "/schedules?searchParam=empresa", adminB.login));
    expect(listed.schedules.map((s) => s.id)).not.toContain(mine.id);
    expectError(
      await call("POST", "/schedules", ana.login, {
        body: "Por outra conexão",
        contactId: contact.id,
        sendAt: inSeconds(60),
        whatsappId: 2_000_000_000,
      }),
      404,
      "ERR_NO_WAPP_FOUND",
    );
  });
});

describe("schedules: sending", () => {
  it("sends at its time to the contact's phone and into the ticket, once; then it is read-only", async () => {
    const contact = await newContact(ctx, a.company.id, "Paula Envio");
    const body = `Lembrete ${uid()}`;
    const sendAt = inSeconds(2);
    const created = await schedule(ana.login, {
      body,
      contactId: contact.id,
      sendAt,
      whatsappId: a.connection.id,
    });
    expect((await phoneGot(a.adminLogin, a.connection.id, contact.number)).length).toBe(0);

    const sent = await settled(ana.login, created.id);
    expect(sent).toMatchObject({ status: "ENVIADA", error: null, ticket: { id: expect.any(Number) } });
    expect(Date.parse(sent.sentAt!)).toBeGreaterThanOrEqual(Date.parse(sendAt));
    expect(Date.parse(sent.sentAt!) - Date.parse(sendAt)).toBeLessThan(5_000);

    const got = await phoneGot(a.adminLogin, a.connection.id, contact.number);
    expect(got.map((m) => m.body)).toEqual([body]);
    const history = expectOk<MessagesPage>(await call("GET", `/messages/${sent.ticket!.id}`, ana.login));
    expect(history.messages.map((m) => [m.body, m.fromMe, m.userId])).toEqual([[body, true, ana.id]]);
    // The ticket was opened for the author, who finds it in their list; the reports count it as
    // accepted by them, as a ticket an agent starts.
    expect(history.ticket).toMatchObject({ status: "open", userId: ana.id, contactId: contact.id });
    const tracked = await ctx.deps.db
      .select({ userId: ticketTracking.userId, acceptedAt: ticketTracking.acceptedAt })
      .from(ticketTracking)
      .where(eq(ticketTracking.ticketId, sent.ticket!.id));
    expect(tracked).toEqual([{ userId: ana.id, acceptedAt: expect.any(Date) }]);

    expectError(
      await call("PUT", `/schedules/${created.id}`, ana.login, { body: "Tarde demais" }),
      409,
      "ERR_SCHEDULE_ALREADY_SENT",
    );
    const form = fileForm(TINY_PNG, "foto.png", "image/png");
    expectError(
      await call("POST", `/schedules/${created.id}/media-upload`, ana.login, form.payload, form.headers),
      409,
      "ERR_SCHEDULE_ALREADY_SENT",
    );
    // Everything due has run (the send, its settling): a second send would show now.
    await jobsIdle(ctx, a.company.id);
    expect((await phoneGot(a.adminLogin, a.connection.id, contact.number)).length).toBe(1);
  });

  it("sends into the contact's open ticket with its png attachment; refuses other files", async () => {
    const contact = await newContact(ctx, a.company.id);
    const first = await schedule(ana.login, {
      body: "Primeiro contato",
      contactId: contact.id,
      sendAt: inSeconds(0),
    });
    const firstSent = await settled(ana.login, first.id);
    const second = await schedule(ana.login, {
      body: "Veja a imagem",
      contactId: contact.id,
      sendAt: inSeconds(3600),
    });
    const text = fileForm(Buffer.from("não sou imagem"), "nota.txt", "text/plain");
    expect(
      fieldsOf(
        await call("POST", `/schedules/${second.id}/media-upload`, ana.login, text.payload, text.headers),
      ).file,
    ).toBe("Envie uma imagem png, jpg ou jpeg");
    const png = fileForm(TINY_PNG, "minha foto.png", "image/png");
    const withImage = expectOk<ScheduleDTO>(
      await call("POST", `/schedules/${second.id}/media-upload`, ana.login, png.payload, png.headers),
    );
    expect(withImage).toMatchObject({
      mediaName: "minha_foto.png",
      mediaUrl: expect.stringMatching(/^\/media\/\d+\/.+\.png$/),
    });
    expectOk(await call("PUT", `/schedules/${second.id}`, ana.login, { sendAt: inSeconds(0) }));
    const secondSent = await settled(ana.login, second.id);
    expect(secondSent.status).toBe("ENVIADA");
    expect(secondSent.ticket!.id).toBe(firstSent.ticket!.id);
    const got = await phoneGot(a.adminLogin, a.connection.id, contact.number);
    expect(got.at(-1)).toMatchObject({ body: "Veja a imagem", media: { mimetype: "image/png" } });
  });

  it("fails with ERRO and the reason when the connection is down; saved again through a live one, it is sent", async () => {
    const second = await connectSimulator(ctx, a.adminLogin);
    expectOk(await call("DELETE", `/whatsappsession/${second.id}`, a.adminLogin), 204);
    await waitFor(async () => {
      const res = await call("GET", `/whatsapp/${second.id}`, a.adminLogin);
      return res.json<{ status: string }>().status === "DISCONNECTED";
    }, 5_000);
    const contact = await newContact(ctx, a.company.id);
    const created = await schedule(ana.login, {
      body: "Pela conexão caída",
      contactId: contact.id,
      sendAt: inSeconds(0),
      whatsappId: second.id,
    });
    const failed = await settled(ana.login, created.id);
    expect(failed).toMatchObject({
      status: "ERRO",
      sentAt: null,
      error: "ERR_SCHEDULE_CONNECTION_DOWN: DISCONNECTED",
      ticket: null,
    });
    expect(await phoneGot(a.adminLogin, second.id, contact.number)).toEqual([]);

    const retried = expectOk<ScheduleDTO>(
      await call("PUT", `/schedules/${created.id}`, ana.login, { whatsappId: a.connection.id }),
    );
    expect(retried).toMatchObject({ status: "PENDENTE", error: null });
    expect(await settled(ana.login, created.id)).toMatchObject({ status: "ENVIADA" });
    expect((await phoneGot(a.adminLogin, a.connection.id, contact.number)).map((m) => m.body)).toEqual([
      "Pela conexão caída",
    ]);
  });

  it("tells the company's sockets as it goes: created, handed over, sent, deleted", async () => {
    const url = await ctx.url();
    const [agentSocket, otherSocket] = await Promise.all([
      connectSocket(url, aldo.login.token),
      connectSocket(url, adminB.login.token),
    ]);
    sockets.push(agentSocket, otherSocket);
    const heard = record<CompanyEventPayloads["schedule"]>(agentSocket, `company-${a.company.id}-schedule`);
    const unheard = record<CompanyEventPayloads["schedule"]>(
      otherSocket,
      `company-${adminB.companyId}-schedule`,
    );
    const contact = await newContact(ctx, a.company.id);
    const created = await schedule(ana.login, {
      body: "Ao vivo agora",
      contactId: contact.id,
      sendAt: inSeconds(1),
    });
    await settled(ana.login, created.id);
    expectOk(await call("DELETE", `/schedules/${created.id}`, ana.login), 204);
    await waitFor(() => heard.some((e) => e.action === "delete"));
    expect(
      heard.map((e) =>
        e.action === "delete" ? `delete ${e.scheduleId}` : `${e.action} ${e.schedule.status}`,
      ),
    ).toEqual(["create PENDENTE", "update AGENDADA", "update ENVIADA", `delete ${created.id}`]);
    expect(unheard).toEqual([]);
  });
});

describe("schedules: the durable job across restarts and instances", () => {
  it("sends a schedule whose time passed while the server was down as soon as it starts again", async () => {
    const database = await openTestDatabase();
    const first = await createTestContext(CONFIG, { database });
    first.built.startBackground();
    current = () => first;
    const team = await buildSimulatorCompany(first);
    const contact = await newContact(first, team.company.id);
    const sendAt = inSeconds(60);
    const created = await schedule(team.adminLogin, {
      body: "Enviada após reinício",
      contactId: contact.id,
      sendAt,
    });
    await first.close();

    // The server comes back after the schedule's time.
    const second = await createTestContext(CONFIG, { database });
    second.clock.now = new Date(Date.parse(sendAt) + 1_000);
    current = () => second;
    try {
      const [row] = await second.deps.db.select().from(schedules).where(eq(schedules.id, created.id));
      expect(row!.status).toBe("PENDENTE");
      second.built.startBackground();
      const adminLogin = await login(second, team.admin.email);
      expect(await settled(adminLogin, created.id, 20_000)).toMatchObject({ status: "ENVIADA" });
      expect((await phoneGot(adminLogin, team.connection.id, contact.number)).map((m) => m.body)).toEqual([
        "Enviada após reinício",
      ]);
    } finally {
      current = () => ctx;
      await second.close();
      await database.drop();
    }
  }, 60_000);

  it("never sends one schedule twice with two instances running the jobs", async () => {
    const database = await openTestDatabase();
    const one = await createTestContext(CONFIG, { database });
    const two = await createTestContext(CONFIG, { database });
    one.built.startBackground();
    two.built.startBackground();
    current = () => one;
    try {
      const team = await buildSimulatorCompany(one);
      const people = [];
      for (let i = 0; i < 8; i++) people.push(await newContact(one, team.company.id));
      const sendAt = inSeconds(2);
      const created = [];
      for (const [i, person] of people.entries())
        created.push(
          await schedule(team.adminLogin, { body: `Campanha ${i}`, contactId: person.id, sendAt }),
        );
      // A second job for each (as a crash between an edit's steps could leave): both instances race for it.
      for (const s of created)
        await enqueueJob(one.deps.db, {
          type: SEND_SCHEDULE_JOB,
          companyId: team.company.id,
          payload: { scheduleId: s.id },
          runAt: new Date(sendAt),
        });
      for (const s of created) expect((await settled(team.adminLogin, s.id, 30_000)).status).toBe("ENVIADA");
      // Both instances are done with everything due: a second send of any would show now.
      await jobsIdle(one, team.company.id);
      for (const [i, person] of people.entries()) {
        const phone = await one.deps.db
          .select()
          .from(simulatorMessages)
          .where(
            and(
              eq(simulatorMessages.number, person.number),
              eq(simulatorMessages.whatsappId, team.connection.id),
            ),
          );
        expect(
          phone.map((m) => m.body),
          person.number,
        ).toEqual([`Campanha ${i}`]);
        const stored = await one.deps.db.select().from(messages).where(eq(messages.contactId, person.id));
        expect(stored).toHaveLength(1);
      }
    } finally {
      current = () => ctx;
      await one.close();
      await two.close();
      await database.drop();
    }
  }, 90_000);
});
