import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TICKET_PAGE_SIZE,
  TICKET_SEARCH_COUNT_CAP,
  type TicketListQuery,
  type TicketsPage,
  ticketListQuerySchema,
} from "@atende/contracts";
import {
  type LoggedIn,
  buildCompany,
  buildQueue,
  buildUser,
  login,
  buildContact,
  buildTicket,
  buildMessage,
  uid,
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { type ListViewer, type SearchLimits, SEARCH_LIMITS, pageTickets } from "./searchQueries.js";

/**
 * The tickets search (GET /tickets?searchParam=…): what it finds (a contact's name, any part of
 * their number, a word of any message, accented words), the capped count, and that its two ways
 * (exact from the matching messages, or a walk of the newest tickets for common words) answer
 * the same tickets in the same order.
 */

let ctx: TestContext;
let companyId: number;
let queueA: number;
let queueB: number;
let admin: LoggedIn;
let agentA: LoggedIn & { id: number };
let agentB: LoggedIn & { id: number };

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  const db = ctx.deps.db;
  const company = await buildCompany(db);
  companyId = company.id;
  queueA = (await buildQueue(db, companyId)).id;
  queueB = (await buildQueue(db, companyId)).id;
  const adminRow = await buildUser(db, companyId, { profile: "admin", name: "Admin" });
  const a = await buildUser(db, companyId, { name: "Ana", queueIds: [queueA] });
  const b = await buildUser(db, companyId, { name: "Bia", queueIds: [queueB] });
  admin = await login(ctx, adminRow.email);
  agentA = { ...(await login(ctx, a.email)), id: a.id };
  agentB = { ...(await login(ctx, b.email)), id: b.id };
});
afterAll(async () => {
  await ctx.close();
});

let seq = 0;
const newNumber = () => `55219${String(80_000_000 + ++seq).padStart(8, "0")}`;
/** Tickets are inserted with a last activity one minute apart, newest last, so the order is known. */
let clock = Date.parse("2026-01-01T00:00:00Z");

/** A contact with one ticket and its messages, written straight to the database. */
async function ticketWith(
  bodies: string[],
  opts: { name?: string; number?: string; queueId?: number | null; companyId?: number } = {},
) {
  const db = ctx.deps.db;
  const company = opts.companyId ?? companyId;
  const contact = await buildContact(db, company, {
    name: opts.name ?? `Cliente ${uid()}`,
    number: opts.number ?? newNumber(),
  });
  clock += 60_000;
  const ticket = await buildTicket(db, company, {
    contactId: contact.id,
    queueId: opts.queueId === undefined ? queueA : opts.queueId,
    status: "closed",
    lastMessage: bodies.at(-1) ?? "",
    updatedAt: new Date(clock),
  });
  for (const body of bodies)
    await buildMessage(db, company, { ticketId: ticket.id, contactId: contact.id, body });
  return { id: ticket.id, contact };
}

async function search(who: LoggedIn, searchParam: string, pageNumber = 1) {
  const qs = new URLSearchParams({ searchParam, pageNumber: String(pageNumber) });
  const res = await ctx.app.inject({ method: "GET", url: `/tickets?${qs}`, headers: who.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketsPage>();
}
const found = async (who: LoggedIn, text: string) => (await search(who, text)).tickets.map((t) => t.id);

describe("what the search finds", () => {
  it("a number typed in part: any 4 or more of its digits, with or without punctuation", async () => {
    const number = `55${30 + crypto.randomInt(60)}9${String(crypto.randomInt(10_000_000)).padStart(8, "0")}`;
    const t = await ticketWith(["bom dia"], { number });
    const other = await ticketWith(["bom dia"]);
    const tail = number.slice(-8);
    for (const term of [
      number,
      `+${number}`,
      number.slice(0, 6),
      number.slice(4, 9),
      tail,
      `${tail.slice(0, 4)}-${tail.slice(4)}`,
      `(${number.slice(2, 4)}) ${number.slice(4, 9)}-${number.slice(9)}`,
    ]) {
      const ids = await found(admin, term);
      expect(ids, term).toContain(t.id);
      expect(ids, term).not.toContain(other.id);
    }
    // Three digits from the middle are too few to mean a number.
    expect(await found(admin, number.slice(6, 9))).not.toContain(t.id);
    // Digits inside a word ("recibo" and a code) are no number: the contact is not found by them.
    expect(await found(admin, `recibo${tail.slice(0, 2)}x${tail.slice(2, 6)}`)).not.toContain(t.id);
    expect(await found(admin, `pedido ${tail}`)).not.toContain(t.id);
  });

  it("accented words, in any case and by their beginning, in messages and in names", async () => {
    const word = `instalação${uid()}`;
    const t = await ticketWith([`Sobre a ${word} do ar-condicionado`, "obrigado"], {
      name: "João Conceição",
    });
    for (const term of [word, word.toUpperCase(), word.slice(0, 10), `${word} ar-condicionado`]) {
      expect(await found(admin, term), term).toEqual([t.id]);
    }
    expect(await found(admin, "JOÃO CONCEIÇÃO")).toContain(t.id);
    expect(await found(admin, "conceiç")).toContain(t.id);
    // All the words typed are looked for in one place: the contact, or one message.
    expect(await found(admin, `conceição ${word}`)).toEqual([]);
  });

  it("a word only in an older message of the conversation, not in the contact or the last message", async () => {
    const word = `boleto${uid()}`;
    const t = await ticketWith([`segue o ${word}`, "obrigado", "até logo"]);
    const hidden = await ticketWith([`outro ${word}`], { queueId: queueB });
    expect(await found(admin, word)).toEqual([hidden.id, t.id]);
    // Each viewer finds only what they may see; another company finds nothing.
    expect(await found(agentA, word)).toEqual([t.id]);
    expect(await found(agentB, word)).toEqual([hidden.id]);
    const other = await buildCompany(ctx.deps.db);
    const otherAdmin = await buildUser(ctx.deps.db, other.id, { profile: "admin" });
    await ticketWith([`de lá: ${word}`], { companyId: other.id, queueId: null });
    expect(await found(await login(ctx, otherAdmin.email), word)).toHaveLength(1);
    expect(await found(admin, word)).toEqual([hidden.id, t.id]);
  });
});

describe("the count of a search", () => {
  it(`is exact up to ${TICKET_SEARCH_COUNT_CAP}; more answers ${TICKET_SEARCH_COUNT_CAP + 1}, and the pages still end`, async () => {
    const word = `pedido${uid()}`;
    const total = TICKET_SEARCH_COUNT_CAP + 5;
    const ids: number[] = [];
    for (let i = 0; i < total; i++) ids.push((await ticketWith([`o ${word} chegou`])).id);
    const newestFirst = ids.reverse();

    const pages = [1, 2, 3].map((n) => search(admin, word, n));
    const [first, second, third] = await Promise.all(pages);
    expect(first).toMatchObject({ count: TICKET_SEARCH_COUNT_CAP + 1, hasMore: true });
    expect(first!.tickets.map((t) => t.id)).toEqual(newestFirst.slice(0, TICKET_PAGE_SIZE));
    expect(second!.tickets.map((t) => t.id)).toEqual(
      newestFirst.slice(TICKET_PAGE_SIZE, 2 * TICKET_PAGE_SIZE),
    );
    expect(third).toMatchObject({ count: TICKET_SEARCH_COUNT_CAP + 1, hasMore: false });
    expect(third!.tickets.map((t) => t.id)).toEqual(newestFirst.slice(2 * TICKET_PAGE_SIZE));

    const few = `recibo${uid()}`;
    await ticketWith([`o ${few}`]);
    await ticketWith([`${few} de novo`]);
    expect(await search(admin, few)).toMatchObject({ count: 2, hasMore: false });
  });
});

describe("the two ways of searching", () => {
  /** Each way forced in turn: exact; the walk after the exact way gave up, or at once; walks giving up. */
  const ways: Record<string, SearchLimits> = {
    exact: { exactMessages: 1_000_000, walkBudget: SEARCH_LIMITS.walkBudget, commonShare: 2 },
    walk: { exactMessages: 0, walkBudget: 1_000_000, commonShare: 2 },
    "walk giving up": { exactMessages: 0, walkBudget: 7, commonShare: 2 },
    // A single word taken for common (as PostgreSQL's statistics would say) is walked at once.
    "walk first": { exactMessages: 1_000_000, walkBudget: 1_000_000, commonShare: 0 },
    "walk first giving up": { exactMessages: 1_000_000, walkBudget: 7, commonShare: 0 },
  };

  it("answer the same tickets, pages, counts and hasMore, for each viewer", async () => {
    const common = `favor${uid()}`;
    const rare = `nota${uid()}`;
    const name = `Rafaela${uid()}`;
    for (let i = 0; i < 60; i++) {
      const bodies = [`oi ${i}`, i % 3 === 0 ? `por ${common}` : "ok", i % 17 === 0 ? `a ${rare}` : "certo"];
      await ticketWith(bodies, {
        queueId: [queueA, queueB, null][i % 3]!,
        name: i % 11 === 0 ? `${name} Silva` : undefined,
      });
    }
    // A ticket found by its contact's name only, and one by the message alone, in the mix.
    await ticketWith(["nada"], { name: `${name} Souza`, queueId: queueB });

    const viewers: Record<string, ListViewer> = {
      admin: { userId: 0, isAdmin: true, showAll: true, queueIds: [], allTicket: false, timeZone: "UTC" },
      agentA: {
        userId: agentA.id,
        isAdmin: false,
        showAll: false,
        queueIds: [queueA],
        allTicket: false,
        timeZone: "UTC",
      },
      agentB: {
        userId: agentB.id,
        isAdmin: false,
        showAll: false,
        queueIds: [queueB],
        allTicket: true,
        timeZone: "UTC",
      },
    };
    for (const [who, viewer] of Object.entries(viewers)) {
      for (const text of [common, rare, name, `${name} silva`, `${common} ${rare}`]) {
        for (const pageNumber of [1, 2]) {
          const query: TicketListQuery = ticketListQuerySchema.parse({ searchParam: text, pageNumber });
          const answers = await Promise.all(
            Object.values(ways).map((limits) => pageTickets(ctx.deps.db, companyId, viewer, query, limits)),
          );
          for (const [i, way] of Object.keys(ways).entries())
            expect(answers[i], `${who} · "${text}" · page ${pageNumber} · ${way}`).toEqual(answers[0]);
        }
      }
    }
    // The forced ways were not all answering nothing.
    const all = await pageTickets(
      ctx.deps.db,
      companyId,
      viewers.admin!,
      ticketListQuerySchema.parse({ searchParam: common }),
      ways.walk!,
    );
    expect(all.count).toBe(20);
    expect(all.ids).toHaveLength(20);
  });
});
