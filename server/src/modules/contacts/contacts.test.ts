import * as XLSX from "@e965/xlsx";
import { and, count, eq, sql } from "drizzle-orm";
import type { Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTACT_IMPORT_LIMITS,
  type CompanyEventPayloads,
  type ContactDTO,
  type ContactImportEvent,
  type ContactImportResult,
  type ContactsPage,
  type TicketDTO,
} from "@atende/contracts";
import { contacts, tickets } from "../../db/schema/index.js";
import { buildSimulatorCompany, phoneSends } from "../../test/channels.js";
import { type LoggedIn, buildCompany, buildUser, login } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, record, waitFor } from "../../test/harness.js";
import { workerBundle } from "../../lib/workerBundle.js";
import { loopHold } from "../../test/loopHold.js";
import { buildXlsx, xlsxBomb, xlsxOfSheetData } from "../../test/xlsx.js";
import { type Method, caller, expectError } from "../../test/calls.js";
import { numbersAmong } from "./queries.js";
import { planOf, readsOf } from "../../test/plans.js";

/**
 * Contacts: the list, the dialog's create / edit with the spec's rules, one contact per person
 * (numbers normalized), the WhatsApp check through a connected connection, delete by permission,
 * CSV export and all-or-nothing CSV / XLSX import, tenant isolation and live events.
 */

let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildSimulatorCompany>>;
let agentLogin: LoggedIn;
/** Another company, with no WhatsApp connection at all. */
let otherAdmin: LoggedIn;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  ctx.built.startBackground();
  team = await buildSimulatorCompany(ctx);
  const agent = await buildUser(ctx.deps.db, team.company.id, { queueIds: [team.queues[0]!.id] });
  agentLogin = await login(ctx, agent.email);
  const other = await buildCompany(ctx.deps.db);
  otherAdmin = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await ctx.close();
});

const callAs = caller(() => ctx);
const call = (method: Method, url: string, who: LoggedIn | null, payload?: unknown, lang?: string) =>
  callAs(method, url, who, payload, lang ? { "accept-language": lang } : {});

let seq = 0;
/** A fresh São Paulo mobile number, as digits: 55 11 9XXXX-XXXX. */
const freshNumber = () => `551197${String(1_000_000 + ++seq * 7).slice(-7)}`;

async function createContact(
  fields: Partial<{ name: string; number: string; email: string; extraInfo: unknown[] }> = {},
  who: LoggedIn = team.adminLogin,
): Promise<ContactDTO> {
  const res = await call("POST", "/contacts", who, { name: "Cliente", number: freshNumber(), ...fields });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ContactDTO>();
}

async function contactsWithNumber(companyId: number, number: string): Promise<number> {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.number, number)));
  return row?.n ?? 0;
}

async function companyContactCount(companyId: number): Promise<number> {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(contacts)
    .where(eq(contacts.companyId, companyId));
  return row?.n ?? 0;
}

function importFile(
  body: string | Buffer,
  who: LoggedIn = team.adminLogin,
  opts: { skipInvalid?: boolean; contentType?: string; lang?: string } = {},
) {
  return ctx.app.inject({
    method: "POST",
    url: `/contacts/import${opts.skipInvalid ? "?skipInvalid=true" : ""}`,
    payload: body,
    headers: {
      ...who.auth,
      "content-type": opts.contentType ?? "text/csv",
      ...(opts.lang ? { "accept-language": opts.lang } : {}),
    },
  });
}

function importEvents(body: string): ContactImportEvent[] {
  return body
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as ContactImportEvent);
}

function importResult(body: string): ContactImportResult {
  const last = importEvents(body).at(-1)!;
  expect(last.type, body).toBe("result");
  return last as ContactImportResult;
}

describe("access", () => {
  it("answers 401 without a session", async () => {
    for (const [method, url] of [
      ["GET", "/contacts"],
      ["GET", "/contacts/list"],
      ["GET", "/contacts/1"],
      ["POST", "/contacts"],
      ["PUT", "/contacts/1"],
      ["DELETE", "/contacts/1"],
      ["GET", "/contacts/export"],
      ["POST", "/contacts/import"],
    ] as const) {
      const res = await call(method, url, null, method === "GET" || method === "DELETE" ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error).toBe("ERR_NO_SESSION");
    }
  });
});

describe("validation", () => {
  it("answers the spec's messages for name, number and email", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { name: "Required", number: "Required" }],
      [
        { name: "  ", number: "" },
        { name: "Required", number: "Required" },
      ],
      [
        { name: "A", number: "1234567" },
        { name: "Too Short!", number: "Too Short!" },
      ],
      [
        { name: "x".repeat(51), number: "1".repeat(51) },
        { name: "Too Long!", number: "Too Long!" },
      ],
      [{ name: "Ana", number: "11999990000", email: "ana@" }, { email: "Invalid email" }],
      [
        { name: "Ana", number: "11999990000", extraInfo: [{ name: "", value: "x" }] },
        { "extraInfo.0.name": "Required" },
      ],
    ];
    for (const [payload, fields] of cases) {
      const res = await call("POST", "/contacts", team.adminLogin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().fields).toEqual(fields);
    }
    const es = await call("POST", "/contacts", team.adminLogin, { name: "A", number: "11999990001" }, "es");
    expect(es.json().fields).toEqual({ name: "¡Demasiado corto!" });
  });

  it("accepts a contact without email and with exactly 2 and 50 characters of name", async () => {
    await createContact({ name: "Al" });
    await createContact({ name: "n".repeat(50), email: "" });
  });

  it("refuses a number that is no phone number (invalido)", async () => {
    for (const number of ["abcdefghij", "12345678901234567890"]) {
      const res = await call("POST", "/contacts", team.adminLogin, { name: "Nobody", number });
      expect(res.statusCode, number).toBe(400);
      expect(res.json()).toMatchObject({ error: "ERR_WAPP_INVALID_CONTACT", invalido: true });
    }
  });
});

describe("create and read", () => {
  it("stores the number normalized, the email and the extra info", async () => {
    const res = await call("POST", "/contacts", team.adminLogin, {
      name: "  Maria Souza ",
      number: "(11) 97123-4501",
      email: "maria@example.com",
      extraInfo: [
        { name: "CPF", value: "123.456.789-00" },
        { name: "Plano", value: "Ouro" },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<ContactDTO>();
    expect(created).toMatchObject({
      name: "Maria Souza",
      number: "5511971234501",
      email: "maria@example.com",
      isGroup: false,
    });
    expect(created.extraInfo.map(({ name, value }) => ({ name, value }))).toEqual([
      { name: "CPF", value: "123.456.789-00" },
      { name: "Plano", value: "Ouro" },
    ]);
    const got = await call("GET", `/contacts/${created.id}`, agentLogin);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
  });

  it("keeps one contact per person: two spellings of one number are one contact", async () => {
    const first = await createContact({ number: "+55 (11) 97123-4502" });
    expect(first.number).toBe("5511971234502");
    // With the country code, without it, and the old 8-digit form of a Brazilian mobile.
    for (const spelling of ["5511971234502", "11 97123 4502", "55 11 7123-4502"]) {
      const res = await call("POST", "/contacts", team.adminLogin, { name: "Again", number: spelling });
      expect(res.statusCode, spelling).toBe(409);
      expect(res.json()).toMatchObject({
        error: "ERR_DUPLICATED_CONTACT",
        alreadyExists: true,
        existingContact: { id: first.id, number: "5511971234502" },
      });
    }
    expect(await contactsWithNumber(team.company.id, "5511971234502")).toBe(1);
  });

  it("lets only one of several simultaneous saves of one number through", async () => {
    const number = freshNumber();
    const answers = await Promise.all(
      ["", "+", "+55 "].map((prefix, i) =>
        call("POST", "/contacts", team.adminLogin, {
          name: `Race ${i}`,
          number: prefix ? `${prefix}${number.slice(prefix === "+55 " ? 2 : 0)}` : number,
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    for (const lost of answers.filter((r) => r.statusCode === 409))
      expect(lost.json().existingContact.number).toBe(number);
    expect(await contactsWithNumber(team.company.id, number)).toBe(1);
  });

  it("finds the contact a customer's message creates: the inbound pipeline and the dialog agree", async () => {
    const created = await createContact({ number: "(11) 97123-4503" });
    const sent = await phoneSends(ctx, team.adminLogin, team.connection.id, {
      from: "5511971234503",
      body: "oi",
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    await waitFor(async () => {
      const rows = await ctx.deps.db.select().from(tickets).where(eq(tickets.contactId, created.id));
      return rows.length === 1;
    }, 10_000);
    expect(await contactsWithNumber(team.company.id, "5511971234503")).toBe(1);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expect((await call("GET", "/contacts/999999", team.adminLogin)).json().error).toBe(
      "ERR_NO_CONTACT_FOUND",
    );
    expect((await call("GET", "/contacts/abc", team.adminLogin)).statusCode).toBe(400);
  });
});

describe("WhatsApp check", () => {
  it("refuses a number the connected connection says is not on WhatsApp, and saves nothing", async () => {
    // The simulator answers "not on WhatsApp" for numbers ending in 0000.
    const res = await call("POST", "/contacts", team.adminLogin, { name: "Ghost", number: "11 97777-0000" });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_WAPP_INVALID_CONTACT", invalido: true });
    expect(await contactsWithNumber(team.company.id, "5511977770000")).toBe(0);
  });

  it("checks a changed number on edit too", async () => {
    const contact = await createContact();
    const res = await call("PUT", `/contacts/${contact.id}`, team.adminLogin, { number: "11 97777-0000" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "ERR_WAPP_INVALID_CONTACT", invalido: true });
  });

  it("saves unchecked when the company has no connected connection", async () => {
    const res = await call("POST", "/contacts", otherAdmin, { name: "Offline", number: "11 97777-0000" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().number).toBe("5511977770000");
  });
});

describe("update", () => {
  it("changes the fields sent and replaces the extra info", async () => {
    const contact = await createContact({ extraInfo: [{ name: "A", value: "1" }] });
    const res = await call("PUT", `/contacts/${contact.id}`, agentLogin, {
      name: "Novo Nome",
      email: "novo@example.com",
      extraInfo: [{ name: "B", value: "2" }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ContactDTO>()).toMatchObject({
      name: "Novo Nome",
      email: "novo@example.com",
      number: contact.number,
    });
    expect(res.json<ContactDTO>().extraInfo.map((x) => x.name)).toEqual(["B"]);
    const onlyName = await call("PUT", `/contacts/${contact.id}`, agentLogin, { name: "Só Nome" });
    expect(onlyName.json<ContactDTO>()).toMatchObject({ name: "Só Nome", email: "novo@example.com" });
    expect(onlyName.json<ContactDTO>().extraInfo.map((x) => x.name)).toEqual(["B"]);
  });

  it("validates like create", async () => {
    const contact = await createContact();
    const res = await call("PUT", `/contacts/${contact.id}`, team.adminLogin, { name: "A", email: "x" });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ name: "Too Short!", email: "Invalid email" });
  });

  it("refuses another contact's number (in any spelling) and accepts its own in another spelling", async () => {
    const a = await createContact();
    const b = await createContact();
    const taken = await call("PUT", `/contacts/${b.id}`, team.adminLogin, { number: `+${a.number}` });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: "ERR_DUPLICATED_CONTACT", existingContact: { id: a.id } });
    const own = await call("PUT", `/contacts/${a.id}`, team.adminLogin, {
      number: `(${a.number.slice(2, 4)}) ${a.number.slice(4, 9)}-${a.number.slice(9)}`,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().number).toBe(a.number);
  });
});

describe("delete", () => {
  it("needs contacts-page:deleteContact: a plain user gets 403 and the contact stays", async () => {
    const contact = await createContact();
    const res = await call("DELETE", `/contacts/${contact.id}`, agentLogin);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_NO_PERMISSION");
    expect((await call("GET", `/contacts/${contact.id}`, agentLogin)).statusCode).toBe(200);
  });

  it("lets an admin delete the contact with its tickets", async () => {
    const contact = await createContact();
    const ticket = await call("POST", "/tickets", team.adminLogin, {
      contactId: contact.id,
      queueId: team.queues[0]!.id,
      status: "open",
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const res = await call("DELETE", `/contacts/${contact.id}`, team.adminLogin);
    expect(res.statusCode).toBe(204);
    expect((await call("GET", `/contacts/${contact.id}`, team.adminLogin)).statusCode).toBe(404);
    const left = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, ticket.json<TicketDTO>().id));
    expect(left).toEqual([]);
    expect((await call("DELETE", `/contacts/${contact.id}`, team.adminLogin)).statusCode).toBe(404);
  });
});

describe("list", () => {
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let admin: LoggedIn;

  beforeAll(async () => {
    company = await buildCompany(ctx.deps.db);
    admin = await login(ctx, (await buildUser(ctx.deps.db, company.id, { profile: "admin" })).email);
    for (let i = 1; i <= 25; i++) {
      const res = await call("POST", "/contacts", admin, {
        name: `Pessoa ${String(i).padStart(2, "0")}`,
        number: `5521988${String(i).padStart(6, "0")}`,
        email: i === 7 ? "sete@empresa.com" : "",
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it("pages 20 at a time in name order with count and hasMore", async () => {
    const first = (await call("GET", "/contacts", admin)).json<ContactsPage>();
    expect(first.count).toBe(25);
    expect(first.hasMore).toBe(true);
    expect(first.contacts).toHaveLength(20);
    expect(first.contacts[0]!.name).toBe("Pessoa 01");
    const second = (await call("GET", "/contacts?pageNumber=2", admin)).json<ContactsPage>();
    expect(second.hasMore).toBe(false);
    expect(second.contacts.map((c) => c.name)).toEqual([21, 22, 23, 24, 25].map((i) => `Pessoa ${i}`));
  });

  it("searches name, email and number (typed with punctuation)", async () => {
    const byName = (await call("GET", "/contacts?searchParam=pessoa%201", admin)).json<ContactsPage>();
    expect(byName.contacts.map((c) => c.name)).toEqual(
      ["10", "11", "12", "13", "14", "15", "16", "17", "18", "19"].map((n) => `Pessoa ${n}`),
    );
    const byEmail = (await call("GET", "/contacts?searchParam=SETE@", admin)).json<ContactsPage>();
    expect(byEmail.contacts.map((c) => c.name)).toEqual(["Pessoa 07"]);
    const byNumber = (
      await call("GET", `/contacts?searchParam=${encodeURIComponent("(21) 98800-0013")}`, admin)
    ).json<ContactsPage>();
    expect(byNumber.contacts.map((c) => c.name)).toEqual(["Pessoa 13"]);
    const none = (await call("GET", "/contacts?searchParam=%25_%5C", admin)).json<ContactsPage>();
    expect(none).toEqual({ contacts: [], count: 0, hasMore: false });
  });

  it("filters by creation day", async () => {
    const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
    const on = (await call("GET", `/contacts?date=${today}`, admin)).json<ContactsPage>();
    expect(on.count).toBe(25);
    const before = (await call("GET", "/contacts?dateEnd=2000-01-01", admin)).json<ContactsPage>();
    expect(before.count).toBe(0);
    expect((await call("GET", "/contacts?date=yesterday", admin)).statusCode).toBe(400);
  });

  it("GET /contacts/list answers every contact", async () => {
    const res = await call("GET", "/contacts/list", admin);
    expect(res.statusCode).toBe(200);
    expect(res.json<ContactDTO[]>()).toHaveLength(25);
  });
});

describe("tenant isolation", () => {
  it("answers 404 for another company's contact, whatever the call", async () => {
    const mine = await createContact();
    expect((await call("GET", `/contacts/${mine.id}`, otherAdmin)).statusCode).toBe(404);
    const put = await call("PUT", `/contacts/${mine.id}`, otherAdmin, { name: "Hijack" });
    expect(put.statusCode).toBe(404);
    expect((await call("DELETE", `/contacts/${mine.id}`, otherAdmin)).statusCode).toBe(404);
    expect((await call("GET", `/contacts/${mine.id}`, team.adminLogin)).json().name).toBe("Cliente");
  });

  it("lists, searches and exports only the caller's company", async () => {
    const mine = await createContact({ name: "Segredo da Empresa A" });
    const search = (await call("GET", "/contacts?searchParam=Segredo", otherAdmin)).json<ContactsPage>();
    expect(search.count).toBe(0);
    const list = (await call("GET", "/contacts/list", otherAdmin)).json<ContactDTO[]>();
    expect(list.some((c) => c.id === mine.id)).toBe(false);
    const csv = (await call("GET", "/contacts/export", otherAdmin)).body;
    expect(csv).not.toContain("Segredo");
  });

  it("lets two companies hold the same number, each its own contact", async () => {
    const number = freshNumber();
    await createContact({ number });
    const res = await call("POST", "/contacts", otherAdmin, { name: "Same person", number });
    expect(res.statusCode).toBe(201);
    expect(await contactsWithNumber(team.company.id, number)).toBe(1);
  });
});

describe("export", () => {
  it("writes name, number, email and one column per extra info, spreadsheet-safe", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await login(ctx, (await buildUser(ctx.deps.db, company.id, { profile: "admin" })).email);
    for (const payload of [
      {
        name: "Ana, a primeira",
        number: "5531988000001",
        email: "ana@x.com",
        extraInfo: [{ name: "CPF", value: "1" }],
      },
      { name: '=HYPERLINK("x")', number: "5531988000002", extraInfo: [{ name: "Plano", value: "Ouro" }] },
    ]) {
      expect((await call("POST", "/contacts", admin, payload)).statusCode).toBe(201);
    }
    const res = await call("GET", "/contacts/export", admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(res.body.replace(/^\uFEFF/, "").split("\r\n")).toEqual([
      // Name order; extra-info columns in the order first seen.
      "name,number,email,Plano,CPF",
      `"'=HYPERLINK(""x"")",5531988000002,,Ouro,`,
      '"Ana, a primeira",5531988000001,ana@x.com,,1',
      "",
    ]);
    // The export imports back into another company as the same contacts.
    const again = await importFile(res.rawPayload, otherAdmin);
    const result = importResult(again.body);
    expect(result).toMatchObject({ committed: true, imported: 2, errors: [] });
    const copy = (await call("GET", "/contacts?searchParam=HYPERLINK", otherAdmin)).json<ContactsPage>();
    expect(copy.contacts[0]).toMatchObject({ name: '=HYPERLINK("x")', number: "5531988000002" });
    expect(copy.contacts[0]!.extraInfo.map(({ name, value }) => ({ name, value }))).toEqual([
      { name: "Plano", value: "Ouro" },
    ]);
  });
});

describe("import", () => {
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let admin: LoggedIn;

  beforeAll(async () => {
    company = await buildCompany(ctx.deps.db);
    admin = await login(ctx, (await buildUser(ctx.deps.db, company.id, { profile: "user" })).email);
  });

  it("imports a CSV (semicolons, Windows-1252 accents, extra columns) with progress lines", async () => {
    const csv = Buffer.from(
      "Nome;Número;E-mail;Cidade\r\nJoão Araújo;(41) 98877-0001;joao@x.com;Curitiba\r\n;;;\r\nBeatriz;41 98877-0002;;\r\n",
      "latin1",
    );
    const res = await importFile(csv, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("application/x-ndjson");
    const events = importEvents(res.body);
    expect(events.filter((e) => e.type === "progress").length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({
      type: "result",
      committed: true,
      total: 2,
      imported: 2,
      existing: 0,
      skipped: 0,
      errors: [],
    });
    const list = (await call("GET", "/contacts", admin)).json<ContactsPage>();
    expect(list.contacts.map((c) => [c.name, c.number, c.email])).toEqual([
      ["Beatriz", "5541988770002", ""],
      ["João Araújo", "5541988770001", "joao@x.com"],
    ]);
    expect(list.contacts[1]!.extraInfo.map(({ name, value }) => ({ name, value }))).toEqual([
      { name: "Cidade", value: "Curitiba" },
    ]);
    // The same file again changes nothing: its numbers are already contacts.
    const again = importResult((await importFile(csv, admin)).body);
    expect(again).toMatchObject({ committed: true, imported: 0, existing: 2 });
    expect(await companyContactCount(company.id)).toBe(2);
  });

  it("imports nothing when a row is bad, and reports every bad row", async () => {
    const before = await companyContactCount(company.id);
    const csv = [
      "name,number,email",
      "Carla,41 98877-1001,carla@x.com",
      "C,41 98877-1002,",
      "Dora,123,dora@",
      "Eva,41 98877-1001,",
      "Fábio,41 98877-1005,",
    ].join("\n");
    const res = await importFile(csv, admin);
    expect(res.statusCode).toBe(200);
    const result = importResult(res.body);
    expect(result).toMatchObject({ committed: false, total: 5, imported: 0, skipped: 0 });
    expect(result.errors.map(({ row, field, message }) => ({ row, field, message }))).toEqual([
      { row: 3, field: "name", message: "Too Short!" },
      { row: 4, field: "number", message: "Too Short!" },
      { row: 4, field: "email", message: "Invalid email" },
      { row: 5, field: "number", message: "Número repetido: o mesmo da linha 2" },
    ]);
    expect(result.errors[0]!.value).toBe("C");
    expect(await companyContactCount(company.id)).toBe(before);

    // Asked for, the good rows go in and the bad ones are reported as skipped.
    const partial = importResult((await importFile(csv, admin, { skipInvalid: true })).body);
    expect(partial).toMatchObject({ committed: true, imported: 2, skipped: 3 });
    expect(await companyContactCount(company.id)).toBe(before + 2);
  });

  it("reports a number that cannot be a phone number", async () => {
    const result = importResult(
      (await importFile("name,number\nZé,abcdefghij\nZeca,12345678901234567\n", admin, { lang: "en" })).body,
    );
    expect(result.errors.map((e) => [e.row, e.code, e.message])).toEqual([
      [2, "ERR_WAPP_INVALID_CONTACT", "This is not a valid WhatsApp number."],
      [3, "ERR_WAPP_INVALID_CONTACT", "This is not a valid WhatsApp number."],
    ]);
  });

  it("imports the first sheet of an XLSX file", async () => {
    const file = buildXlsx([
      ["Nome", "Telefone", "Email", "Empresa"],
      ["Gustavo", 5541988772001, "gus@x.com", "ACME"],
      ["Helena", "(41) 98877-2002", "", ""],
    ]);
    const res = await importFile(file, admin, {
      contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
    const result = importResult(res.body);
    expect(result).toMatchObject({ committed: true, imported: 2, errors: [] });
    const got = (await call("GET", "/contacts?searchParam=Gustavo", admin)).json<ContactsPage>();
    expect(got.contacts[0]).toMatchObject({ number: "5541988772001", email: "gus@x.com" });
    expect(got.contacts[0]!.extraInfo.map((x) => [x.name, x.value])).toEqual([["Empresa", "ACME"]]);
  });

  it("refuses a bad file whole with ERR_IMPORT_INVALID_FILE", async () => {
    // Eight imports: a user of its own, under the import's rate limit.
    const admin = await login(ctx, (await buildUser(ctx.deps.db, company.id, { profile: "user" })).email);
    const before = await companyContactCount(company.id);
    const bad: [string, string | Buffer][] = [
      ["empty", ""],
      ["no number column", "name,email\nAna,ana@x.com\n"],
      ["header only", "name,number\n"],
      ["unclosed quote", 'name,number\n"Ana,41988773001\n'],
      ["binary", Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10])],
      ["legacy xls", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0])],
      ["broken zip", Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5])],
    ];
    for (const [what, body] of bad) {
      const res = await importFile(body, admin, { contentType: "application/octet-stream" });
      expect(res.statusCode, what).toBe(400);
      expect(res.json().error, what).toBe("ERR_IMPORT_INVALID_FILE");
    }
    const json = await ctx.app.inject({
      method: "POST",
      url: "/contacts/import",
      payload: { name: "x" },
      headers: admin.auth,
    });
    expect(json.json().error).toBe("ERR_IMPORT_INVALID_FILE");
    expect(await companyContactCount(company.id)).toBe(before);
  });

  // 100 MB inflated before the refusal: 2 s alone, past the default 20 s on a CI run's busiest minute.
  it(
    "refuses a workbook that would unpack into more than 100 MB (a zip bomb)",
    { timeout: 60_000 },
    async () => {
      const bomb = xlsxBomb(120 * 1024 * 1024);
      expect(bomb.length).toBeLessThan(CONTACT_IMPORT_LIMITS.maxBytes);
      const res = await importFile(bomb, admin, { contentType: "application/octet-stream" });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_IMPORT_INVALID_FILE");
    },
  );

  it("refuses more than 10,000 rows and files over 5 MB", async () => {
    const rows = ["name,number"];
    for (let i = 0; i < 10_001; i++) rows.push(`P${i},5541${String(900000000 + i)}`);
    const many = await importFile(rows.join("\n"), admin);
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toBe("ERR_IMPORT_TOO_MANY_ROWS");
    const huge = await importFile(`name,number\n${"x".repeat(5 * 1024 * 1024)}`, admin);
    expect(huge.statusCode).toBe(413);
  });

  it("imports thousands of rows in one go, reporting progress", async () => {
    const other = await buildCompany(ctx.deps.db);
    const who = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
    const rows = ["name,number"];
    for (let i = 0; i < 1200; i++) rows.push(`Lote ${i},5541${String(970000000 + i)}`);
    const res = await importFile(rows.join("\n"), who);
    const events = importEvents(res.body);
    const saves = events.filter((e) => e.type === "progress" && e.phase === "save");
    expect(saves.map((e) => (e as { done: number }).done)).toEqual([500, 1000, 1200]);
    expect(importResult(res.body)).toMatchObject({ committed: true, imported: 1200 });
    expect(await companyContactCount(other.id)).toBe(1200);
  });
});

describe("import off the server's thread", () => {
  it("bundles its worker without the database drivers or the HTTP layer", async () => {
    const code = await workerBundle(new URL("./importWorker.ts", import.meta.url));
    // esbuild names each module it bundles in a comment: none of these may be reached.
    for (const heavy of ["@electric-sql/pglite", "drizzle-orm", "node_modules/pg/", "fastify", "src/db/"])
      expect(code, `the import worker bundles ${heavy}`).not.toContain(heavy);
    expect(code).toContain("@e965/xlsx");
  });

  it(
    "keeps the event loop turning while a 330 KB file that unpacks to 95 MB is read",
    { timeout: 180_000 },
    async () => {
      const who = await login(ctx, (await buildUser(ctx.deps.db, team.company.id)).email);
      // A million rows without their optional references: zipped, about the size the probe sent.
      const row = '<row><c t="inlineStr"><is><t>Fulano</t></is></c><c><v>5541988770009</v></c></row>';
      const bomb = xlsxOfSheetData(
        `<row><c t="inlineStr"><is><t>name</t></is></c><c t="inlineStr"><is><t>number</t></is></c></row>${row.repeat(Math.floor((95 * 1024 * 1024) / row.length))}`,
      );
      expect(bomb.length).toBeLessThan(CONTACT_IMPORT_LIMITS.maxBytes);
      // Warm up (the worker's bundle is built on the first import), so only the big file is measured.
      expectError(await importFile("name,number\n", who), 400, "ERR_IMPORT_INVALID_FILE");

      let answered = false;
      const importing = importFile(bomb, who, { contentType: "application/octet-stream" }).finally(() => {
        answered = true;
      });
      // Meanwhile the server answers other calls.
      const health = (async () => {
        let answers = 0;
        while (!answered) {
          expect((await ctx.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
          answers++;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return answers;
      })();
      const { held, late } = await loopHold(Promise.all([importing, health]));
      expectError(await importing, 400, "ERR_IMPORT_TOO_MANY_ROWS");
      expect(await health).toBeGreaterThan(1);
      expect(held, `held at most ${held} ms (timer late by up to ${late} ms)`).toBeLessThan(100);
    },
  );

  it("reads a workbook as a spreadsheet shows it: rows by their line, numbers whole, a date its day", async () => {
    const who = await login(ctx, (await buildUser(ctx.deps.db, team.company.id)).email);
    // The header on line 3 (a title's lines above it left empty).
    const sheet = XLSX.utils.sheet_add_aoa(
      XLSX.utils.aoa_to_sheet([]),
      [
        ["Nome", "Número", "Nascimento"],
        ["Iara", 5541988773004, new Date(Date.UTC(1990, 0, 31))],
        ["X", 5541988773005, ""],
      ],
      { cellDates: true, UTC: true, origin: "A3" },
    );
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, "Contatos");
    const file = XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
    const result = importResult(
      (await importFile(file, who, { contentType: "application/octet-stream", skipInvalid: true })).body,
    );
    // The header is line 3: "X" (too short a name) is line 5.
    expect(result).toMatchObject({ committed: true, total: 2, imported: 1, skipped: 1 });
    expect(result.errors.map((e) => [e.row, e.field, e.value])).toEqual([[5, "name", "X"]]);
    const got = (await call("GET", "/contacts?searchParam=Iara", who)).json<ContactsPage>();
    expect(got.contacts[0]).toMatchObject({ number: "5541988773004" });
    expect(got.contacts[0]!.extraInfo.map((x) => [x.name, x.value])).toEqual([["Nascimento", "1990-01-31"]]);
  });

  it("refuses a workbook whose data runs past the rows read, even after a stretch of blank rows", async () => {
    const other = await buildCompany(ctx.deps.db);
    const who = await login(ctx, (await buildUser(ctx.deps.db, other.id, { profile: "admin" })).email);
    // 5,000 rows, blank lines, then more rows past line 20,001: the reader stops before them, and
    // must not take the 5,000 for the whole file.
    const rows: (string | number)[][] = [["name", "number"]];
    for (let i = 0; i < 5_000; i++) rows.push([`Cedo ${i}`, 5541_900_000_000 + i]);
    const sheet = XLSX.utils.aoa_to_sheet(rows);
    XLSX.utils.sheet_add_aoa(sheet, [["Tarde", 5541988779999]], { origin: "A20003" });
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, "Contatos");
    const file = XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
    expectError(
      await importFile(file, who, { contentType: "application/octet-stream" }),
      400,
      "ERR_IMPORT_TOO_MANY_ROWS",
    );
    expect(await companyContactCount(other.id)).toBe(0);
  });

  it("limits each user's imports: the eleventh in a minute answers 429 with Retry-After", async () => {
    const who = await login(ctx, (await buildUser(ctx.deps.db, team.company.id)).email);
    const start = Date.now();
    ctx.clock.now = new Date(start);
    try {
      for (let i = 0; i < 10; i++)
        expectError(await importFile("name,number\n", who), 400, "ERR_IMPORT_INVALID_FILE");
      const over = await importFile(`name,number\nLimite,${freshNumber()}\n`, who);
      expectError(over, 429, "ERR_TOO_MANY_REQUESTS");
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
      // Another user is not held back; the same one is after the window.
      expectError(await importFile("name,number\n", team.adminLogin), 400, "ERR_IMPORT_INVALID_FILE");
      ctx.clock.now = new Date(start + 61_000);
      expect(
        importResult((await importFile(`name,number\nDepois,${freshNumber()}\n`, who)).body),
      ).toMatchObject({
        committed: true,
        imported: 1,
      });
    } finally {
      ctx.clock.real();
    }
  });
});

describe("live events", () => {
  it("tells the company's sockets of create, update and delete; never another company's", async () => {
    const base = await ctx.url();
    const mineSocket = await connectSocket(base, agentLogin.token);
    const otherSocket = await connectSocket(base, otherAdmin.token);
    sockets.push(mineSocket, otherSocket);
    const got = record<CompanyEventPayloads["contact"]>(mineSocket, `company-${team.company.id}-contact`);
    const leaked: unknown[] = [];
    otherSocket.onAny((event: string, payload: unknown) => {
      if (event.includes("contact")) leaked.push(payload);
    });

    const contact = await createContact();
    await call("PUT", `/contacts/${contact.id}`, team.adminLogin, { name: "Renomeado" });
    await call("DELETE", `/contacts/${contact.id}`, team.adminLogin);
    await importFile(`name,number\nAo Vivo,${freshNumber()}\n`, team.adminLogin);

    await waitFor(() => got.length >= 4, 5_000);
    expect(got[0]).toMatchObject({ action: "create", contact: { id: contact.id } });
    expect(got[1]).toMatchObject({ action: "update", contact: { id: contact.id, name: "Renomeado" } });
    expect(got[2]).toEqual({ action: "delete", contactId: contact.id });
    expect(got[3]).toMatchObject({ action: "create", contact: { name: "Ao Vivo" } });
    expect(leaked).toEqual([]);
  });
});

describe("existingNumbers' lookup (a CSV import's known numbers)", () => {
  it("reads contacts through the number's unique index, also for more than 100 numbers at once", async () => {
    // A company of 50,000 contacts, analyzed: 150 probes of the index cost less than reading them all.
    const company = await buildCompany(ctx.deps.db);
    await ctx.deps.db.execute(sql`
      insert into contacts (company_id, name, number, is_group)
      select ${company.id}, 'Cliente ' || g, '5531' || lpad(g::text, 9, '0'), false
      from generate_series(1, 50000) g`);
    await ctx.deps.db.execute(sql`analyze contacts`);
    const numbers = Array.from({ length: 150 }, (_, i) => `5531${String(i * 300).padStart(9, "0")}`);
    // Seq scans off: without the index's condition, the plan reads the company's contacts by name.
    const plan = await planOf(ctx.deps.db, numbersAmong(ctx.deps.db, company.id, numbers), [
      "enable_seqscan = off",
    ]);
    expect(readsOf(plan, "contacts")).toEqual(["contacts_company_number_uq"]);
  });
});
