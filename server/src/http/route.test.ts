import Fastify from "fastify";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { PlanFlag } from "@atende/contracts";
import type { AuthContext } from "./auth.js";
import { AppError, registerErrorHandler } from "./errors.js";
import { collectRoutes, makeRouteGuard, routes } from "./route.js";

type Caller = { headers: Record<string, unknown>; auth: AuthContext | null };

/**
 * A stand-in for requireAuth: the caller's profile rides in a header; none is 401. Synchronous, as
 * requireAuth answers a caller held fresh (no promise), or through a promise, as it answers one it
 * had to read: the guard must hold either way.
 */
function fakeAuthNow(req: Caller) {
  const profile = req.headers["x-profile"] as AuthContext["profile"] | undefined;
  if (!profile) throw new AppError("ERR_NO_SESSION");
  req.auth = { userId: 1, companyId: 1, profile, super: req.headers["x-super"] === "1", sessionId: "s" };
}
const fakeAuthRead = async (req: Caller) => fakeAuthNow(req);
let fakeAuth: (req: Caller) => Promise<void> | void = fakeAuthRead;

/** A stand-in for requirePlan: company 1's plan has only useSchedules. */
async function fakePlan(_companyId: number, flag: PlanFlag) {
  if (flag !== "useSchedules") throw new AppError("ERR_PLAN_FEATURE_DISABLED");
}

async function appWithRoutes() {
  const app = Fastify();
  app.decorateRequest("auth", null);
  registerErrorHandler(app);
  const registered = collectRoutes(app);
  app.addHook(
    "preHandler",
    makeRouteGuard((req) => fakeAuth(req), fakePlan),
  );
  const r = routes(app);
  // Handlers that check nothing themselves: what answers 401/403 is the declaration.
  r.get("/open", { access: "public" }, () => ({ ok: true }));
  r.get("/mine", { access: "user" }, ({ auth }) => ({ profile: auth.profile }));
  r.post(
    "/admins",
    { access: "users-page:manage", body: z.object({ name: z.string() }), status: 201 },
    ({ body }) => body,
  );
  r.put("/platform", { access: "super" }, () => ({ ok: true }));
  r.delete(
    "/things/:id",
    { access: "user", params: z.object({ id: z.coerce.number() }), status: 204 },
    () => undefined,
  );
  r.get("/board", { access: "user", plan: "useKanban" }, () => ({ leaked: true }));
  r.get(
    "/board/:id",
    { access: "user", plan: "useKanban", params: z.object({ id: z.coerce.number() }) },
    () => ({ leaked: true }),
  );
  r.get("/agenda", { access: "user", plan: "useSchedules" }, () => ({ ok: true }));
  app.get("/undeclared", async () => ({ leaked: true }));
  await app.ready();
  return { app, registered };
}

describe.each([
  ["read (a promise)", fakeAuthRead],
  ["held fresh (no promise)", fakeAuthNow],
])("route declarations, the caller %s", (_how, auth) => {
  beforeEach(() => {
    fakeAuth = auth;
  });

  it("the guard enforces the declared access: public, any user, a permission key, super", async () => {
    const { app } = await appWithRoutes();
    const call = (
      method: "GET" | "POST" | "PUT",
      url: string,
      headers: Record<string, string> = {},
      payload?: object,
    ) => app.inject({ method, url, headers, payload });
    expect((await call("GET", "/open")).statusCode).toBe(200);
    expect((await call("GET", "/mine")).json().error).toBe("ERR_NO_SESSION");
    expect((await call("GET", "/mine", { "x-profile": "user" })).json()).toEqual({ profile: "user" });
    const agent = await call("POST", "/admins", { "x-profile": "user" }, { name: "x" });
    expect([agent.statusCode, agent.json().error]).toEqual([403, "ERR_NO_PERMISSION"]);
    expect((await call("POST", "/admins", { "x-profile": "admin" }, { name: "x" })).statusCode).toBe(201);
    expect((await call("PUT", "/platform", { "x-profile": "admin" })).statusCode).toBe(403);
    expect((await call("PUT", "/platform", { "x-profile": "admin", "x-super": "1" })).statusCode).toBe(200);
    // A route without a declaration is not public.
    expect((await call("GET", "/undeclared")).statusCode).toBe(401);
    await app.close();
  });

  it("parses the declared input with the usual 400 ERR_VALIDATION answer, and answers the declared status", async () => {
    const { app, registered } = await appWithRoutes();
    const bad = await app.inject({
      method: "POST",
      url: "/admins",
      headers: { "x-profile": "admin" },
      payload: {},
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "ERR_VALIDATION", fields: { name: expect.any(String) } });
    const gone = await app.inject({ method: "DELETE", url: "/things/3", headers: { "x-profile": "user" } });
    expect([gone.statusCode, gone.body]).toEqual([204, ""]);
    expect(registered.map((r) => `${r.method} ${r.url}`)).toContain("DELETE /things/:id");
    expect(registered.find((r) => r.url === "/undeclared")?.route).toBeUndefined();
    await app.close();
  });

  it("the guard enforces the declared plan flag, with or without an id in the path, after the session", async () => {
    const { app } = await appWithRoutes();
    const get = (url: string, headers: Record<string, string> = {}) =>
      app.inject({ method: "GET", url, headers });
    for (const url of ["/board", "/board/7"]) {
      const refused = await get(url, { "x-profile": "admin" });
      expect([refused.statusCode, refused.json().error]).toEqual([403, "ERR_PLAN_FEATURE_DISABLED"]);
      expect((await get(url)).json().error).toBe("ERR_NO_SESSION");
    }
    expect((await get("/agenda", { "x-profile": "user" })).json()).toEqual({ ok: true });
    await app.close();
  });
});
