import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsappNumberChecks } from "../../db/schema/index.js";
import { buildCompany, buildConnection } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { dbAuthStore } from "../authStore.js";
import type { FakeSocket } from "./fixtures/fakeSocket.js";
import { startProvider } from "./fixtures/harness.js";

/**
 * Checking numbers on WhatsApp without putting the number at risk: the Baileys session on a fake
 * socket that counts its usync queries (onWhatsApp calls), its answers kept in the real database.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A clock whose sleep moves it at once: the pauses are measured, never waited. */
function testClock() {
  const clock = { at: Date.now(), now: () => clock.at, sleep: async (ms: number) => void (clock.at += ms) };
  return clock;
}

const pad = (i: number) => String(i).padStart(7, "0");
/** Mobile i of São Paulo, with the ninth digit (as Atende stores it). */
const mobile = (i: number) => `551198${pad(i)}`;
/**
 * WhatsApp's side: every third number has no account, every third still has the 8-digit jid of an
 * account made before the ninth digit, the rest have the 9-digit one.
 */
function whatsAppJidOf(phone: string): string | undefined {
  if (phone.length === 13 && phone.startsWith("551198") && Number(phone.slice(6)) % 3 === 2)
    return `${phone}@s.whatsapp.net`;
  if (phone.length === 12 && phone.startsWith("55118") && Number(phone.slice(5)) % 3 === 1)
    return `${phone}@s.whatsapp.net`;
  return undefined;
}

/** Records when each query reached the socket. */
function timeQueries(socket: FakeSocket, clock: { now(): number }) {
  const at: number[] = [];
  const ask = socket.onWhatsApp;
  socket.onWhatsApp = async (...numbers) => {
    at.push(clock.now());
    return ask(...numbers);
  };
  return at;
}

describe("checking numbers on WhatsApp", () => {
  it("checks 40,000 numbers in 400 queries, never back to back; asked again, on this instance or after a restart, it asks nothing", async () => {
    const db = ctx.deps.db;
    const company = await buildCompany(db);
    const first = await buildConnection(db, company.id, { provider: "beta" });
    const clock = testClock();
    const a = await startProvider(
      { numberChecks: { clock } },
      { store: dbAuthStore(db, company.id, first.id) },
    );
    await a.connect();
    const socket = a.current();
    socket.whatsAppJidOf = whatsAppJidOf;
    const queriedAt = timeQueries(socket, clock);

    const numbers = Array.from({ length: 40_000 }, (_, i) => mobile(i));
    const answers = await a.session.checkNumbers!(numbers);

    expect(socket.lookups).toHaveLength(400);
    // 100 numbers per query, each Brazilian mobile in its two forms.
    expect(Math.max(...socket.lookups.map((phones) => phones.length))).toBe(200);
    for (let i = 1; i < queriedAt.length; i++)
      expect(queriedAt[i]! - queriedAt[i - 1]!).toBeGreaterThanOrEqual(2000);
    expect([...answers.values()].filter(Boolean)).toHaveLength(26_666);
    expect(answers.get(mobile(0))).toBeNull();
    expect(answers.get(mobile(1))).toStrictEqual({ number: mobile(1), isGroup: false });
    expect(answers.get(mobile(2))).toStrictEqual({ number: mobile(2), isGroup: false });
    expect(await db.$count(whatsappNumberChecks, eq(whatsappNumberChecks.companyId, company.id))).toBe(
      40_000,
    );

    await a.session.checkNumbers!(numbers);
    expect(await a.session.checkNumber(mobile(39_999))).toBeNull();
    expect(socket.lookups).toHaveLength(400);

    // Another instance (or this one restarted) running another connection of the company.
    const second = await buildConnection(db, company.id, { provider: "beta" });
    const b = await startProvider(
      { numberChecks: { clock } },
      { store: dbAuthStore(db, company.id, second.id) },
    );
    await b.connect();
    b.current().whatsAppJidOf = whatsAppJidOf;
    expect(await b.session.checkNumbers!(numbers)).toStrictEqual(answers);
    // Sending uses the jid WhatsApp answered (the 8-digit one of an old account), still without asking.
    await b.session.send({ to: { number: mobile(1), isGroup: false }, body: "Oi" });
    expect(b.current().sent[0]?.jid).toBe(`55118${pad(1)}@s.whatsapp.net`);
    expect(b.current().lookups).toHaveLength(0);

    // Another company asks for itself.
    const stranger = await buildCompany(db);
    const theirs = await buildConnection(db, stranger.id, { provider: "beta" });
    const c = await startProvider(
      { numberChecks: { clock } },
      { store: dbAuthStore(db, stranger.id, theirs.id) },
    );
    await c.connect();
    c.current().whatsAppJidOf = whatsAppJidOf;
    expect(await c.session.checkNumber(mobile(2))).toStrictEqual({ number: mobile(2), isGroup: false });
    expect(c.current().lookups).toHaveLength(1);
    for (const p of [a, b, c]) await p.session.stop();
  }, 120_000);

  it("a number that has no account is asked again the next day; one that has is believed for a week", async () => {
    const db = ctx.deps.db;
    const company = await buildCompany(db);
    const connection = await buildConnection(db, company.id, { provider: "beta" });
    const clock = testClock();
    const p = await startProvider(
      { numberChecks: { clock } },
      { store: dbAuthStore(db, company.id, connection.id) },
    );
    await p.connect();
    const socket = p.current();
    socket.whatsAppJidOf = whatsAppJidOf;
    await p.session.checkNumbers!([mobile(0), mobile(2)]);
    expect(socket.lookups).toHaveLength(1);
    clock.at += 25 * 3600_000;
    await p.session.checkNumbers!([mobile(0), mobile(2)]);
    expect(socket.lookups.at(-1)).toEqual([mobile(0), `55118${pad(0)}`]);
    clock.at += 7 * 24 * 3600_000;
    await p.session.checkNumbers!([mobile(2)]);
    expect(socket.lookups).toHaveLength(3);
    await p.session.stop();
  });
});
