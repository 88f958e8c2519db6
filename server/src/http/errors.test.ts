import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, parseInput, registerErrorHandler } from "./errors.js";

function appWith(routes: (app: FastifyInstance) => void) {
  const logs: string[] = [];
  const app: FastifyInstance = Fastify({
    logger: { level: "error", stream: { write: (line: string) => logs.push(line) } },
  }) as unknown as FastifyInstance;
  registerErrorHandler(app);
  routes(app);
  return { app, logs };
}

describe("error answers", () => {
  it("an unexpected error answers 500 ERR_INTERNAL with a request id, logs it, and leaks no stack", async () => {
    const { app, logs } = appWith((a) =>
      a.get("/boom", async () => {
        throw new Error("secret internals at /srv/db.ts:42");
      }),
    );
    const res = await app.inject({ method: "GET", url: "/boom" });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({
      error: "ERR_INTERNAL",
      message: "Erro interno do servidor.",
      requestId: expect.any(String),
    });
    expect(res.body).not.toContain("secret internals");
    expect(logs.join("\n")).toContain("secret internals");
    expect(logs.join("\n")).toContain(body.requestId);
  });

  it("an AppError answers its catalogue status and translated message with its extra fields", async () => {
    const { app } = appWith((a) =>
      a.get("/due", async () => {
        throw new AppError("ERR_SUBSCRIPTION_EXPIRED", { dueDate: "2026-01-01" });
      }),
    );
    const res = await app.inject({ method: "GET", url: "/due", headers: { "accept-language": "en-US" } });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: "ERR_SUBSCRIPTION_EXPIRED",
      message: "Oops! Your subscription has expired. Contact Support for more information!",
      dueDate: "2026-01-01",
    });
  });

  it("malformed JSON answers 400 ERR_VALIDATION, and parseInput lists every bad field", async () => {
    const schema = z.object({ name: z.string().min(2, "validation.tooShort"), age: z.number() });
    const { app } = appWith((a) => a.post("/p", async (req) => parseInput(schema, req.body, req)));
    const bad = await app.inject({
      method: "POST",
      url: "/p",
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("ERR_VALIDATION");
    const fields = await app.inject({ method: "POST", url: "/p", payload: { name: "a" } });
    expect(fields.statusCode).toBe(400);
    expect(Object.keys(fields.json().fields).sort()).toEqual(["age", "name"]);
    expect(fields.json().fields.name).toBe("Too Short!");
  });
});
