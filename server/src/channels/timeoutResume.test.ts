import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whatsapps } from "../db/schema/index.js";
import { buildCompany, buildConnection } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";

/**
 * A connection left in TIMEOUT (its reconnects kept failing, or an older release gave up there) is
 * not abandoned: an instance claims it and runs its session again; only DISCONNECTED waits for a person.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const statusOf = async (id: number) =>
  (await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.id, id)))[0]!.status;

describe("connections in TIMEOUT", () => {
  it("are claimed and retried by the session manager; DISCONNECTED ones are left alone", async () => {
    const company = await buildCompany(ctx.deps.db);
    const timedOut = await buildConnection(ctx.deps.db, company.id, { status: "TIMEOUT" });
    const disconnected = await buildConnection(ctx.deps.db, company.id, { status: "DISCONNECTED" });
    const sessions = ctx.built.channels.sessions;

    await sessions.tick();
    expect(sessions.session(timedOut.id)).not.toBeNull();
    expect(sessions.session(disconnected.id)).toBeNull();
    // The simulator, never paired, starts over with a QR code: the session runs again.
    expect(await statusOf(timedOut.id)).toBe("qrcode");

    // A session that shows TIMEOUT while it retries is kept, not stopped at the next tick.
    await ctx.deps.db.update(whatsapps).set({ status: "TIMEOUT" }).where(eq(whatsapps.id, timedOut.id));
    await sessions.tick();
    expect(sessions.session(timedOut.id)).not.toBeNull();
    expect(await statusOf(disconnected.id)).toBe("DISCONNECTED");
  });
});
