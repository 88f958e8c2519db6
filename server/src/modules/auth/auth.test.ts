import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoginAnswer, type Permission, PERMISSIONS, type SessionUserDTO } from "@atende/contracts";
import { loadConfig } from "../../config.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { and, eq, isNull } from "drizzle-orm";
import { refreshTokens } from "../../db/schema/index.js";
import { REFRESH_REUSE_GRACE_MS } from "./service.js";
import { TEST_PASSWORD, buildCompany, buildUser, login } from "../../test/factories.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext(
    { LOGIN_MAX_PER_EMAIL: 5, LOGIN_MAX_PER_IP: 1000 },
    { authOptions: { reuseGraceMs: 0 } },
  );
});
afterAll(() => ctx.close());

function post(
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
  remoteAddress = "10.0.0.1",
) {
  return ctx.app.inject({ method: "POST", url, payload: payload as object, headers, remoteAddress });
}

function cookieOf(res: { cookies: { name: string; value: string }[] }) {
  const c = res.cookies.find((x) => x.name === "jrt");
  return c ? `jrt=${c.value}` : "";
}

describe("POST /auth/login", () => {
  it("answers token and the session user with company, plan and queues, and sets an httpOnly refresh cookie", async () => {
    const company = await buildCompany(ctx.deps.db, { name: "Acme Login" });
    const user = await buildUser(ctx.deps.db, company.id, {
      email: "ok@acme.test",
      profile: "admin",
      name: "Olga",
    });
    const res = await post("/auth/login", { email: "OK@acme.test ", password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json<LoginAnswer>();
    expect(body.token.split(".")).toHaveLength(3);
    expect(body.user).toMatchObject({
      id: user.id,
      name: "Olga",
      email: "ok@acme.test",
      profile: "admin",
      companyId: company.id,
      super: false,
      allTicket: "desabled",
      queues: [],
      company: { id: company.id, name: "Acme Login", dueDate: "2099-01-01" },
    });
    expect(body.user.company.plan).toMatchObject({ useKanban: true });
    expect(body.user.company.settings).toContainEqual({ key: "sendGreetingAccepted", value: "disabled" });
    expect(body.user).not.toHaveProperty("passwordHash");
    expect(body.subscription).toMatchObject({ dueDate: "2099-01-01", expiresSoon: false });
    const cookie = res.cookies.find((c) => c.name === "jrt");
    expect(cookie).toMatchObject({ httpOnly: true, path: "/auth" });
    // The access token carries an expiry of minutes, not days.
    const payload = JSON.parse(Buffer.from(body.token.split(".")[1]!, "base64url").toString()) as {
      exp: number;
      iat: number;
    };
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(30 * 60);
  });

  it("refuses a wrong password and an unknown email alike with ERR_INVALID_CREDENTIALS", async () => {
    const company = await buildCompany(ctx.deps.db);
    await buildUser(ctx.deps.db, company.id, { email: "wrong@acme.test" });
    const wrong = await post("/auth/login", { email: "wrong@acme.test", password: "nope-nope" });
    const unknown = await post("/auth/login", { email: "nobody@acme.test", password: "nope-nope" });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: "ERR_INVALID_CREDENTIALS",
        message: "Erro de autenticação. Por favor, tente novamente.",
      });
      expect(res.cookies.find((c) => c.name === "jrt")).toBeUndefined();
    }
  });

  it("answers in the caller's language", async () => {
    const res = await post(
      "/auth/login",
      { email: "nobody@acme.test", password: "x" },
      { "accept-language": "es-ES,es;q=0.9" },
    );
    expect(res.json().message).toBe("Error de autenticación. Por favor, inténtelo de nuevo.");
  });

  it("refuses a company past its due date with the date, and warns under 5 days", async () => {
    ctx.clock.now = new Date("2026-03-10T12:00:00Z"); // 09:00 in São Paulo
    const expired = await buildCompany(ctx.deps.db, { dueDate: "2026-03-09" });
    const u1 = await buildUser(ctx.deps.db, expired.id);
    const res = await post("/auth/login", { email: u1.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: "2026-03-09" });
    expect(res.json().message).toContain("Opss! Sua assinatura venceu");

    const soon = await buildCompany(ctx.deps.db, { dueDate: "2026-03-13" });
    const u2 = await buildUser(ctx.deps.db, soon.id);
    const ok = await post("/auth/login", { email: u2.email, password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().subscription).toEqual({ dueDate: "2026-03-13", daysLeft: 3, expiresSoon: true });

    const today = await buildCompany(ctx.deps.db, { dueDate: "2026-03-10" });
    const u3 = await buildUser(ctx.deps.db, today.id);
    const lastDay = await post("/auth/login", { email: u3.email, password: TEST_PASSWORD });
    expect(lastDay.json().subscription).toMatchObject({ daysLeft: 0, expiresSoon: true });
    ctx.clock.now = new Date();
  });

  it("counts the due date in São Paulo time, not the server's UTC clock", async () => {
    ctx.clock.now = new Date("2026-03-10T01:30:00Z"); // still 9 March, 22:30 in São Paulo
    const company = await buildCompany(ctx.deps.db, { dueDate: "2026-03-09" });
    const u = await buildUser(ctx.deps.db, company.id);
    const res = await post("/auth/login", { email: u.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription.daysLeft).toBe(0);
    ctx.clock.now = new Date();
  });

  it("answers 400 with field errors for a bad body, never 500", async () => {
    for (const payload of [
      {},
      { email: "not-an-email", password: "" },
      "garbage",
      { email: 12, password: [] },
    ]) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/auth/login",
        payload: payload as object,
        headers: typeof payload === "string" ? { "content-type": "application/json" } : {},
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    const res = await post("/auth/login", { email: "not-an-email", password: "" });
    expect(res.json().fields).toEqual({ email: "Invalid email", password: "Required" });
  });

  it("rate-limits failed logins per email with 429 and a Retry-After figure", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id, { email: "brute@acme.test" });
    for (let i = 0; i < 5; i++) {
      expect(
        (await post("/auth/login", { email: u.email, password: "wrong" }, {}, `10.1.0.${i}`)).statusCode,
      ).toBe(401);
    }
    const blocked = await post("/auth/login", { email: u.email, password: TEST_PASSWORD }, {}, "10.1.0.99");
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ error: "ERR_TOO_MANY_LOGIN_ATTEMPTS" });
    expect(blocked.json().retryAfter).toBeGreaterThan(0);
  });
});

describe("rate limit per IP", () => {
  it("answers 429 after too many attempts from one address, whatever the email", async () => {
    const local = await createTestContext({ LOGIN_MAX_PER_IP: 3 });
    try {
      const attempt = (email: string) =>
        local.app.inject({
          method: "POST",
          url: "/auth/login",
          payload: { email, password: "x" },
          remoteAddress: "10.9.9.9",
        });
      for (let i = 0; i < 3; i++) expect((await attempt(`a${i}@x.test`)).statusCode).toBe(401);
      expect((await attempt("other@x.test")).statusCode).toBe(429);
      const elsewhere = await local.app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email: "z@x.test", password: "x" },
        remoteAddress: "10.9.9.8",
      });
      expect(elsewhere.statusCode).toBe(401);
    } finally {
      await local.close();
    }
  });
});

describe("the client's address behind proxies", () => {
  const attempt = (ctx: TestContext, remoteAddress: string, forwardedFor: string) =>
    ctx.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: `${forwardedFor.replaceAll(/\W/g, "")}@x.test`, password: "x" },
      headers: { "x-forwarded-for": forwardedFor },
      remoteAddress,
    });

  it("by default X-Forwarded-For is not believed: a rotating one does not escape the per-IP limit", async () => {
    const local = await createTestContext({ LOGIN_MAX_PER_IP: 3 });
    try {
      for (let i = 0; i < 3; i++)
        expect((await attempt(local, "10.9.9.9", `1.2.3.${i}`)).statusCode).toBe(401);
      const blocked = await attempt(local, "10.9.9.9", "1.2.3.200");
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error).toBe("ERR_TOO_MANY_LOGIN_ATTEMPTS");
    } finally {
      await local.close();
    }
  });

  it("TRUST_PROXY as a hop count believes only that many proxies: a client-made X-Forwarded-For is ignored", async () => {
    const local = await createTestContext({
      LOGIN_MAX_PER_IP: 3,
      trustProxy: loadConfig({ TRUST_PROXY: "1" }).trustProxy,
    });
    try {
      // The proxy appends the address it saw; whatever the client wrote before it is not believed.
      for (let i = 0; i < 3; i++) {
        expect((await attempt(local, "10.0.0.2", `6.6.6.${i}, 1.1.1.1`)).statusCode).toBe(401);
      }
      expect((await attempt(local, "10.0.0.2", "6.6.6.99, 1.1.1.1")).statusCode).toBe(429);
      // Another client behind the same proxy has its own count.
      expect((await attempt(local, "10.0.0.2", "2.2.2.2")).statusCode).toBe(401);
    } finally {
      await local.close();
    }
  });

  it("TRUST_PROXY as a list of addresses believes X-Forwarded-For from those proxies only", async () => {
    const local = await createTestContext({
      LOGIN_MAX_PER_IP: 2,
      trustProxy: loadConfig({ TRUST_PROXY: "10.0.0.2, 192.168.0.0/16" }).trustProxy,
    });
    try {
      // Through a listed proxy each client counts on its own.
      for (let i = 0; i < 4; i++)
        expect((await attempt(local, "192.168.4.4", `3.3.3.${i}`)).statusCode).toBe(401);
      // From an address that is not a listed proxy the header is ignored.
      for (let i = 0; i < 2; i++)
        expect((await attempt(local, "10.0.0.3", `4.4.4.${i}`)).statusCode).toBe(401);
      expect((await attempt(local, "10.0.0.3", "4.4.4.9")).statusCode).toBe(429);
    } finally {
      await local.close();
    }
  });

  it("TRUST_PROXY is off unless set, and a value that is neither a count nor addresses stops the start", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.1,::1" }).trustProxy).toEqual(["10.0.0.1", "::1"]);
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "proxy.example.com" })).toThrow(/TRUST_PROXY/);
  });
});

describe("refresh, me and logout", () => {
  it("rotates the refresh cookie; the old one is refused after rotation and kills the session", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const first = await login(ctx, u.email);
    const r1 = await post("/auth/refresh_token", undefined, { cookie: first.cookie });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().user.id).toBe(u.id);
    const second = cookieOf(r1);
    expect(second).not.toBe(first.cookie);
    const access = { authorization: `Bearer ${r1.json().token}` };
    expect((await ctx.app.inject({ method: "GET", url: "/auth/me", headers: access })).statusCode).toBe(200);

    const reused = await post("/auth/refresh_token", undefined, { cookie: first.cookie });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error).toBe("ERR_NO_SESSION");
    // Reuse of a rotated token revokes the session: the newer cookie dies with it, and so does
    // the access token it was answered with, on the very next request.
    expect((await post("/auth/refresh_token", undefined, { cookie: second })).statusCode).toBe(401);
    const after = await ctx.app.inject({ method: "GET", url: "/auth/me", headers: access });
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("ERR_NO_SESSION");
  });

  it("refresh without a cookie answers 401", async () => {
    const res = await post("/auth/refresh_token");
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe("ERR_NO_SESSION");
  });

  it("GET /auth/me answers the user; no token is 401, a bad or expired token is 403 ERR_SESSION_EXPIRED", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id, { name: "Mia" });
    const s = await login(ctx, u.email);
    const me = await ctx.app.inject({ method: "GET", url: "/auth/me", headers: s.auth });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: u.id, name: "Mia", company: { id: company.id } });

    expect((await ctx.app.inject({ method: "GET", url: "/auth/me" })).statusCode).toBe(401);
    const bad = await ctx.app.inject({
      method: "GET",
      url: "/auth/me",
      headers: { authorization: "Bearer abc.def.ghi" },
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error).toBe("ERR_SESSION_EXPIRED");

    const expiredToken = await new (await import("../../http/tokens.js")).TokenService(
      "test-secret-".padEnd(48, "x"),
      "-1s",
    ).sign({
      userId: u.id,
      companyId: company.id,
      sessionId: "00000000-0000-0000-0000-000000000000",
    });
    const expired = await ctx.app.inject({
      method: "GET",
      url: "/auth/me",
      headers: { authorization: `Bearer ${expiredToken}` },
    });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toBe("ERR_SESSION_EXPIRED");
  });

  it("login, refresh and /auth/me carry the permissions the user holds: an admin's, none of an agent's", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildUser(ctx.deps.db, company.id, { profile: "admin" });
    const agent = await buildUser(ctx.deps.db, company.id, { profile: "user" });
    const heldBy = (profile: string) =>
      (Object.keys(PERMISSIONS) as Permission[]).filter((key) =>
        (PERMISSIONS[key] as readonly string[]).includes(profile),
      );

    for (const user of [admin, agent]) {
      const s = await login(ctx, user.email);
      const me = await ctx.app.inject({ method: "GET", url: "/auth/me", headers: s.auth });
      const refreshed = await post("/auth/refresh_token", undefined, { cookie: s.cookie });
      const answers = [s.user, me.json<SessionUserDTO>(), refreshed.json<LoginAnswer>().user];
      for (const answer of answers) {
        expect(answer.permissions).toEqual(heldBy(user.profile));
        expect(answer.permissions.includes("users-page:manage")).toBe(user.profile === "admin");
        // Added beside the fields older front ends read, which stay.
        expect(answer).toMatchObject({ id: user.id, profile: user.profile, company: { id: company.id } });
      }
    }
  });

  it("logout revokes the refresh tokens and the access token's session", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const s = await login(ctx, u.email);
    const out = await ctx.app.inject({
      method: "DELETE",
      url: "/auth/logout",
      headers: { ...s.auth, cookie: s.cookie },
    });
    expect(out.statusCode).toBe(204);
    expect((await post("/auth/refresh_token", undefined, { cookie: s.cookie })).statusCode).toBe(401);
    const me = await ctx.app.inject({ method: "GET", url: "/auth/me", headers: s.auth });
    expect(me.statusCode).toBe(401);
  });

  it("a new login of the same user revokes the older session", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const older = await login(ctx, u.email);
    const newer = await login(ctx, u.email);
    expect((await ctx.app.inject({ method: "GET", url: "/auth/me", headers: older.auth })).statusCode).toBe(
      401,
    );
    expect((await post("/auth/refresh_token", undefined, { cookie: older.cookie })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: "GET", url: "/auth/me", headers: newer.auth })).statusCode).toBe(
      200,
    );
  });
});

describe("refresh within the reuse grace (two tabs)", () => {
  let graced: TestContext;
  beforeAll(async () => {
    graced = await createTestContext({ LOGIN_MAX_PER_EMAIL: 100, LOGIN_MAX_PER_IP: 1000 });
  });
  afterAll(() => graced.close());
  const refresh = (cookie: string) =>
    graced.app.inject({ method: "POST", url: "/auth/refresh_token", headers: { cookie } });

  it("ten concurrent refreshes of one token all get the one successor; a replay after the grace kills the session", async () => {
    const company = await buildCompany(graced.deps.db);
    const u = await buildUser(graced.deps.db, company.id);
    const first = await login(graced, u.email);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(first.cookie)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const successors = new Set(answers.map(cookieOf));
    expect(successors.size).toBe(1);
    const [successor] = [...successors];
    expect(successor).not.toBe(first.cookie);
    // One live chain: the session holds exactly one refresh token that is neither used nor revoked.
    const live = await graced.deps.db
      .select()
      .from(refreshTokens)
      .where(
        and(eq(refreshTokens.userId, u.id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)),
      );
    expect(live).toHaveLength(1);

    // A near-simultaneous replay (within the grace) still gets that successor.
    const late = await refresh(first.cookie);
    expect(late.statusCode).toBe(200);
    expect(cookieOf(late)).toBe(successor);
    const next = await refresh(successor!);
    expect(next.statusCode).toBe(200);

    // After the grace, the old token used again revokes the whole family.
    graced.clock.now = new Date(Date.now() + REFRESH_REUSE_GRACE_MS + 1_000);
    const replay = await refresh(first.cookie);
    expect(replay.statusCode).toBe(401);
    expect((await refresh(cookieOf(next))).statusCode).toBe(401);
    const me = await graced.app.inject({
      method: "GET",
      url: "/auth/me",
      headers: { authorization: `Bearer ${next.json().token}` },
    });
    expect(me.statusCode).toBe(401);
  });
});

describe("operations", () => {
  it("GET /health reports the database; GET /version answers the version", async () => {
    const health = await ctx.app.inject({ method: "GET", url: "/health" });
    expect(health.statusCode).toBe(200);
    expect(health.json().status).toBe("ok");
    const version = await ctx.app.inject({ method: "GET", url: "/version" });
    expect(version.json().version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("an unknown API route answers 404 ERR_ROUTE_NOT_FOUND with a request id header", async () => {
    const res = await ctx.app.inject({
      method: "GET",
      url: "/nope",
      headers: { accept: "application/json" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("ERR_ROUTE_NOT_FOUND");
    expect(res.headers["x-request-id"]).toBeTruthy();
  });
});

describe("front ends on other origins", () => {
  it("origins in FRONTEND_URL get CORS with credentials; others do not", async () => {
    const local = await createTestContext({
      corsOrigins: ["https://inbox.example.com", "http://localhost:3000"],
    });
    try {
      const preflight = (origin: string) =>
        local.app.inject({
          method: "OPTIONS",
          url: "/auth/login",
          headers: {
            origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
          },
        });
      const allowed = await preflight("http://localhost:3000");
      expect(allowed.headers["access-control-allow-origin"]).toBe("http://localhost:3000");
      expect(allowed.headers["access-control-allow-credentials"]).toBe("true");
      const denied = await preflight("https://evil.example.net");
      expect(denied.headers["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await local.close();
    }
  });

  it("the preflight allows every method and header the API uses, so a ticket can be accepted (PUT) from another origin", async () => {
    const local = await createTestContext({ corsOrigins: ["https://inbox.example.com"] });
    try {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = await local.app.inject({
          method: "OPTIONS",
          url: "/tickets/1",
          headers: {
            origin: "https://inbox.example.com",
            "access-control-request-method": method,
            "access-control-request-headers": "authorization,content-type",
          },
        });
        expect(res.statusCode).toBe(204);
        expect(res.headers["access-control-allow-origin"]).toBe("https://inbox.example.com");
        const methods = String(res.headers["access-control-allow-methods"])
          .split(",")
          .map((m) => m.trim());
        expect(methods).toContain(method);
        const headers = String(res.headers["access-control-allow-headers"]).toLowerCase();
        expect(headers).toContain("authorization");
        expect(headers).toContain("content-type");
      }
    } finally {
      await local.close();
    }
  });
});
