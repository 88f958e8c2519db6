import crypto from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompanyEventPayloads,
  DEFAULT_SCHEDULES,
  type QueueDetailDTO,
  type QueueOptionDTO,
  companyEvent,
} from "@atende/contracts";
import { plans, queueOptions, queues, tickets } from "../../db/schema/index.js";
import {
  type LoggedIn,
  buildCompany,
  buildTeam,
  buildUser,
  login,
  uid,
  buildContact,
  buildTicket,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { expectError, expectOk, caller, fieldsOf } from "../../test/calls.js";
import { caughtUp } from "../../test/settled.js";

/**
 * The queues page's API (back-office spec §2, §3, §5, §7): queues with the spec's validation texts
 * and a colour unique in the company, service hours in ##:##, the chatbot's options tree, media on
 * queues and options, admin-only writes, 404 across companies, and `company-{id}-queue` live
 * events to the company only. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const MAX_BYTES = 64 * 1024;
let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildTeam>>;
let b: Awaited<ReturnType<typeof buildTeam>>;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    LOGIN_MAX_PER_EMAIL: 1000,
    LOGIN_MAX_PER_IP: 100_000,
    MEDIA_MAX_BYTES: MAX_BYTES,
  });
  a = await buildTeam(ctx);
  b = await buildTeam(ctx);
  // These companies make many queues; the plan limit has its own test.
  for (const team of [a, b])
    await ctx.deps.db.update(plans).set({ queues: 0 }).where(eq(plans.id, team.company.planId!));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

const call = caller(() => ctx);

const randomColor = () => `#${crypto.randomBytes(3).toString("hex")}`;

async function createQueue(who: LoggedIn = a.adminLogin, body: Record<string, unknown> = {}) {
  return expectOk<QueueDetailDTO>(
    await call("POST", "/queue", who, { name: `Fila ${uid()}`, color: randomColor(), ...body }),
    201,
  );
}

async function createOption(who: LoggedIn, body: Record<string, unknown>) {
  return expectOk<QueueOptionDTO>(await call("POST", "/queue-options", who, body), 201);
}

async function countQueues(companyId: number) {
  return (await ctx.deps.db.select().from(queues).where(eq(queues.companyId, companyId))).length;
}

/** A 1x1 PNG: real bytes, so the media store recognizes the type. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

function multipart(files: { name: string; filename: string; type: string; data: Buffer }[]) {
  const boundary = `----atende${crypto.randomBytes(6).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(url: string, who: LoggedIn, data = PNG, filename = "menu de vendas.png", lang?: string) {
  const form = multipart([{ name: "file", filename, type: "image/png", data }]);
  return ctx.app.inject({
    method: "POST",
    url,
    payload: form.payload,
    headers: { ...who.auth, "content-type": form.contentType, ...(lang ? { "accept-language": lang } : {}) },
  });
}

describe("GET /queue and /queue/{id}", () => {
  it("answers the company's queues with every field to admins and agents alike; none of another company", async () => {
    const made = await createQueue(a.adminLogin, { orderQueue: 1, greetingMessage: "Bem-vindo às vendas" });
    for (const who of [a.adminLogin, a.agentLogin]) {
      const list = expectOk<QueueDetailDTO[]>(await call("GET", "/queue", who));
      expect(list.map((q) => q.id)).toEqual(expect.arrayContaining([a.queue.id, made.id]));
      expect(list.some((q) => q.id === b.queue.id)).toBe(false);
      expect(list.find((q) => q.id === made.id)).toEqual(made);
    }
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${made.id}`, a.agentLogin))).toEqual(made);
  });

  it("orders the list by orderQueue (unnumbered last), then by name", async () => {
    const team = await buildTeam(ctx);
    const z = await createQueue(team.adminLogin, { name: "Zeta", orderQueue: 1 });
    const c = await createQueue(team.adminLogin, { name: "Charlie" });
    const y = await createQueue(team.adminLogin, { name: "Yankee", orderQueue: 0 });
    const ids = expectOk<QueueDetailDTO[]>(await call("GET", "/queue", team.adminLogin)).map((q) => q.id);
    expect(ids.filter((id) => [z.id, c.id, y.id].includes(id))).toEqual([y.id, z.id, c.id]);
  });

  it("a queue made before this page (seed, factories) carries the spec's default hours", async () => {
    const queue = expectOk<QueueDetailDTO>(await call("GET", `/queue/${a.queue.id}`, a.adminLogin));
    expect(queue.schedules).toEqual(DEFAULT_SCHEDULES);
    expect(queue).toMatchObject({
      greetingMessage: "",
      outOfHoursMessage: "",
      orderQueue: null,
      mediaPath: null,
    });
  });
});

describe("POST /queue", () => {
  it("creates with 201 and the defaults: Mon-Fri 08:00-18:00, Sat 08:00-12:00, Sun closed", async () => {
    const queue = await createQueue(a.adminLogin, { name: "  Financeiro  ", color: "#ABCDEF" });
    expect(queue).toMatchObject({
      name: "Financeiro",
      color: "#abcdef",
      greetingMessage: "",
      outOfHoursMessage: "",
      orderQueue: null,
      integrationId: null,
      promptId: null,
      mediaPath: null,
      mediaName: null,
    });
    expect(queue.schedules).toEqual([
      { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Terça-feira", weekdayEn: "tuesday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Quarta-feira", weekdayEn: "wednesday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Quinta-feira", weekdayEn: "thursday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Sexta-feira", weekdayEn: "friday", startTime: "08:00", endTime: "18:00" },
      { weekday: "Sábado", weekdayEn: "saturday", startTime: "08:00", endTime: "12:00" },
      { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
    ]);
  });

  it("validates name and colour with the spec's texts in the caller's language, and creates nothing", async () => {
    const before = await countQueues(a.company.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ color: "#123456" }, "name", "Required"],
      [{ name: "   ", color: "#123456" }, "name", "Required"],
      [{ name: "A", color: "#123456" }, "name", "Too Short!"],
      [{ name: "x".repeat(51), color: "#123456" }, "name", "Too Long!"],
      [{ name: "Vendas 2" }, "color", "Required"],
      [{ name: "Vendas 2", color: "" }, "color", "Required"],
      [{ name: "Vendas 2", color: "#1" }, "color", "Too Short!"],
      [{ name: "Vendas 2", color: "#1234567890" }, "color", "Too Long!"],
      [{ name: "Vendas 2", color: "red;x" }, "color", "Valor inválido"],
    ];
    for (const [body, field, text] of cases) {
      const res = await call("POST", "/queue", a.adminLogin, body);
      expectError(res, 400, "ERR_VALIDATION");
      expect(fieldsOf(res)[field], JSON.stringify(body)).toBe(text);
    }
    const english = await call("POST", "/queue", a.adminLogin, { name: "A" }, { "accept-language": "en" });
    expect(fieldsOf(english)).toEqual({ name: "Too Short!", color: "Required" });
    const spanish = await call(
      "POST",
      "/queue",
      a.adminLogin,
      { name: "A", color: "#1" },
      { "accept-language": "es" },
    );
    expect(fieldsOf(spanish)).toEqual({ name: "¡Demasiado corto!", color: "¡Demasiado corto!" });
    expect(await countQueues(a.company.id)).toBe(before);
  });

  it("a colour is unique in the company (whatever its case), not across companies", async () => {
    const color = randomColor();
    await createQueue(a.adminLogin, { color });
    const res = await call("POST", "/queue", a.adminLogin, {
      name: `Outra ${uid()}`,
      color: color.toUpperCase(),
    });
    expectError(res, 409, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
    expect(res.json<{ message: string }>().message).toBe("Esta cor já está em uso, escolha outra.");
    const en = await call(
      "POST",
      "/queue",
      a.adminLogin,
      { name: `Outra ${uid()}`, color },
      { "accept-language": "en" },
    );
    expect(en.json<{ message: string }>().message).toBe("This color is already in use, pick another one.");
    await createQueue(b.adminLogin, { color });

    // On edit: another queue's colour is refused, the queue's own is kept.
    const other = await createQueue(a.adminLogin);
    expectError(
      await call("PUT", `/queue/${other.id}`, a.adminLogin, { name: other.name, color }),
      409,
      "ERR_QUEUE_COLOR_ALREADY_EXISTS",
    );
    expectOk(
      await call("PUT", `/queue/${other.id}`, a.adminLogin, { name: `${other.name}!`, color: other.color }),
    );
  });

  it("a name is unique in the company: 409 ERR_QUEUE_NAME_ALREADY_EXISTS", async () => {
    const name = `Única ${uid()}`;
    await createQueue(a.adminLogin, { name });
    expectError(
      await call("POST", "/queue", a.adminLogin, { name, color: randomColor() }),
      409,
      "ERR_QUEUE_NAME_ALREADY_EXISTS",
    );
    await createQueue(b.adminLogin, { name });
  });

  it("five creates with one colour at once: one 201, four 409", async () => {
    const color = randomColor();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call("POST", "/queue", a.adminLogin, { name: `Corrida ${uid()} ${i}`, color }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409))
      expectError(r, 409, "ERR_QUEUE_COLOR_ALREADY_EXISTS");
  });

  it("stops at the plan's queue limit with 403 ERR_PLAN_QUEUE_LIMIT", async () => {
    const company = await buildCompany(ctx.deps.db);
    await ctx.deps.db.update(plans).set({ queues: 2 }).where(eq(plans.id, company.planId!));
    const admin = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const who = await login(ctx, admin.email);
    await createQueue(who);
    await createQueue(who);
    expectError(
      await call("POST", "/queue", who, { name: "Terceira", color: randomColor() }),
      403,
      "ERR_PLAN_QUEUE_LIMIT",
    );
    expect(await countQueues(company.id)).toBe(2);
  });

  it("keeps greeting, out-of-hours message, order and hours; the server writes the weekday names and week order", async () => {
    const queue = await createQueue(a.adminLogin, {
      greetingMessage: "Olá! Você está no *Suporte*.",
      outOfHoursMessage: "Estamos fechados.",
      orderQueue: 3,
      schedules: [
        { weekdayEn: "sunday", startTime: "10:00", endTime: "14:00" },
        { weekday: "qualquer", weekdayEn: "monday", startTime: "07:30", endTime: "19:45" },
      ],
    });
    expect(queue).toMatchObject({
      greetingMessage: "Olá! Você está no *Suporte*.",
      outOfHoursMessage: "Estamos fechados.",
      orderQueue: 3,
      schedules: [
        { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "07:30", endTime: "19:45" },
        { weekday: "Domingo", weekdayEn: "sunday", startTime: "10:00", endTime: "14:00" },
      ],
    });
  });

  it("validates the hours: ##:## times, the end not before the start, each weekday once", async () => {
    const day = (v: Record<string, unknown>) => [
      { weekdayEn: "monday", startTime: "08:00", endTime: "18:00", ...v },
    ];
    const cases: [unknown, string, string][] = [
      [day({ startTime: "25:00" }), "schedules.0.startTime", "Use o formato HH:MM"],
      [day({ startTime: "8:00" }), "schedules.0.startTime", "Use o formato HH:MM"],
      [day({ endTime: "18:60" }), "schedules.0.endTime", "Use o formato HH:MM"],
      [day({ endTime: "1800" }), "schedules.0.endTime", "Use o formato HH:MM"],
      [day({ startTime: 800 }), "schedules.0.startTime", "Use o formato HH:MM"],
      [
        day({ startTime: "18:00", endTime: "08:00" }),
        "schedules.0.endTime",
        "O fim deve ser depois do início",
      ],
      [day({ weekdayEn: "someday" }), "schedules.0.weekdayEn", "Valor inválido"],
      [[...day({}), ...day({})], "schedules", "Valor inválido"],
      ["segunda", "schedules", "Valor inválido"],
    ];
    const before = await countQueues(a.company.id);
    for (const [schedules, field, text] of cases) {
      const res = await call("POST", "/queue", a.adminLogin, {
        name: `Horas ${uid()}`,
        color: randomColor(),
        schedules,
      });
      expectError(res, 400, "ERR_VALIDATION");
      expect(fieldsOf(res)[field], JSON.stringify(schedules)).toBe(text);
    }
    expect(await countQueues(a.company.id)).toBe(before);
    const en = await call(
      "POST",
      "/queue",
      a.adminLogin,
      { name: `Horas ${uid()}`, color: randomColor(), schedules: day({ startTime: "25:00" }) },
      { "accept-language": "en" },
    );
    expect(fieldsOf(en)["schedules.0.startTime"]).toBe("Use the HH:MM format");
  });

  it("refuses an agent with 403 ERR_NO_PERMISSION and creates nothing", async () => {
    const before = await countQueues(a.company.id);
    expectError(
      await call("POST", "/queue", a.agentLogin, { name: "Do agente", color: randomColor() }),
      403,
      "ERR_NO_PERMISSION",
    );
    expect(await countQueues(a.company.id)).toBe(before);
  });

  it("a companyId in the body is ignored: the caller's company decides", async () => {
    const queue = await createQueue(a.adminLogin, { companyId: b.company.id });
    const [row] = await ctx.deps.db.select().from(queues).where(eq(queues.id, queue.id));
    expect(row!.companyId).toBe(a.company.id);
  });
});

describe("PUT and DELETE /queue/{id}", () => {
  it("edits the fields; those left out keep their values; PUT validates like POST", async () => {
    const queue = await createQueue(a.adminLogin, {
      greetingMessage: "Oi",
      outOfHoursMessage: "Fechado",
      orderQueue: 2,
    });
    const hours = DEFAULT_SCHEDULES.map((d) => (d.weekdayEn === "friday" ? { ...d, endTime: "17:00" } : d));
    const edited = expectOk<QueueDetailDTO>(
      await call("PUT", `/queue/${queue.id}`, a.adminLogin, {
        name: "Renomeada",
        color: queue.color,
        greetingMessage: "Olá de novo",
        schedules: hours,
      }),
    );
    expect(edited).toMatchObject({
      name: "Renomeada",
      greetingMessage: "Olá de novo",
      outOfHoursMessage: "Fechado",
      orderQueue: 2,
      schedules: hours,
    });
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin))).toEqual(edited);
    const cleared = expectOk<QueueDetailDTO>(
      await call("PUT", `/queue/${queue.id}`, a.adminLogin, {
        name: "Renomeada",
        color: queue.color,
        orderQueue: null,
      }),
    );
    expect(cleared.orderQueue).toBeNull();

    const bad = await call("PUT", `/queue/${queue.id}`, a.adminLogin, {
      name: "R",
      color: queue.color,
      schedules: [{ weekdayEn: "monday", startTime: "99:00", endTime: "18:00" }],
    });
    expectError(bad, 400, "ERR_VALIDATION");
    expect(fieldsOf(bad)).toMatchObject({
      name: "Too Short!",
      "schedules.0.startTime": "Use o formato HH:MM",
    });
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin)).schedules).toEqual(
      hours,
    );
  });

  it("deletes with 204: the queue, its options tree, and its tickets lose the queue but stay", async () => {
    const queue = await createQueue();
    const root = await createOption(a.adminLogin, { queueId: queue.id, title: "Raiz" });
    await createOption(a.adminLogin, { queueId: queue.id, parentId: root.id, title: "Filha" });
    const contact = await buildContact(ctx.deps.db, a.company.id, {
      name: "Cliente",
      number: `5511${Date.now() % 1_000_000_000}`,
    });
    const ticket = await buildTicket(ctx.deps.db, a.company.id, {
      contactId: contact.id,
      queueId: queue.id,
      status: "pending",
    });

    expectOk(await call("DELETE", `/queue/${queue.id}`, a.adminLogin), 204);
    expectError(await call("GET", `/queue/${queue.id}`, a.adminLogin), 404, "ERR_NO_QUEUE_FOUND");
    expect(await ctx.deps.db.select().from(queueOptions).where(eq(queueOptions.queueId, queue.id))).toEqual(
      [],
    );
    const [kept] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(kept!.queueId).toBeNull();
    expectError(await call("DELETE", `/queue/${queue.id}`, a.adminLogin), 404, "ERR_NO_QUEUE_FOUND");
  });

  it("refuses an agent with 403 and an unknown id with 404, changing nothing", async () => {
    const queue = await createQueue();
    expectError(
      await call("PUT", `/queue/${queue.id}`, a.agentLogin, { name: "Do agente", color: queue.color }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await call("DELETE", `/queue/${queue.id}`, a.agentLogin), 403, "ERR_NO_PERMISSION");
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin))).toEqual(queue);
    expectError(
      await call("PUT", "/queue/2147483647", a.adminLogin, { name: "Nada", color: randomColor() }),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
  });

  it("ids like 0, -1, abc, 1.5, 99999999999 answer 400 ERR_VALIDATION", async () => {
    for (const bad of ["0", "-1", "abc", "1.5", "99999999999"]) {
      expectError(await call("GET", `/queue/${bad}`, a.adminLogin), 400, "ERR_VALIDATION");
      expectError(await call("DELETE", `/queue-options/${bad}`, a.adminLogin), 400, "ERR_VALIDATION");
    }
  });
});

describe("the options tree (/queue-options)", () => {
  it("builds a two-level menu: numbers follow the siblings', the tree comes back nested and in order", async () => {
    const queue = await createQueue();
    const vendas = await createOption(a.adminLogin, {
      queueId: queue.id,
      title: "Vendas",
      message: "Escolha o produto",
    });
    const suporte = await createOption(a.adminLogin, { queueId: queue.id, parentId: -1, title: "Suporte" });
    expect([vendas.option, suporte.option]).toEqual([1, 2]);
    expect(vendas).toMatchObject({
      queueId: queue.id,
      parentId: null,
      message: "Escolha o produto",
      children: [],
    });

    const planos = await createOption(a.adminLogin, {
      queueId: queue.id,
      parentId: vendas.id,
      title: "Planos",
    });
    const aparelhos = await createOption(a.adminLogin, {
      queueId: queue.id,
      parentId: vendas.id,
      title: "Aparelhos",
    });
    const pre = await createOption(a.adminLogin, {
      queueId: queue.id,
      parentId: planos.id,
      title: "Pré-pago",
      option: 7,
    });
    expect([planos.option, aparelhos.option, pre.option]).toEqual([1, 2, 7]);
    expect(planos.parentId).toBe(vendas.id);

    const roots = expectOk<QueueOptionDTO[]>(
      await call("GET", `/queue-options?queueId=${queue.id}&parentId=-1`, a.agentLogin),
    );
    expect(roots.map((o) => o.title)).toEqual(["Vendas", "Suporte"]);
    expect(roots[0]!.children.map((o) => o.title)).toEqual(["Planos", "Aparelhos"]);
    expect(roots[0]!.children[0]!.children.map((o) => o.title)).toEqual(["Pré-pago"]);

    const underVendas = expectOk<QueueOptionDTO[]>(
      await call("GET", `/queue-options?queueId=${queue.id}&parentId=${vendas.id}`, a.adminLogin),
    );
    expect(underVendas.map((o) => o.id)).toEqual([planos.id, aparelhos.id]);
    const all = expectOk<QueueOptionDTO[]>(
      await call("GET", `/queue-options?queueId=${queue.id}`, a.adminLogin),
    );
    expect(all.map((o) => o.id).sort((x, y) => x - y)).toEqual(
      [vendas.id, suporte.id, planos.id, aparelhos.id, pre.id].sort((x, y) => x - y),
    );
    const one = expectOk<QueueOptionDTO>(await call("GET", `/queue-options/${vendas.id}`, a.adminLogin));
    expect(one.children.map((o) => o.id)).toEqual([planos.id, aparelhos.id]);
  });

  it("edits title, message and number; deleting a parent deletes its whole sub-menu", async () => {
    const queue = await createQueue();
    const root = await createOption(a.adminLogin, { queueId: queue.id, title: "Raiz" });
    const child = await createOption(a.adminLogin, { queueId: queue.id, parentId: root.id, title: "Filha" });
    const grandchild = await createOption(a.adminLogin, {
      queueId: queue.id,
      parentId: child.id,
      title: "Neta",
    });
    const sibling = await createOption(a.adminLogin, { queueId: queue.id, title: "Irmã" });

    const edited = expectOk<QueueOptionDTO>(
      await call("PUT", `/queue-options/${child.id}`, a.adminLogin, {
        title: "Filha editada",
        message: "Texto",
        option: 5,
      }),
    );
    expect(edited).toMatchObject({
      id: child.id,
      title: "Filha editada",
      message: "Texto",
      option: 5,
      parentId: root.id,
    });
    expect(edited.children.map((o) => o.id)).toEqual([grandchild.id]);
    const partial = expectOk<QueueOptionDTO>(
      await call("PUT", `/queue-options/${child.id}`, a.adminLogin, { message: "Só o texto" }),
    );
    expect(partial).toMatchObject({ title: "Filha editada", message: "Só o texto", option: 5 });

    expectOk(await call("DELETE", `/queue-options/${root.id}`, a.adminLogin), 204);
    const left = await ctx.deps.db
      .select({ id: queueOptions.id })
      .from(queueOptions)
      .where(inArray(queueOptions.id, [root.id, child.id, grandchild.id, sibling.id]));
    expect(left.map((r) => r.id)).toEqual([sibling.id]);
    expectError(
      await call("GET", `/queue-options/${child.id}`, a.adminLogin),
      404,
      "ERR_NO_QUEUE_OPTION_FOUND",
    );
  });

  it("validates: a title is required, a parent must be an option of the same queue, the queue must exist", async () => {
    const queue = await createQueue();
    const other = await createQueue();
    const foreign = await createOption(a.adminLogin, { queueId: other.id, title: "Da outra fila" });
    const empty = await call("POST", "/queue-options", a.adminLogin, { queueId: queue.id, title: "  " });
    expectError(empty, 400, "ERR_VALIDATION");
    expect(fieldsOf(empty).title).toBe("Required");
    expectError(
      await call("POST", "/queue-options", a.adminLogin, { title: "Sem fila" }),
      400,
      "ERR_VALIDATION",
    );
    expectError(
      await call("POST", "/queue-options", a.adminLogin, {
        queueId: queue.id,
        parentId: foreign.id,
        title: "Órfã",
      }),
      404,
      "ERR_NO_QUEUE_OPTION_FOUND",
    );
    expectError(
      await call("POST", "/queue-options", a.adminLogin, { queueId: 2147483647, title: "Sem fila" }),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expectError(
      await call("GET", `/queue-options?queueId=${queue.id}&parentId=${foreign.id}`, a.adminLogin),
      404,
      "ERR_NO_QUEUE_OPTION_FOUND",
    );
    expectError(await call("GET", "/queue-options", a.adminLogin), 400, "ERR_VALIDATION");
    const blank = await call("PUT", `/queue-options/${foreign.id}`, a.adminLogin, { title: "" });
    expect(fieldsOf(blank).title).toBe("Required");
    expect(
      expectOk<QueueOptionDTO>(await call("GET", `/queue-options/${foreign.id}`, a.adminLogin)).title,
    ).toBe("Da outra fila");
  });

  it("two options of one menu never share a number: 409 ERR_QUEUE_OPTION_NUMBER_TAKEN; other menus may use it", async () => {
    const queue = await createQueue();
    const first = await createOption(a.adminLogin, { queueId: queue.id, title: "Primeira" });
    const second = await createOption(a.adminLogin, { queueId: queue.id, title: "Segunda" });
    expectError(
      await call("POST", "/queue-options", a.adminLogin, { queueId: queue.id, title: "Outra 1", option: 1 }),
      409,
      "ERR_QUEUE_OPTION_NUMBER_TAKEN",
    );
    expectError(
      await call("PUT", `/queue-options/${second.id}`, a.adminLogin, { option: first.option }),
      409,
      "ERR_QUEUE_OPTION_NUMBER_TAKEN",
    );
    // Its own number, and the same number one level down, are fine.
    expectOk(await call("PUT", `/queue-options/${second.id}`, a.adminLogin, { option: second.option }));
    const child = await createOption(a.adminLogin, {
      queueId: queue.id,
      parentId: first.id,
      title: "Filha",
      option: 1,
    });
    expect(child.option).toBe(1);
    const tree = expectOk<QueueOptionDTO[]>(
      await call("GET", `/queue-options?queueId=${queue.id}&parentId=-1`, a.adminLogin),
    );
    expect(tree.map((o) => o.option)).toEqual([1, 2]);
  });

  it("a menu goes at most ten levels below the first one: deeper answers 400 ERR_QUEUE_OPTIONS_LIMIT", async () => {
    const queue = await createQueue();
    let parent: QueueOptionDTO | null = null;
    for (let level = 0; level <= 10; level++) {
      parent = await createOption(a.adminLogin, {
        queueId: queue.id,
        parentId: parent?.id ?? null,
        title: `Nível ${level}`,
      });
    }
    expectError(
      await call("POST", "/queue-options", a.adminLogin, {
        queueId: queue.id,
        parentId: parent!.id,
        title: "Fundo demais",
      }),
      400,
      "ERR_QUEUE_OPTIONS_LIMIT",
    );
  });

  it("agents read the menu but cannot change it: 403 ERR_NO_PERMISSION and nothing changes", async () => {
    const queue = await createQueue();
    const option = await createOption(a.adminLogin, { queueId: queue.id, title: "Fixa" });
    expectError(
      await call("POST", "/queue-options", a.agentLogin, { queueId: queue.id, title: "Nova" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("PUT", `/queue-options/${option.id}`, a.agentLogin, { title: "Mudou" }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await call("DELETE", `/queue-options/${option.id}`, a.agentLogin), 403, "ERR_NO_PERMISSION");
    expectError(
      await upload(`/queue-options/${option.id}/media-upload`, a.agentLogin),
      403,
      "ERR_NO_PERMISSION",
    );
    const tree = expectOk<QueueOptionDTO[]>(
      await call("GET", `/queue-options?queueId=${queue.id}&parentId=-1`, a.agentLogin),
    );
    expect(tree.map((o) => [o.id, o.title, o.mediaPath])).toEqual([[option.id, "Fixa", null]]);
  });
});

describe("media on queues and options", () => {
  it("attaches a file to a queue (name with underscores), serves it to the company, and removes it", async () => {
    const queue = await createQueue();
    const attached = expectOk<QueueDetailDTO>(await upload(`/queue/${queue.id}/media-upload`, a.adminLogin));
    expect(attached.mediaPath).toMatch(new RegExp(`^${a.company.id}/[0-9a-f-]{36}\\.png$`));
    expect(attached.mediaName).toBe("menu_de_vendas.png");
    const file = await call("GET", `/media/${attached.mediaPath}`, a.agentLogin);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect((await call("GET", `/media/${attached.mediaPath}`, b.adminLogin)).statusCode).toBe(404);

    const removed = expectOk<QueueDetailDTO>(
      await call("DELETE", `/queue/${queue.id}/media-upload`, a.adminLogin),
    );
    expect(removed).toMatchObject({ mediaPath: null, mediaName: null });
    expect(
      expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin)).mediaPath,
    ).toBeNull();
  });

  it("attaches a file to an option and removes it", async () => {
    const queue = await createQueue();
    const option = await createOption(a.adminLogin, { queueId: queue.id, title: "Com mídia" });
    const attached = expectOk<QueueOptionDTO>(
      await upload(`/queue-options/${option.id}/media-upload`, a.adminLogin, PNG, "tabela.png"),
    );
    expect(attached).toMatchObject({ id: option.id, mediaName: "tabela.png" });
    expect(attached.mediaPath).toMatch(/\.png$/);
    const removed = expectOk<QueueOptionDTO>(
      await call("DELETE", `/queue-options/${option.id}/media-upload`, a.adminLogin),
    );
    expect(removed).toMatchObject({ mediaPath: null, mediaName: null });
  });

  it("refuses a file over the size limit (413), no file (400 'Required'), a body that is not a form (400)", async () => {
    const queue = await createQueue();
    expectError(
      await upload(`/queue/${queue.id}/media-upload`, a.adminLogin, Buffer.alloc(MAX_BYTES + 10, 1)),
      413,
      "ERR_MEDIA_TOO_LARGE",
    );
    const form = multipart([]);
    const none = await ctx.app.inject({
      method: "POST",
      url: `/queue/${queue.id}/media-upload`,
      payload: form.payload,
      headers: { ...a.adminLogin.auth, "content-type": form.contentType },
    });
    expectError(none, 400, "ERR_VALIDATION");
    expect(fieldsOf(none).file).toBe("Required");
    expectError(
      await upload(`/queue/${queue.id}/media-upload`, a.adminLogin, Buffer.alloc(0)),
      400,
      "ERR_VALIDATION",
    );
    const json = await call("POST", `/queue/${queue.id}/media-upload`, a.adminLogin, { file: "x" });
    expect(json.statusCode).toBe(400);
    expect(
      expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin)).mediaPath,
    ).toBeNull();
  });

  it("an agent gets 403 on a queue's media, and nothing is attached", async () => {
    const queue = await createQueue();
    expectError(await upload(`/queue/${queue.id}/media-upload`, a.agentLogin), 403, "ERR_NO_PERMISSION");
    expectError(
      await call("DELETE", `/queue/${queue.id}/media-upload`, a.agentLogin),
      403,
      "ERR_NO_PERMISSION",
    );
    expect(
      expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin)).mediaPath,
    ).toBeNull();
  });
});

describe("tenant isolation", () => {
  it("an admin of company B gets 404 on every call about company A's queue and options, and nothing changes", async () => {
    const queue = await createQueue(a.adminLogin, { greetingMessage: "Só da A" });
    const option = await createOption(a.adminLogin, { queueId: queue.id, title: "Da A" });
    const who = b.adminLogin;
    const noQueue = [
      await call("GET", `/queue/${queue.id}`, who),
      await call("PUT", `/queue/${queue.id}`, who, { name: "Invadida", color: randomColor() }),
      await call("DELETE", `/queue/${queue.id}`, who),
      await upload(`/queue/${queue.id}/media-upload`, who),
      await call("DELETE", `/queue/${queue.id}/media-upload`, who),
      await call("GET", `/queue-options?queueId=${queue.id}&parentId=-1`, who),
      await call("POST", "/queue-options", who, { queueId: queue.id, title: "Intrusa" }),
    ];
    for (const res of noQueue) expectError(res, 404, "ERR_NO_QUEUE_FOUND");
    const noOption = [
      await call("GET", `/queue-options/${option.id}`, who),
      await call("PUT", `/queue-options/${option.id}`, who, { title: "Invadida" }),
      await call("DELETE", `/queue-options/${option.id}`, who),
      await upload(`/queue-options/${option.id}/media-upload`, who),
      await call("POST", "/queue-options", who, {
        queueId: b.queue.id,
        parentId: option.id,
        title: "Intrusa",
      }),
    ];
    for (const res of noOption) expectError(res, 404, "ERR_NO_QUEUE_OPTION_FOUND");
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, a.adminLogin))).toEqual(queue);
    const tree = expectOk<QueueOptionDTO[]>(
      await call("GET", `/queue-options?queueId=${queue.id}`, a.adminLogin),
    );
    expect(tree.map((o) => o.title)).toEqual(["Da A"]);
  });
});

describe("live events", () => {
  type QueueEvent = CompanyEventPayloads["queue"];

  it("create, edit, media and delete reach the company's sockets as company-{id}-queue; never another company", async () => {
    const url = await ctx.url();
    const adminSocket = await connectSocket(url, a.adminLogin.token);
    const agentSocket = await connectSocket(url, a.agentLogin.token);
    const strangerSocket = await connectSocket(url, b.adminLogin.token);
    sockets.push(adminSocket, agentSocket, strangerSocket);
    const name = companyEvent(a.company.id, "queue");
    const adminGot = record<QueueEvent>(adminSocket, name);
    const agentGot = record<QueueEvent>(agentSocket, name);
    const strangerGot: string[] = [];
    strangerSocket.onAny((event: string) => strangerGot.push(event));

    const queue = await createQueue(a.adminLogin, { name: `Ao vivo ${uid()}` });
    const edited = expectOk<QueueDetailDTO>(
      await call("PUT", `/queue/${queue.id}`, a.adminLogin, { name: `${queue.name} 2`, color: queue.color }),
    );
    const withMedia = expectOk<QueueDetailDTO>(await upload(`/queue/${queue.id}/media-upload`, a.adminLogin));
    expectOk(await call("DELETE", `/queue/${queue.id}`, a.adminLogin), 204);

    const expected: QueueEvent[] = [
      { action: "create", queue },
      { action: "update", queue: edited },
      { action: "update", queue: withMedia },
      { action: "delete", queueId: queue.id },
    ];
    await waitFor(() => adminGot.length >= 4 && agentGot.length >= 4);
    expect(adminGot).toEqual(expected);
    expect(agentGot).toEqual(expected);

    // A refused change says nothing.
    expectError(
      await call("POST", "/queue", a.agentLogin, { name: "Recusada", color: randomColor() }),
      403,
      "ERR_NO_PERMISSION",
    );
    await Promise.all([caughtUp(adminSocket), caughtUp(strangerSocket)]);
    expect(adminGot).toHaveLength(4);
    expect(strangerGot.filter((e) => e.includes("-queue"))).toEqual([]);
  });

  it("company B's changes reach B's sockets only", async () => {
    const url = await ctx.url();
    const mine = await connectSocket(url, a.adminLogin.token);
    const theirs = await connectSocket(url, b.adminLogin.token);
    sockets.push(mine, theirs);
    const mineGot: string[] = [];
    mine.onAny((event: string) => mineGot.push(event));
    const theirsGot = record<QueueEvent>(theirs, companyEvent(b.company.id, "queue"));
    const queue = await createQueue(b.adminLogin);
    await waitFor(() => theirsGot.length === 1);
    expect(theirsGot[0]).toEqual({ action: "create", queue });
    await caughtUp(mine);
    expect(mineGot.filter((e) => e.includes("-queue"))).toEqual([]);
  });
});
