import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baileysKeys, whatsappSentMessages } from "../db/schema/index.js";
import { buildCompany, buildConnection } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import { dbAuthStore } from "./authStore.js";
import { NUMBER_CHECKS, NUMBER_CHECK_FRESH_MS, SENT_MESSAGES } from "./provider.js";
import { purgeSentMessages } from "./sessionState/queries.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("the auth store in the database: sent messages", () => {
  it("keeps sent messages by connection and id apart from the keys, forgets them on logout and once past retention", async () => {
    const db = ctx.deps.db;
    const company = await buildCompany(db);
    const a = await buildConnection(db, company.id, { provider: "beta" });
    const b = await buildConnection(db, company.id, { provider: "beta" });
    const storeA = dbAuthStore(db, company.id, a.id);
    const storeB = dbAuthStore(db, company.id, b.id);
    await storeA.set([
      { category: SENT_MESSAGES, id: "3EB0A", value: { jid: "x@s.whatsapp.net", message: "AAA" } },
      { category: "session", id: "x.0", value: { k: 1 } },
    ]);
    expect(await storeA.get(SENT_MESSAGES, ["3EB0A", "3EB0Z"])).toStrictEqual({
      "3EB0A": { jid: "x@s.whatsapp.net", message: "AAA" },
    });
    expect(await storeB.get(SENT_MESSAGES, ["3EB0A"])).toStrictEqual({}); // another connection's
    expect(await db.select().from(baileysKeys).where(eq(baileysKeys.whatsappId, a.id))).toHaveLength(1);

    await storeB.set([{ category: SENT_MESSAGES, id: "3EB0B", value: { jid: "y", message: "BBB" } }]);
    await db
      .update(whatsappSentMessages)
      .set({ createdAt: new Date(Date.now() - 20 * 24 * 3600_000) })
      .where(eq(whatsappSentMessages.whatsappId, b.id));
    await purgeSentMessages(db, new Date(Date.now() - 14 * 24 * 3600_000));
    expect(await storeB.get(SENT_MESSAGES, ["3EB0B"])).toStrictEqual({});
    expect(Object.keys(await storeA.get(SENT_MESSAGES, ["3EB0A"]))).toStrictEqual(["3EB0A"]);

    await storeA.clear();
    expect(await storeA.get(SENT_MESSAGES, ["3EB0A"])).toStrictEqual({});
  });
});

describe("the auth store in the database: number checks", () => {
  it("keeps what WhatsApp answered about a number for the whole company, and forgets answers past a week", async () => {
    const db = ctx.deps.db;
    const company = await buildCompany(db);
    const stranger = await buildCompany(db);
    const a = await buildConnection(db, company.id, { provider: "beta" });
    const b = await buildConnection(db, company.id, { provider: "beta" });
    const c = await buildConnection(db, stranger.id, { provider: "beta" });
    const now = Date.now();
    const old = now - NUMBER_CHECK_FRESH_MS.found - 3600_000;
    await dbAuthStore(db, company.id, a.id).set([
      {
        category: NUMBER_CHECKS,
        id: "5511987654321",
        value: { jid: "551187654321@s.whatsapp.net", at: now },
      },
      { category: NUMBER_CHECKS, id: "5511912345678", value: { jid: null, at: now } },
      { category: NUMBER_CHECKS, id: "5511900000000", value: { jid: null, at: old } },
    ]);
    const ids = ["5511987654321", "5511912345678", "5511900000000"];
    expect(await dbAuthStore(db, company.id, b.id).get(NUMBER_CHECKS, ids)).toStrictEqual({
      "5511987654321": { jid: "551187654321@s.whatsapp.net", at: now },
      "5511912345678": { jid: null, at: now },
    });
    expect(await dbAuthStore(db, stranger.id, c.id).get(NUMBER_CHECKS, ids)).toStrictEqual({});
    // A logout forgets the session's keys, not what WhatsApp said about the company's numbers.
    await dbAuthStore(db, company.id, a.id).clear();
    expect(Object.keys(await dbAuthStore(db, company.id, a.id).get(NUMBER_CHECKS, ids))).toHaveLength(2);
    expect(await db.select().from(baileysKeys).where(eq(baileysKeys.whatsappId, a.id))).toHaveLength(0);
  });
});
