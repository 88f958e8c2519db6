import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { refreshTokens, users } from "../db/schema/index.js";
import { buildCompany, buildUser, login } from "../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../test/harness.js";
import { SESSION_CHECK_TTL_MS } from "./auth.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

const me = (auth: Record<string, string>) =>
  ctx.app.inject({ method: "GET", url: "/auth/me", headers: auth });

describe("bearer tokens already verified once", () => {
  it("a session revoked after its token was used is refused at once: 401 ERR_NO_SESSION", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const s = await login(ctx, u.email);
    expect((await me(s.auth)).statusCode).toBe(200);
    const out = await ctx.app.inject({
      method: "DELETE",
      url: "/auth/logout",
      headers: { ...s.auth, cookie: s.cookie },
    });
    expect(out.statusCode).toBe(204);
    const after = await me(s.auth);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("ERR_NO_SESSION");
  });

  it("a token used while valid is refused once its expiry passes: 403 ERR_SESSION_EXPIRED", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const s = await login(ctx, u.email);
    expect((await me(s.auth)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 16 * 60_000); // the access token lives 15 minutes
    const later = await me(s.auth);
    expect(later.statusCode).toBe(403);
    expect(later.json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("a user whose profile an admin changed is held to the new profile on the next request", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const u = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const a = await login(ctx, admin.email);
    const s = await login(ctx, u.email);
    const simulator = () =>
      ctx.app.inject({ method: "GET", url: "/simulator/999999/phones", headers: s.auth });
    expect((await simulator()).json().error).toBe("ERR_NO_WAPP_FOUND"); // allowed, nothing there
    const put = await ctx.app.inject({
      method: "PUT",
      url: `/users/${u.id}`,
      headers: a.auth,
      payload: { profile: "user" },
    });
    expect(put.statusCode, put.body).toBe(200);
    const demoted = await simulator();
    expect(demoted.statusCode).toBe(403);
    expect(demoted.json().error).toBe("ERR_NO_PERMISSION");
  });

  it("a profile changed or a session revoked behind this instance's back (another instance) applies within SESSION_CHECK_TTL_MS", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const s = await login(ctx, u.email);
    const simulator = () =>
      ctx.app.inject({ method: "GET", url: "/simulator/999999/phones", headers: s.auth });
    expect((await simulator()).json().error).toBe("ERR_NO_WAPP_FOUND");
    // A passed check is kept SESSION_CHECK_TTL_MS by performance.now(), not the test clock: wait for
    // each change to apply, allowing that lifetime and a margin for a busy machine.
    const within = SESSION_CHECK_TTL_MS + 2_000;
    await ctx.deps.db.update(users).set({ profile: "user" }).where(eq(users.id, u.id));
    await waitFor(async () => (await simulator()).json().error === "ERR_NO_PERMISSION", within);
    await ctx.deps.db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(eq(refreshTokens.userId, u.id));
    await waitFor(async () => (await me(s.auth)).statusCode !== 200, within);
    const gone = await me(s.auth);
    expect(gone.statusCode).toBe(401);
    expect(gone.json().error).toBe("ERR_NO_SESSION");
  });
});
