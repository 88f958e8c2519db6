import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaletteResultsDTO } from "@atende/contracts";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import {
  type Member,
  buildCompany,
  buildContact,
  buildMember,
  buildQueue,
  buildTicket,
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * The command palette's search: what an agent finds is what their ticket list would show (their
 * queues, their own tickets), by contact name, by number and by ticket id; contacts by name; and
 * nothing of another company, not even by id.
 */

let ctx: TestContext;
let sales: Member;
let support: Member;
let admin: Member;
let stranger: Member;
let mine: Awaited<ReturnType<typeof buildTicket>>;
let theirs: Awaited<ReturnType<typeof buildTicket>>;
const call = caller(() => ctx);

const search = async (who: Member, q: string) =>
  expectOk<PaletteResultsDTO>(await call("GET", `/search?q=${encodeURIComponent(q)}`, who.login));
const ticketIds = (r: PaletteResultsDTO) => r.tickets.map((t) => t.id);

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.deps.db;
  const company = await buildCompany(db);
  const [vendas, suporte] = [await buildQueue(db, company.id), await buildQueue(db, company.id)];
  sales = await buildMember(ctx, company.id, { queueIds: [vendas.id] });
  support = await buildMember(ctx, company.id, { queueIds: [suporte.id] });
  admin = await buildMember(ctx, company.id, { profile: "admin" });
  const marina = await buildContact(db, company.id, { name: "Marina Albuquerque", number: "5511987650001" });
  const mauro = await buildContact(db, company.id, { name: "Mauro Albuquerque", number: "5511987650002" });
  mine = await buildTicket(db, company.id, { contactId: marina.id, queueId: vendas.id });
  theirs = await buildTicket(db, company.id, { contactId: mauro.id, queueId: suporte.id });
  const elsewhere = await buildCompany(db);
  stranger = await buildMember(ctx, elsewhere.id, { profile: "admin" });
  await buildContact(db, elsewhere.id, { name: "Marina Albuquerque", number: "5511987650009" });
});
afterAll(async () => {
  await ctx.close();
});

describe("palette search", () => {
  it("finds an agent's queue's ticket by name, by number and by id, never another queue's", async () => {
    expect(ticketIds(await search(sales, "albuquerque"))).toEqual([mine.id]);
    expect(ticketIds(await search(sales, "9876-50001"))).toEqual([mine.id]);
    expect(ticketIds(await search(sales, `#${mine.id}`))).toEqual([mine.id]);
    expect(ticketIds(await search(sales, String(theirs.id)))).not.toContain(theirs.id);
    expect(ticketIds(await search(support, "albuquerque"))).toEqual([theirs.id]);
    // The admin sees every queue, newest activity first.
    expect(ticketIds(await search(admin, "albuquerque")).sort()).toEqual([mine.id, theirs.id].sort());
  });

  it("finds the company's contacts by name, and nothing of another company", async () => {
    const found = await search(sales, "marina");
    expect(found.contacts.map((c) => c.name)).toEqual(["Marina Albuquerque"]);
    expect(found.tickets[0]).toMatchObject({
      id: mine.id,
      uuid: mine.uuid,
      contact: { name: "Marina Albuquerque" },
    });
    const abroad = await search(stranger, "albuquerque");
    expect(ticketIds(abroad)).toEqual([]);
    expect(abroad.contacts.map((c) => c.number)).toEqual(["5511987650009"]);
    expect(ticketIds(await search(stranger, String(mine.id)))).toEqual([]);
  });

  it("answers nothing for nothing typed, refuses text that is too long, and needs a session", async () => {
    expect(await search(sales, "   ")).toEqual({ tickets: [], contacts: [] });
    expect(fieldsOf(await call("GET", `/search?q=${"a".repeat(101)}`, sales.login)).q).toBeTruthy();
    expectError(await call("GET", "/search?q=marina", null), 401, "ERR_NO_SESSION");
  });
});
