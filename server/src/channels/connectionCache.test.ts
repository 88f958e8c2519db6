import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsapps } from "../db/schema/index.js";
import { EventBus } from "../events/bus.js";
import { buildSimulatorCompany, phoneSends } from "../test/channels.js";
import { buildCompany, buildConnection } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import { ConnectionCache } from "./connectionCache.js";

/**
 * The connection rows the per-message paths read (the simulator phone's check, the chatbot's
 * timers and turns): one read, then this instance's own changes at once and other instances'
 * changes within the time to live.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  ctx.built.startBackground();
});
afterAll(() => ctx.close());

describe("ConnectionCache", () => {
  it("reads a connection once while fresh, re-reads after the time to live, and never answers another company's", async () => {
    const company = await buildCompany(ctx.deps.db);
    const other = await buildCompany(ctx.deps.db);
    const row = await buildConnection(ctx.deps.db, company.id, {
      name: "Loja",
      provider: "simulator",
    });
    let clock = 0;
    const cache = new ConnectionCache(ctx.deps.db, 2_000, () => clock);
    expect((await cache.get(company.id, row.id))?.name).toBe("Loja");
    expect(await cache.get(other.id, row.id)).toBeNull();

    // Changed behind this cache's back (another instance): the old row until the time to live ends.
    await ctx.deps.db.update(whatsapps).set({ name: "Loja Centro" }).where(eq(whatsapps.id, row.id));
    clock = 1_999;
    expect((await cache.get(company.id, row.id))?.name).toBe("Loja");
    clock = 2_000;
    expect((await cache.get(company.id, row.id))?.name).toBe("Loja Centro");

    // Deleted: null once re-read, and a missing id is remembered as missing.
    await ctx.deps.db.delete(whatsapps).where(eq(whatsapps.id, row.id));
    clock = 4_000;
    expect(await cache.get(company.id, row.id)).toBeNull();
    expect(await cache.get(company.id, 987_654)).toBeNull();
  });

  it("answers at once only what it holds fresh: the row, null for another company's, undefined when it must read", async () => {
    const company = await buildCompany(ctx.deps.db);
    const other = await buildCompany(ctx.deps.db);
    const row = await buildConnection(ctx.deps.db, company.id, { name: "Balcão", provider: "simulator" });
    let clock = 0;
    const cache = new ConnectionCache(ctx.deps.db, 2_000, () => clock);
    expect(cache.fresh(company.id, row.id)).toBeUndefined(); // never read
    await cache.get(company.id, row.id);
    expect(cache.fresh(company.id, row.id)?.name).toBe("Balcão");
    expect(cache.fresh(other.id, row.id)).toBeNull();
    clock = 2_000;
    expect(cache.fresh(company.id, row.id)).toBeUndefined(); // stale: a read decides
    cache.forget(row.id);
    clock = 0;
    expect(cache.fresh(company.id, row.id)).toBeUndefined();
  });

  it("forgets a connection on this instance's events, also when the event lands during a read", async () => {
    const company = await buildCompany(ctx.deps.db);
    const row = await buildConnection(ctx.deps.db, company.id, {
      name: "Antes",
      provider: "simulator",
    });
    const bus = new EventBus();
    const cache = new ConnectionCache(ctx.deps.db, 60_000, () => 0);
    bus.on((event) => cache.heard(event));
    expect((await cache.get(company.id, row.id))?.name).toBe("Antes");
    await ctx.deps.db.update(whatsapps).set({ name: "Depois" }).where(eq(whatsapps.id, row.id));
    await bus.publish([{ type: "whatsapp.deleted", companyId: company.id, whatsappId: row.id }]);
    expect((await cache.get(company.id, row.id))?.name).toBe("Depois");

    // A read that began before a change must not keep what it read.
    const reading = cache.get(company.id, row.id);
    cache.forget(row.id);
    await reading;
    await ctx.deps.db.update(whatsapps).set({ name: "Por último" }).where(eq(whatsapps.id, row.id));
    expect((await cache.get(company.id, row.id))?.name).toBe("Por último");
  });

  it("through the app: a connection disconnected by its admin refuses the phone's next message at once", async () => {
    const s = await buildSimulatorCompany(ctx, { bot: false });
    const ok = await phoneSends(ctx, s.adminLogin, s.connection.id, { from: "5511971110001", body: "oi" });
    expect(ok.statusCode, ok.body).toBe(201);
    const off = await ctx.app.inject({
      method: "DELETE",
      url: `/whatsappsession/${s.connection.id}`,
      headers: s.adminLogin.auth,
    });
    expect(off.statusCode, off.body).toBeLessThan(300);
    const refused = await phoneSends(ctx, s.adminLogin, s.connection.id, {
      from: "5511971110001",
      body: "ainda aí?",
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("ERR_WAPP_NOT_INITIALIZED");
  });
});
