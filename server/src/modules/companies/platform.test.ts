import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { type CompaniesPage, type CompanyDTO, DEFAULT_COMPANY_SETTINGS } from "@atende/contracts";
import { queryRows } from "../../db/client.js";
import { users, whatsapps } from "../../db/schema/index.js";
import type { DomainEvent } from "../../events/bus.js";
import { TINY_PNG, caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import {
  type LoggedIn,
  buildContact,
  buildMessage,
  buildPlan,
  buildPlatformOperator,
  buildTeam,
  buildTicket,
  uid,
} from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";

/**
 * The super user's Empresas pages: GET /companies, /companies/list, POST, PUT and DELETE
 * /companies/{id}; GET /companies/{id} for the super user and the company's own users.
 */
let ctx: TestContext;
let url: string;
let root: LoggedIn;
let rootCompanyId: number;
let a: Awaited<ReturnType<typeof buildTeam>>;
let b: Awaited<ReturnType<typeof buildTeam>>;
let planId: number;
const events: DomainEvent[] = [];
const call = caller(() => ctx);
const open: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  url = await ctx.url();
  const operator = await buildPlatformOperator(ctx);
  root = operator.login;
  rootCompanyId = operator.companyId;
  a = await buildTeam(ctx);
  b = await buildTeam(ctx);
  planId = (await buildPlan(ctx.deps.db, { name: `Empresas ${uid()}` })).id;
  ctx.deps.bus.on((event) => {
    events.push(event);
  });
}, 60_000);
afterAll(() => ctx.close());
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const newCompany = (extra: Record<string, unknown> = {}) => ({
  name: `Empresa ${uid()}`,
  email: `dono-${uid()}@example.com`,
  phone: "(11) 98765-4321",
  planId,
  ...extra,
});

async function create(extra: Record<string, unknown> = {}) {
  return expectOk<CompanyDTO>(await call("POST", "/companies", root, newCompany(extra)), 201);
}

describe("only the super user manages companies", () => {
  it("an admin or an agent of a company gets 403 on every super route; no token 401", async () => {
    const target = await create();
    const superCalls: ["GET" | "POST" | "PUT" | "DELETE", string, object?][] = [
      ["GET", "/companies"],
      ["GET", "/companies/list"],
      ["POST", "/companies", newCompany()],
      ["PUT", `/companies/${target.id}`, { name: "Tomada" }],
      ["PUT", `/companies/${a.company.id}`, { status: false }],
      ["DELETE", `/companies/${target.id}`],
      ["DELETE", `/companies/${a.company.id}`],
    ];
    for (const who of [a.adminLogin, a.agentLogin])
      for (const [method, path, body] of superCalls)
        expectError(await call(method, path, who, body), 403, "ERR_NO_PERMISSION");
    for (const [method, path, body] of superCalls)
      expectError(await call(method, path, null, body), 401, "ERR_NO_SESSION");
    // Nothing changed.
    expect(expectOk<CompanyDTO>(await call("GET", `/companies/${target.id}`, root)).name).toBe(target.name);
    expect(expectOk<CompanyDTO>(await call("GET", `/companies/${a.company.id}`, a.adminLogin)).status).toBe(
      true,
    );
  });

  it("GET /companies/{id}: the company's own admin and agent read it; another company's answers 404", async () => {
    for (const who of [a.adminLogin, a.agentLogin]) {
      const own = expectOk<CompanyDTO>(await call("GET", `/companies/${a.company.id}`, who));
      expect(own).toMatchObject({ id: a.company.id, name: a.company.name, dueDate: "2099-01-01" });
      expect(own).toHaveProperty("trialExpiration", null);
      const other = await call("GET", `/companies/${b.company.id}`, who);
      expectError(other, 404, "ERR_NO_COMPANY_FOUND");
      expect(other.body).not.toContain(b.company.name);
      expectError(await call("GET", `/companies/listPlan/${b.company.id}`, who), 404, "ERR_NO_COMPANY_FOUND");
    }
    expectError(await call("GET", `/companies/${2147483647}`, root), 404, "ERR_NO_COMPANY_FOUND");
  });
});

describe("GET /companies and /companies/list", () => {
  it("a page {companies, count, hasMore} searched by name; the list is every company", async () => {
    const mark = uid();
    const made: CompanyDTO[] = [];
    for (let i = 0; i < 3; i++) made.push(await create({ name: `Busca ${mark} ${i}` }));
    const page = expectOk<CompaniesPage>(
      await call("GET", `/companies?searchParam=${mark}&pageNumber=1`, root),
    );
    expect(page.count).toBe(3);
    expect(page.hasMore).toBe(false);
    expect(page.companies.map((c) => c.id).sort()).toEqual(made.map((c) => c.id).sort());
    const one = page.companies.find((c) => c.id === made[0]!.id)!;
    expect(one).toMatchObject({
      name: `Busca ${mark} 0`,
      planId,
      plan: { id: planId },
      status: true,
      campaignsEnabled: true,
      recurrence: "MENSAL",
      phone: "11987654321",
    });
    expect(one.settings.map((s) => s.key)).toContain("campaignsEnabled");

    const list = expectOk<CompanyDTO[]>(await call("GET", "/companies/list", root));
    const ids = list.map((c) => c.id);
    for (const id of [rootCompanyId, a.company.id, b.company.id, ...made.map((c) => c.id)])
      expect(ids).toContain(id);

    const all = expectOk<CompaniesPage>(await call("GET", "/companies", root));
    expect(all.count).toBe(list.length);
    expect(all.companies.length).toBe(Math.min(20, list.length));
  });
});

describe("POST /companies: a company usable at once", () => {
  it("creates the company, its default settings, a simulator connection and its admin with no usable password, who is invited", async () => {
    events.length = 0;
    const body = newCompany({
      adminName: "Dona Maria",
      dueDate: "2030-05-10",
      recurrence: "TRIMESTRAL",
      campaignsEnabled: false,
      status: true,
    });
    const made = expectOk<CompanyDTO>(await call("POST", "/companies", root, body), 201);
    expect(made).toMatchObject({
      name: body.name,
      email: body.email,
      phone: "11987654321",
      planId,
      status: true,
      dueDate: "2030-05-10",
      recurrence: "TRIMESTRAL",
      campaignsEnabled: false,
      trialExpiration: null,
    });
    const settings = Object.fromEntries(made.settings.map((s) => [s.key, s.value]));
    expect(settings).toEqual({ ...DEFAULT_COMPANY_SETTINGS, campaignsEnabled: "false" });

    const connections = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.companyId, made.id));
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ provider: "simulator", isDefault: true });

    const admins = await ctx.deps.db.select().from(users).where(eq(users.companyId, made.id));
    expect(admins).toHaveLength(1);
    const admin = admins[0]!;
    expect(admin).toMatchObject({ email: body.email, name: "Dona Maria", profile: "admin", super: false });
    // No password anyone knows: not the e-mail, not empty, not a default.
    for (const password of ["", body.email, "123456", "Secret123", "admin", "Admin123"]) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email: body.email, password },
        remoteAddress: "10.9.9.9",
      });
      expect(res.statusCode).not.toBe(200);
    }
    expect(events).toContainEqual({ type: "user.invited", companyId: made.id, userId: admin.id });
    expect(events).toContainEqual({ type: "company.saved", companyId: made.id });
  });

  it("its simulator connection is already paired, as the demo's is", async () => {
    const made = await create();
    const rows = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from baileys_keys where company_id = ${made.id} and category = 'simulator'`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("e-mail and plan are required; name required; an unknown plan is refused", async () => {
    const fields = fieldsOf(await call("POST", "/companies", root, { name: "Sem nada" }));
    expect(Object.keys(fields).sort()).toEqual(["email", "planId"]);
    expect(
      Object.keys(fieldsOf(await call("POST", "/companies", root, { email: "x@y.com", planId }))),
    ).toEqual(["name"]);
    expectError(
      await call("POST", "/companies", root, newCompany({ planId: 2147483647 })),
      400,
      "ERR_COMPANY_PLAN_INVALID",
    );
  });

  it("the admin's e-mail is unique across the platform; a company name too (the duplicate-name hint)", async () => {
    const before = (
      await queryRows<{ n: number }>(ctx.deps.db, sql`select count(*)::int as n from companies`)
    )[0]!.n;
    const takenEmail = await call(
      "POST",
      "/companies",
      root,
      newCompany({ email: a.admin.email.toUpperCase() }),
    );
    expectError(takenEmail, 409, "ERR_EMAIL_ALREADY_EXISTS");
    const takenName = await call(
      "POST",
      "/companies",
      root,
      newCompany({ name: ` ${a.company.name.toUpperCase()} ` }),
    );
    expectError(takenName, 409, "ERR_COMPANY_NAME_TAKEN");
    expect(takenName.json<{ message: string }>().message).toContain("mesmo nome");
    // Nothing was left behind by the refused ones (one transaction).
    const after = (
      await queryRows<{ n: number }>(ctx.deps.db, sql`select count(*)::int as n from companies`)
    )[0]!.n;
    expect(after).toBe(before);
  });
});

describe("PUT /companies/{id}: the full form", () => {
  it("changes the fields sent; an empty or invalid dueDate is null; campaignsEnabled is the company's setting", async () => {
    const made = await create({ dueDate: "2031-01-01" });
    const other = (await buildPlan(ctx.deps.db, { name: `Outro ${uid()}` })).id;
    const changed = expectOk<CompanyDTO>(
      await call("PUT", `/companies/${made.id}`, root, {
        name: `${made.name} renomeada`,
        email: "novo@example.com",
        phone: "",
        planId: other,
        status: false,
        dueDate: "2032-02-29T03:00:00.000Z",
        recurrence: "ANUAL",
        campaignsEnabled: false,
      }),
    );
    expect(changed).toMatchObject({
      name: `${made.name} renomeada`,
      email: "novo@example.com",
      phone: null,
      planId: other,
      plan: { id: other },
      status: false,
      dueDate: "2032-02-29",
      recurrence: "ANUAL",
      campaignsEnabled: false,
    });
    for (const dueDate of ["", "not a date", "2031-02-30", null]) {
      expect(
        expectOk<CompanyDTO>(await call("PUT", `/companies/${made.id}`, root, { dueDate })).dueDate,
      ).toBeNull();
      await call("PUT", `/companies/${made.id}`, root, { dueDate: "2031-01-01" });
    }
    // Left out: kept.
    const kept = expectOk<CompanyDTO>(await call("PUT", `/companies/${made.id}`, root, { status: true }));
    expect(kept).toMatchObject({
      email: "novo@example.com",
      planId: other,
      recurrence: "ANUAL",
      campaignsEnabled: false,
    });
    expect(kept.settings.find((s) => s.key === "campaignsEnabled")?.value).toBe("false");
  });

  it("another company's name is taken; an unknown plan or company is refused", async () => {
    const made = await create();
    expectError(
      await call("PUT", `/companies/${made.id}`, root, { name: b.company.name }),
      409,
      "ERR_COMPANY_NAME_TAKEN",
    );
    expect(
      expectOk<CompanyDTO>(await call("PUT", `/companies/${made.id}`, root, { name: made.name })).name,
    ).toBe(made.name);
    expectError(
      await call("PUT", `/companies/${made.id}`, root, { planId: 2147483647 }),
      400,
      "ERR_COMPANY_PLAN_INVALID",
    );
    expectError(
      await call("PUT", `/companies/2147483647`, root, { status: true }),
      404,
      "ERR_NO_COMPANY_FOUND",
    );
    expect(
      fieldsOf(await call("PUT", `/companies/${made.id}`, root, { recurrence: "SEMANAL" })),
    ).toHaveProperty("recurrence");
  });
});

/** Every table with a company_id column, by the database's own catalogue. */
async function companyTables(): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    ctx.deps.db,
    sql`select distinct c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
        where c.column_name = 'company_id' and c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  return rows.map((r) => r.table_name);
}

async function rowsOf(companyId: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of await companyTables()) {
    const [row] = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from ${sql.identifier(table)} where company_id = ${companyId}`,
    );
    out[table] = row!.n;
  }
  const [company] = await queryRows<{ n: number }>(
    ctx.deps.db,
    sql`select count(*)::int as n from companies where id = ${companyId}`,
  );
  out.companies = company!.n;
  return out;
}

/** A company with something in most of its tables, made through the API where it can be. */
async function populated() {
  const team = await buildTeam(ctx);
  const id = team.company.id;
  const post = async (path: string, payload: object) =>
    expectOk<{ id: number }>(await call("POST", path, team.adminLogin, payload), 201);
  const connection = await post("/whatsapp", { name: "Simulador", provider: "simulator" });
  const contact = await buildContact(ctx.deps.db, id);
  const ticket = await buildTicket(ctx.deps.db, id, { contactId: contact.id, whatsappId: connection.id });
  await buildMessage(ctx.deps.db, id, { ticketId: ticket.id });
  const tag = await post("/tags", { name: `Etiqueta ${uid()}` });
  await call("PUT", `/ticket-tags/${ticket.id}/${tag.id}`, team.adminLogin);
  await post("/quick-messages", { shortcode: `oi${uid()}`, message: "Olá" });
  await post("/ticket-notes", { note: "nota", ticketId: ticket.id, contactId: contact.id });
  await post("/schedules", { body: "depois", contactId: contact.id, sendAt: "2099-01-01T10:00" });
  await post("/queue-options", { queueId: team.queue.id, title: "Opção" });
  const file = await ctx.deps.media.save(id, TINY_PNG, "image/png");
  await queryRows(
    ctx.deps.db,
    sql`insert into jobs (company_id, type, payload) values (${id}, 'test.noop', '{}')`,
  );
  return { team, file };
}

describe("DELETE /companies/{id}", () => {
  it("removes every row and media file of the company, touches no other, and cuts its users' sessions and sockets", async () => {
    const doomed = await populated();
    const bystander = await populated();
    const doomedId = doomed.team.company.id;
    const before = await rowsOf(doomedId);
    for (const table of [
      "users",
      "settings",
      "whatsapps",
      "contacts",
      "tickets",
      "messages",
      "tags",
      "queues",
      "jobs",
    ])
      expect(before[table], table).toBeGreaterThan(0);
    const bystanderBefore = await rowsOf(bystander.team.company.id);
    const socket = await connectSocket(url, doomed.team.agentLogin.token);
    open.push(socket);
    const bystanderSocket = await connectSocket(url, bystander.team.agentLogin.token);
    open.push(bystanderSocket);

    expectOk(await call("DELETE", `/companies/${doomedId}`, root), 204);

    const after = await rowsOf(doomedId);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(await rowsOf(bystander.team.company.id)).toEqual(bystanderBefore);
    expect(fs.existsSync(path.join(ctx.deps.media.root, String(doomedId)))).toBe(false);
    expect(fs.existsSync(path.join(ctx.deps.media.root, bystander.file.path))).toBe(true);

    await waitFor(() => !socket.connected, 2_000);
    expect(bystanderSocket.connected).toBe(true);
    for (const who of [doomed.team.adminLogin, doomed.team.agentLogin])
      expectError(await call("GET", "/auth/me", who), 401, "ERR_NO_SESSION");
    const refresh = await ctx.app.inject({
      method: "POST",
      url: "/auth/refresh_token",
      headers: { cookie: doomed.team.adminLogin.cookie },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await call("GET", "/auth/me", bystander.team.adminLogin)).statusCode).toBe(200);
    expectError(await call("GET", `/companies/${doomedId}`, root), 404, "ERR_NO_COMPANY_FOUND");
    expectError(await call("DELETE", `/companies/${doomedId}`, root), 404, "ERR_NO_COMPANY_FOUND");
  });

  it("every foreign key to a company cascades, so a new table with company_id is emptied with it", async () => {
    const rows = await queryRows<{ table_name: string; cascades: boolean }>(
      ctx.deps.db,
      sql`select k.conrelid::regclass::text as table_name, k.confdeltype = 'c' as cascades
          from pg_constraint k where k.contype = 'f' and k.confrelid = 'companies'::regclass`,
    );
    expect(rows.filter((r) => !r.cascades)).toEqual([]);
    // A table with company_id and no foreign key (a new one, or jobs) is emptied by name.
    await queryRows(
      ctx.deps.db,
      sql`create table if not exists later_feature (id serial primary key, company_id integer)`,
    );
    const made = await create();
    await queryRows(
      ctx.deps.db,
      sql`insert into later_feature (company_id) values (${made.id}), (${a.company.id})`,
    );
    expectOk(await call("DELETE", `/companies/${made.id}`, root), 204);
    const left = await queryRows<{ company_id: number }>(
      ctx.deps.db,
      sql`select company_id from later_feature`,
    );
    expect(left).toEqual([{ company_id: a.company.id }]);
    await queryRows(ctx.deps.db, sql`drop table later_feature`);
  });

  it("the platform's own company cannot be deleted", async () => {
    expectError(
      await call("DELETE", `/companies/${rootCompanyId}`, root),
      400,
      "ERR_CANNOT_DELETE_OWN_COMPANY",
    );
    expect((await rowsOf(rootCompanyId)).companies).toBe(1);
    expect((await call("GET", "/auth/me", root)).statusCode).toBe(200);
  });

  it("a company just created through the API is deleted whole (its simulator connection's session stopped)", async () => {
    const made = await create();
    expectOk(await call("DELETE", `/companies/${made.id}`, root), 204);
    const after = await rowsOf(made.id);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
  });
});
