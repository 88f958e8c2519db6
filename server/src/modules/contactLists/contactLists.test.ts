import fs from "node:fs/promises";
import path from "node:path";
import * as XLSX from "@e965/xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type {
  ContactListDTO,
  ContactListImportDTO,
  ContactListItemDTO,
  ContactListItemsPage,
  ContactListsPage,
} from "@atende/contracts";
import { CONTACT_LIST_IMPORT_LIMITS } from "@atende/contracts";
import { contactListImports, contactListItems, contactLists, plans } from "../../db/schema/index.js";
import { enqueueJob } from "../../jobs/runner.js";
import { buildSimulatorCompany } from "../../test/channels.js";
import { type Method, caller, expectError, expectOk, fieldsOf, fileForm } from "../../test/calls.js";
import { type LoggedIn, buildTeam, uid } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";
import { buildXlsx } from "../../test/xlsx.js";
import { caughtUp } from "../../test/settled.js";
import { enqueueListCheck } from "./jobs.js";

/**
 * Contact lists over HTTP on a real database: the Whaticket answer shapes, another company's list
 * is not found, agents reach none of it (the campaigns' permission), the spreadsheet import (counts,
 * duplicates in the file and in the list, bad rows with their line, the ninth digit) and the
 * background WhatsApp check through the simulator (numbers ending in 0000 are not on WhatsApp).
 */

let ctx: TestContext;
let adminA: LoggedIn;
let agentA: LoggedIn;
let adminB: LoggedIn;
const call = caller(() => ctx);

async function withCampaigns(companyPlanId: number | null) {
  if (companyPlanId)
    await ctx.deps.db.update(plans).set({ useCampaigns: true }).where(eq(plans.id, companyPlanId));
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const a = await buildTeam(ctx);
  const b = await buildTeam(ctx);
  await withCampaigns(a.company.planId);
  await withCampaigns(b.company.planId);
  adminA = a.adminLogin;
  agentA = a.agentLogin;
  adminB = b.adminLogin;
});
afterAll(() => ctx.close());

async function createList(who: LoggedIn, name = `Lista ${uid()}`): Promise<ContactListDTO> {
  return expectOk<ContactListDTO>(await call("POST", "/contact-lists", who, { name }), 201);
}

async function addItem(who: LoggedIn, contactListId: number, body: Record<string, unknown>) {
  return call("POST", "/contact-list-items", who, { name: "Fulano", contactListId, ...body });
}

async function items(who: LoggedIn, contactListId: number, extra = ""): Promise<ContactListItemsPage> {
  return expectOk<ContactListItemsPage>(
    await call("GET", `/contact-list-items?contactListId=${contactListId}${extra}`, who),
  );
}

/** The files stored for a company (a refused upload leaves none behind). */
async function storedFiles(companyId: number): Promise<string[]> {
  return (await fs.readdir(path.join(ctx.deps.media.root, String(companyId))).catch(() => [])).sort();
}

/** Uploads a file and runs the import's jobs until it is done. */
async function importFile(
  who: LoggedIn,
  listId: number,
  data: Buffer,
  name: string,
): Promise<ContactListImportDTO> {
  const form = fileForm(data, name, "application/octet-stream");
  const started = expectOk<ContactListImportDTO>(
    await call("POST", `/contact-lists/${listId}/upload`, who, form.payload, form.headers),
  );
  expect(started.status).toBe("queued");
  while ((await ctx.built.channels.jobs.runDue()) > 0);
  return expectOk<ContactListImportDTO>(await call("GET", `/contact-lists/${listId}/import`, who));
}

describe("contact lists", () => {
  it("creates, pages ({records, count, hasMore}), lists, reads, renames and deletes", async () => {
    const name = `Clientes ${uid()}`;
    const list = await createList(adminA, name);
    expect(list).toMatchObject({ name, contactsCount: 0 });
    const page = expectOk<ContactListsPage>(
      await call("GET", `/contact-lists/?searchParam=${encodeURIComponent(name)}&pageNumber=1`, adminA),
    );
    expect(page).toMatchObject({ count: 1, hasMore: false });
    expect(page.records[0]!.id).toBe(list.id);
    const all = expectOk<ContactListDTO[]>(await call("GET", "/contact-lists/list", adminA));
    expect(all.map((l) => l.id)).toContain(list.id);
    const renamed = expectOk<ContactListDTO>(
      await call("PUT", `/contact-lists/${list.id}`, adminA, { name: "Outro" }),
    );
    expect(renamed.name).toBe("Outro");
    expectOk(await call("DELETE", `/contact-lists/${list.id}`, adminA));
    expectError(await call("GET", `/contact-lists/${list.id}`, adminA), 404, "ERR_NO_CONTACT_LIST_FOUND");
  });

  it("validates the name: 2 to 50 ('Too Short!' / 'Too Long!'), required", async () => {
    expect(fieldsOf(await call("POST", "/contact-lists", adminA, { name: "a" })).name).toBe("Too Short!");
    expect(fieldsOf(await call("POST", "/contact-lists", adminA, { name: "a".repeat(51) })).name).toBe(
      "Too Long!",
    );
    expect(fieldsOf(await call("POST", "/contact-lists", adminA, {})).name).toBe("Required");
  });

  it("another company's list and items are not found", async () => {
    const list = await createList(adminA);
    const item = expectOk<ContactListItemDTO>(
      await addItem(adminA, list.id, { number: "5511987654321" }),
      201,
    );
    expectError(await call("GET", `/contact-lists/${list.id}`, adminB), 404, "ERR_NO_CONTACT_LIST_FOUND");
    expectError(
      await call("PUT", `/contact-lists/${list.id}`, adminB, { name: "x1" }),
      404,
      "ERR_NO_CONTACT_LIST_FOUND",
    );
    expectError(await call("DELETE", `/contact-lists/${list.id}`, adminB), 404, "ERR_NO_CONTACT_LIST_FOUND");
    expectError(
      await call("GET", `/contact-list-items?contactListId=${list.id}`, adminB),
      404,
      "ERR_NO_CONTACT_LIST_FOUND",
    );
    expectError(
      await addItem(adminB, list.id, { number: "5511987654322" }),
      404,
      "ERR_NO_CONTACT_LIST_FOUND",
    );
    expectError(
      await call("GET", `/contact-list-items/${item.id}`, adminB),
      404,
      "ERR_NO_CONTACT_LIST_ITEM_FOUND",
    );
    expectError(
      await call("DELETE", `/contact-list-items/${item.id}`, adminB),
      404,
      "ERR_NO_CONTACT_LIST_ITEM_FOUND",
    );
    const form = fileForm(Buffer.from("nome,numero\nA,5511987654323\n"), "a.csv", "text/csv");
    expectError(
      await call("POST", `/contact-lists/${list.id}/upload`, adminB, form.payload, form.headers),
      404,
      "ERR_NO_CONTACT_LIST_FOUND",
    );
  });

  it("a plan without campaigns is refused", async () => {
    const c = await buildTeam(ctx);
    expectError(await call("GET", "/contact-lists/", c.adminLogin), 403, "ERR_PLAN_FEATURE_DISABLED");
  });
});

describe("contact list items", () => {
  it("adds, pages ({contacts, count, hasMore}), searches, edits; one number with or without the ninth digit", async () => {
    const list = await createList(adminA);
    const item = expectOk<ContactListItemDTO>(
      await addItem(adminA, list.id, { name: "Maria", number: "+55 (11) 98765-4321", email: "M@x.com" }),
      201,
    );
    expect(item).toMatchObject({ number: "5511987654321", email: "m@x.com", isWhatsappValid: null });
    // The same person without the ninth digit.
    expectError(
      await addItem(adminA, list.id, { number: "55 11 8765-4321" }),
      409,
      "ERR_CONTACT_LIST_ITEM_DUPLICATED",
    );
    expectOk(await addItem(adminA, list.id, { name: "Ana", number: "(21) 99999-1111" }), 201);
    const page = await items(adminA, list.id);
    expect(page).toMatchObject({ count: 2, hasMore: false });
    expect(page.contacts.map((c) => c.name)).toEqual(["Ana", "Maria"]);
    expect((await items(adminA, list.id, "&searchParam=mar")).contacts.map((c) => c.id)).toEqual([item.id]);
    const edited = expectOk<ContactListItemDTO>(
      await call("PUT", `/contact-list-items/${item.id}`, adminA, { name: "Maria S" }),
    );
    expect(edited.name).toBe("Maria S");
    expect(expectOk<ContactListItemDTO>(await call("GET", `/contact-list-items/${item.id}`, adminA))).toEqual(
      edited,
    );
    // A list never imported into has no latest import.
    expect(expectOk(await call("GET", `/contact-lists/${list.id}/import`, adminA))).toBeNull();
    expect(
      expectOk<ContactListDTO>(await call("GET", `/contact-lists/${list.id}`, adminA)).contactsCount,
    ).toBe(2);
  });

  it("validates: name 2-50, number 8-50, email valid ('Invalid email')", async () => {
    const list = await createList(adminA);
    const f = fieldsOf(await addItem(adminA, list.id, { name: "A", number: "123", email: "nope" }));
    expect(f).toMatchObject({ name: "Too Short!", number: "Too Short!", email: "Invalid email" });
    expectError(
      await addItem(adminA, list.id, { number: "12345678" }),
      400,
      "ERR_CONTACT_LIST_ITEM_INVALID_NUMBER",
    );
  });

  it("an admin deletes an item", async () => {
    const list = await createList(adminA);
    const item = expectOk<ContactListItemDTO>(
      await addItem(adminA, list.id, { number: "5511912345678" }),
      201,
    );
    expectOk(await call("DELETE", `/contact-list-items/${item.id}`, adminA));
    expectError(
      await call("GET", `/contact-list-items/${item.id}`, adminA),
      404,
      "ERR_NO_CONTACT_LIST_ITEM_FOUND",
    );
  });

  it("tells the company's admins live on company-{id}-ContactList and -ContactListItem; its agents hear nothing", async () => {
    const url = await ctx.url();
    const socket = await connectSocket(url, adminA.token);
    const agentSocket = await connectSocket(url, agentA.token);
    const lists: unknown[] = [];
    const itemsHeard: unknown[] = [];
    const agentHeard: string[] = [];
    socket.on(`company-${adminA.user.companyId}-ContactList`, (p: unknown) => lists.push(p));
    socket.on(`company-${adminA.user.companyId}-ContactListItem`, (p: unknown) => itemsHeard.push(p));
    agentSocket.onAny((event: string) => {
      if (event.includes("ContactList")) agentHeard.push(event);
    });
    try {
      const list = await createList(adminA);
      const item = expectOk<ContactListItemDTO>(
        await addItem(adminA, list.id, { number: "5511911112222" }),
        201,
      );
      await waitFor(() => itemsHeard.length >= 1 && lists.length >= 2);
      expect(lists[0]).toMatchObject({ action: "create", record: { id: list.id } });
      expect(itemsHeard[0]).toMatchObject({ action: "create", record: { id: item.id } });
      await caughtUp(agentSocket);
      expect(agentHeard).toEqual([]);
    } finally {
      socket.close();
      agentSocket.close();
    }
  });
});

describe("who may touch contact lists", () => {
  /** Company A's lists and items as the database holds them. */
  async function rowsOfA() {
    const companyId = adminA.user.companyId;
    return {
      lists: await ctx.deps.db.select().from(contactLists).where(eq(contactLists.companyId, companyId)),
      items: await ctx.deps.db
        .select()
        .from(contactListItems)
        .where(eq(contactListItems.companyId, companyId)),
      imports: await ctx.deps.db
        .select()
        .from(contactListImports)
        .where(eq(contactListImports.companyId, companyId)),
    };
  }

  it("an agent gets 403 ERR_NO_PERMISSION on every list and item call, as on campaigns, and nothing changes", async () => {
    const list = await createList(adminA);
    const item = expectOk<ContactListItemDTO>(
      await addItem(adminA, list.id, { number: "5511912340001" }),
      201,
    );
    const before = await rowsOfA();
    const sheet = fileForm(Buffer.from("name,number\nFulano,5511912340003\n"), "lista.csv", "text/csv");
    const calls: [Method, string, unknown?, Record<string, string>?][] = [
      ["POST", "/contact-lists", { name: "Agent list" }],
      ["PUT", `/contact-lists/${list.id}`, { name: "Renamed by agent" }],
      ["DELETE", `/contact-lists/${list.id}`],
      ["POST", `/contact-lists/${list.id}/upload`, sheet.payload, sheet.headers],
      [
        "POST",
        "/contact-list-items",
        { name: "Agent item", number: "5511912340002", contactListId: list.id },
      ],
      ["PUT", `/contact-list-items/${item.id}`, { name: "Renamed by agent" }],
      ["DELETE", `/contact-list-items/${item.id}`],
      ["GET", "/contact-lists"],
      ["GET", "/contact-lists/list"],
      ["GET", `/contact-lists/${list.id}`],
      ["GET", `/contact-lists/${list.id}/import`],
      ["GET", `/contact-lists/${list.id}/imports/1/errors.csv`],
      ["GET", "/contact-lists/example.xlsx"],
      ["GET", `/contact-list-items?contactListId=${list.id}`],
      ["GET", `/contact-list-items/${item.id}`],
      ["GET", "/campaigns"],
    ];
    for (const [method, url, payload, headers] of calls)
      expectError(await call(method, url, agentA, payload, headers), 403, "ERR_NO_PERMISSION");
    expect(await rowsOfA()).toEqual(before);
    // The admin still does all of it.
    expectOk(await call("PUT", `/contact-list-items/${item.id}`, adminA, { name: "Renamed by admin" }));
    expectOk(await call("DELETE", `/contact-lists/${list.id}`, adminA));
  });
});

// Each import reads its file in a worker thread (a second or more to start on a busy machine).
describe("spreadsheet import", { timeout: 60_000 }, () => {
  it("imports an .xlsx: loose headers, duplicates in the file and in the list counted, bad rows with their line", async () => {
    const list = await createList(adminA);
    expectOk(await addItem(adminA, list.id, { name: "Já", number: "5511955554444" }), 201);
    const file = buildXlsx([
      ["Nome", "Número", "E-mail"],
      ["Ana", 5511911110001, "ana@x.com"], // row 2: ok (a number cell)
      ["Bia", "(11) 98888-0002", ""], // row 3: ok
      ["Bia de novo", "11 8888-0002", ""], // row 4: the same as row 3 without the ninth digit
      ["Já está", "+55 11 95555-4444", ""], // row 5: already in the list
      ["Sem número", "", ""], // row 6: no number
      ["Ruim", "12ab", ""], // row 7: not a number
      ["Email ruim", "5511911110003", "not-an-email"], // row 8: bad email
      ["", "", ""], // row 9: empty, ignored
      ["Caio", "5521988887777", "caio@x.com"], // row 10: ok
    ]);
    const done = await importFile(adminA, list.id, file, "lista.xlsx");
    expect(done).toMatchObject({ status: "done", totalRows: 9, imported: 3, duplicates: 2, invalid: 3 });
    expect(done.errors).toEqual([
      { row: 6, reason: "import.noNumber", value: "Sem número" },
      { row: 7, reason: "import.invalidNumber", value: "12ab" },
      { row: 8, reason: "validation.invalidEmail", value: "not-an-email" },
    ]);
    const page = await items(adminA, list.id);
    expect(page.count).toBe(4);
    expect(page.contacts.find((c) => c.name === "Bia")!.number).toBe("5511988880002");
    const csv = await call("GET", `/contact-lists/${list.id}/imports/${done.id}/errors.csv`, adminA);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain("Sem número");
    expect(csv.body.split("\r\n").filter(Boolean)).toHaveLength(4);
    expectError(
      await call("GET", `/contact-lists/${list.id}/imports/${done.id}/errors.csv`, adminB),
      404,
      "ERR_NO_CONTACT_LIST_FOUND",
    );
  });

  it("imports a .csv with english headers; importing it again adds nothing", async () => {
    const list = await createList(adminA);
    const csv = Buffer.from("name;number;email\nJohn;5511977776666;j@x.com\nJane;5511977775555;\n");
    const first = await importFile(adminA, list.id, csv, "c.csv");
    expect(first).toMatchObject({ status: "done", imported: 2, duplicates: 0, invalid: 0 });
    const again = await importFile(adminA, list.id, csv, "c.csv");
    expect(again).toMatchObject({ status: "done", imported: 0, duplicates: 2 });
  });

  it("counts across batches: 2.4 batches of rows, repeats spanning batch boundaries, progress to the last row", async () => {
    const list = await createList(adminA);
    const { batchRows } = CONTACT_LIST_IMPORT_LIMITS;
    const n = Math.round(batchRows * 2.4);
    // Not a multiple of 100: the row repeated is never itself a repeat.
    const back = Math.round(batchRows * 0.9) + 50;
    const lines = ["nome,numero"];
    // Every 100th row repeats the number of the row 0.9 batch earlier (mostly in the batch before).
    const repeatsRow = (i: number) => i % 100 === 99 && i >= back;
    for (let i = 0; i < n; i++)
      lines.push(`P${i},55119810${String(repeatsRow(i) ? i - back : i).padStart(5, "0")}`);
    const done = await importFile(adminA, list.id, Buffer.from(lines.join("\n")), "big.csv");
    const repeats = [...Array(n).keys()].filter(repeatsRow).length;
    expect(done).toMatchObject({
      status: "done",
      totalRows: n,
      processedRows: n,
      imported: n - repeats,
      duplicates: repeats,
      invalid: 0,
    });
    expect((await items(adminA, list.id)).count).toBe(n - repeats);
  });

  it("reads the file once: the upload's reading goes on to the job (here, with the stored file gone)", async () => {
    const list = await createList(adminA);
    const csv = Buffer.from("nome,numero\nUm,5511977771111\nDois,5511977772222\n");
    const form = fileForm(csv, "uma-vez.csv", "application/octet-stream");
    const before = await storedFiles(adminA.user.companyId);
    const started = expectOk<ContactListImportDTO>(
      await call("POST", `/contact-lists/${list.id}/upload`, adminA, form.payload, form.headers),
    );
    // The upload already counted the rows (the page shows the total at once).
    expect(started).toMatchObject({ status: "queued", totalRows: 2, processedRows: 0 });
    const added = (await storedFiles(adminA.user.companyId)).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    await fs.rm(path.join(ctx.deps.media.root, String(adminA.user.companyId), added[0]!));
    while ((await ctx.built.channels.jobs.runDue()) > 0);
    const done = expectOk<ContactListImportDTO>(
      await call("GET", `/contact-lists/${list.id}/import`, adminA),
    );
    expect(done).toMatchObject({ status: "done", imported: 2 });
  });

  it("resumes after the last committed batch: rows before it are not read into the list again", async () => {
    const list = await createList(adminA);
    const lines = ["nome,numero"];
    for (let i = 0; i < 1000; i++) lines.push(`R${i},55119820${String(i % 700).padStart(5, "0")}`);
    // As a crash would leave it: the first 500 rows committed (here: none of their items kept, to
    // tell a re-read from a resume), the job about to run again.
    const stored = await ctx.deps.media.save(
      adminA.user.companyId,
      Buffer.from(lines.join("\n")),
      "text/csv",
    );
    const [row] = await ctx.deps.db
      .insert(contactListImports)
      .values({
        companyId: adminA.user.companyId,
        contactListId: list.id,
        fileName: "resume.csv",
        path: stored.path,
        status: "running",
        totalRows: 1000,
        processedRows: 500,
        imported: 500,
      })
      .returning();
    await enqueueJob(ctx.deps.db, { type: "contact-list-import", payload: { importId: row!.id } });
    while ((await ctx.built.channels.jobs.runDue()) > 0);
    const done = expectOk<ContactListImportDTO>(
      await call("GET", `/contact-lists/${list.id}/import`, adminA),
    );
    // Rows 501-700 are new; 701-1000 repeat rows 1-300 of the file (known from the re-read, not the list).
    expect(done).toMatchObject({ status: "done", processedRows: 1000, imported: 700, duplicates: 300 });
    expect((await items(adminA, list.id)).count).toBe(200);
  });

  it("imports 3,000 rows in the background: an event per batch, and the page's reload shows the rows written so far", async () => {
    const list = await createList(adminA);
    const rows: (string | number)[][] = [["Nome completo", "Celular (WhatsApp)", "E-mail"]];
    for (let i = 0; i < 3000; i++) {
      if (i % 1000 === 999) rows.push([`Ruim ${i}`, "abc", ""]);
      else if (i % 500 === 250) rows.push([`Repete ${i}`, 5511970000000 + i - 1, ""]);
      else rows.push([`Pessoa ${i}`, 5511970000000 + i, `p${i}@x.com`]);
    }
    const bad = 3;
    const repeats = 6;
    const socket = await connectSocket(await ctx.url(), adminA.token);
    const heard: ContactListImportDTO[] = [];
    const duringImport: ContactListImportDTO[] = [];
    const asked: Promise<void>[] = [];
    socket.on(`company-${adminA.user.companyId}-ContactListImport`, (p: { record: ContactListImportDTO }) => {
      heard.push(p.record);
      // The page reloads its progress on an event: that call sees at least the batch announced.
      if (p.record.status === "running" && asked.length === 0)
        asked.push(
          call("GET", `/contact-lists/${list.id}/import`, adminA).then((res) => {
            duringImport.push(expectOk<ContactListImportDTO>(res));
          }),
        );
    });
    try {
      const form = fileForm(buildXlsx(rows), "grande.xlsx", "application/octet-stream");
      const started = expectOk<ContactListImportDTO>(
        await call("POST", `/contact-lists/${list.id}/upload`, adminA, form.payload, form.headers),
      );
      expect(started).toMatchObject({ status: "queued", processedRows: 0 });
      while ((await ctx.built.channels.jobs.runDue()) > 0);
      await Promise.all(asked);
      await waitFor(() => heard.some((r) => r.status === "done"));
    } finally {
      socket.close();
    }
    const done = expectOk<ContactListImportDTO>(
      await call("GET", `/contact-lists/${list.id}/import`, adminA),
    );
    expect(done).toMatchObject({
      status: "done",
      totalRows: 3000,
      processedRows: 3000,
      imported: 3000 - bad - repeats,
      duplicates: repeats,
      invalid: bad,
    });
    expect(done.errors.map((e) => e.row)).toEqual([1001, 2001, 3001]);
    expect((await items(adminA, list.id)).count).toBe(3000 - bad - repeats);
    // Live progress: one event per batch, in order, the last one done.
    const { batchRows } = CONTACT_LIST_IMPORT_LIMITS;
    const batches = Math.ceil(3000 / batchRows);
    const progress = heard.filter((r) => r.id === done.id && r.status !== "queued");
    expect(progress.map((r) => r.processedRows)).toEqual(
      [...Array(batches).keys()].map((i) => Math.min(3000, (i + 1) * batchRows)),
    );
    expect(progress.at(-1)!.status).toBe("done");
    // The call made on the first event was answered with the rows written by then.
    expect(duringImport).toHaveLength(1);
    expect(duringImport[0]!.id).toBe(done.id);
    expect(duringImport[0]!.processedRows).toBeGreaterThanOrEqual(Math.min(3000, batchRows));
    expect(duringImport[0]!.imported).toBeGreaterThanOrEqual(progress[0]!.imported);
  }, 120_000);

  it("refuses at upload a spreadsheet over 100,000 rows, and keeps nothing of it", async () => {
    const before = await storedFiles(adminA.user.companyId);
    const list = await createList(adminA);
    const rows: (string | number)[][] = [["nome", "numero"]];
    for (let i = 0; i < 100_001; i++) rows.push(["", 5511900000000 + i]);
    // As Excel and SheetJS write it: with the sheet's dimension, so the size is known from the header.
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Contatos");
    const data = XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
    const form = fileForm(data, "enorme.xlsx", "application/octet-stream");
    expectError(
      await call("POST", `/contact-lists/${list.id}/upload`, adminA, form.payload, form.headers),
      413,
      "ERR_CONTACT_LIST_IMPORT_TOO_LARGE",
    );
    expect(await storedFiles(adminA.user.companyId)).toEqual(before);
    expect(expectOk(await call("GET", `/contact-lists/${list.id}/import`, adminA))).toBeNull();
  }, 60_000);

  it("refuses a file without a number column, or not a spreadsheet", async () => {
    const list = await createList(adminA);
    const noNumber = fileForm(Buffer.from("nome,cidade\nAna,SP\n"), "x.csv", "text/csv");
    expectError(
      await call("POST", `/contact-lists/${list.id}/upload`, adminA, noNumber.payload, noNumber.headers),
      400,
      "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN",
    );
    const png = fileForm(Buffer.from("nome,numero\n"), "x.png", "image/png");
    expectError(
      await call("POST", `/contact-lists/${list.id}/upload`, adminA, png.payload, png.headers),
      400,
      "ERR_CONTACT_LIST_IMPORT_INVALID_FILE",
    );
  });

  it("serves the example spreadsheet, which imports as is", async () => {
    const res = await call("GET", "/contact-lists/example.xlsx", adminA);
    expect(res.statusCode).toBe(200);
    const list = await createList(adminA);
    const done = await importFile(adminA, list.id, res.rawPayload, "planilha_exemplo.xlsx");
    expect(done).toMatchObject({ status: "done", imported: 2, invalid: 0 });
  });

  it("limits each user's uploads: the eleventh in a minute answers 429 with Retry-After", async () => {
    const team = await buildTeam(ctx);
    await withCampaigns(team.company.planId);
    const list = await createList(team.adminLogin);
    const upload = () => {
      const form = fileForm(Buffer.from("nome,cidade\nAna,SP\n"), "x.csv", "text/csv");
      return call("POST", `/contact-lists/${list.id}/upload`, team.adminLogin, form.payload, form.headers);
    };
    const start = Date.now();
    ctx.clock.now = new Date(start);
    try {
      for (let i = 0; i < 10; i++)
        expectError(await upload(), 400, "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN");
      const over = await upload();
      expectError(over, 429, "ERR_TOO_MANY_REQUESTS");
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
      ctx.clock.now = new Date(start + 61_000);
      expectError(await upload(), 400, "ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN");
    } finally {
      ctx.clock.real();
    }
  });
});

describe("the WhatsApp check", { timeout: 60_000 }, () => {
  it("marks each number through the list's connection; numbers ending in 0000 are not on WhatsApp", async () => {
    const sim = await buildSimulatorCompany(ctx, { bot: false });
    await withCampaigns(sim.company.planId);
    const who = sim.adminLogin;
    const list = expectOk<ContactListDTO>(
      await call("POST", "/contact-lists", who, { name: "Sim", whatsappId: sim.connection.id }),
      201,
    );
    const csv = Buffer.from("nome,numero\nSim,5511987650001\nNão,5511987650000\n");
    await importFile(who, list.id, csv, "s.csv");
    await waitFor(async () => {
      await ctx.built.channels.jobs.runDue();
      return (await items(who, list.id)).contacts.every((c) => c.isWhatsappValid !== null);
    }, 10_000);
    const byName = Object.fromEntries(
      (await items(who, list.id)).contacts.map((c) => [c.name, c.isWhatsappValid]),
    );
    expect(byName).toEqual({ Sim: true, Não: false });
    // A number added by hand is checked too.
    const added = expectOk<ContactListItemDTO>(
      await addItem(who, list.id, { name: "Zeca", number: "5511987650002" }),
      201,
    );
    await waitFor(async () => {
      await ctx.built.channels.jobs.runDue();
      return (
        expectOk<ContactListItemDTO>(await call("GET", `/contact-list-items/${added.id}`, who))
          .isWhatsappValid === true
      );
    }, 10_000);
  });

  it("lets the server's event loop turn while it checks a long list (PGlite runs on the server's thread)", async () => {
    const sim = await buildSimulatorCompany(ctx, { bot: false });
    await withCampaigns(sim.company.planId);
    const list = expectOk<ContactListDTO>(
      await call("POST", "/contact-lists", sim.adminLogin, { name: "Longa", whatsappId: sim.connection.id }),
      201,
    );
    await ctx.deps.db.insert(contactListItems).values(
      Array.from({ length: 1000 }, (_, i) => ({
        companyId: sim.company.id,
        contactListId: list.id,
        name: `P${i}`,
        number: `55119860${String(i).padStart(5, "0")}`,
      })),
    );
    await enqueueListCheck(ctx.deps.db, sim.company.id, { id: list.id, whatsappId: sim.connection.id });
    // A timer fires only when the event loop turns: where the database answers without I/O, a check
    // that never yields keeps every request waiting until it ends (20 s for 40,000 numbers).
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      while ((await ctx.built.channels.jobs.runDue()) > 0);
    } finally {
      clearInterval(timer);
    }
    expect((await items(sim.adminLogin, list.id)).contacts.every((c) => c.isWhatsappValid !== null)).toBe(
      true,
    );
    // 1,000 numbers are 10 batches of 100 (a query each): the loop turned between them.
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it("refuses another company's connection for a list", async () => {
    const sim = await buildSimulatorCompany(ctx, { bot: false });
    expectError(
      await call("POST", "/contact-lists", adminA, { name: "Alheia", whatsappId: sim.connection.id }),
      404,
      "ERR_NO_WAPP_FOUND",
    );
  });
});
