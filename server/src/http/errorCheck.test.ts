import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, registerErrorHandler } from "./errors.js";
import { ERROR_UNDECLARED, checkErrors, errorsOf, impliedErrors } from "./errorCheck.js";
import { routes } from "./route.js";

/** A bare app with the check and routes that raise a declared, an implied and an undeclared code. */
const app = Fastify();
beforeAll(async () => {
  registerErrorHandler(app);
  checkErrors(app);
  const r = routes(app);
  r.get("/declared", { access: "public", errors: ["ERR_QUEUE_COLOR_ALREADY_EXISTS"] }, () => {
    throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS");
  });
  r.get("/implied", { access: "public", query: z.object({ n: z.coerce.number() }) }, () => "never");
  r.get("/undeclared", { access: "public" }, () => {
    throw new AppError("ERR_NO_TICKET_FOUND");
  });
  await app.ready();
});
afterAll(() => app.close());

describe("the error check (tests only)", () => {
  it("lets a declared code and one the declaration implies through", async () => {
    const declared = await app.inject({ method: "GET", url: "/declared" });
    expect(declared.statusCode).toBe(409);
    expect(declared.json<{ error: string }>().error).toBe("ERR_QUEUE_COLOR_ALREADY_EXISTS");
    const implied = await app.inject({ method: "GET", url: "/implied?n=x" });
    expect(implied.statusCode).toBe(400);
    expect(implied.json<{ error: string }>().error).toBe("ERR_VALIDATION");
  });

  it("turns a code the route does not declare into a 500 naming the route and the code", async () => {
    const res = await app.inject({ method: "GET", url: "/undeclared" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: ERROR_UNDECLARED,
      message:
        "GET /undeclared answered 404 ERR_NO_TICKET_FOUND, which its declaration does not list (errors)",
    });
  });

  it("reads what a declaration implies: input, session, permission, plan, rate limit, connection token", () => {
    expect(impliedErrors({ access: "public" })).toEqual(["ERR_VALIDATION", "ERR_PAYLOAD_TOO_LARGE"]);
    expect(
      errorsOf({
        access: "tickets:accessAny",
        plan: "useKanban",
        rateLimit: { max: 5, windowSeconds: 60 },
        errors: ["ERR_NO_TICKET_FOUND"],
      }),
    ).toEqual(
      expect.arrayContaining([
        "ERR_NO_SESSION",
        "ERR_SESSION_EXPIRED",
        "ERR_NO_PERMISSION",
        "ERR_PLAN_FEATURE_DISABLED",
        "ERR_TOO_MANY_REQUESTS",
        "ERR_NO_TICKET_FOUND",
      ]),
    );
    expect(errorsOf({ access: "user" })).not.toContain("ERR_NO_PERMISSION");
    expect(errorsOf({ access: "public", connectionToken: true })).toContain("ERR_API_TOKEN_INVALID");
  });
});
