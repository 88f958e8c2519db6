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

describe("the database out of reach", () => {
  // The driver's errors as pg and Drizzle raise them: a server shutting down (57P01), a refused
  // socket, a connection dropped under the query, a pool that cannot open a connection in time.
  const lost = [
    Object.assign(new Error("Failed query: select 1"), {
      cause: Object.assign(new Error("terminating connection due to administrator command"), {
        code: "57P01",
      }),
    }),
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    Object.assign(new Error("Failed query: commit"), {
      cause: new Error("Connection terminated unexpectedly"),
    }),
    new Error("timeout exceeded when trying to connect"),
    Object.assign(new Error("Client was closed and is not queryable"), {}),
  ];

  it.each(lost.map((err) => [err.message, err]))(
    "%s answers 503 ERR_DATABASE_UNAVAILABLE with Retry-After, not 500",
    async (_, err) => {
      const { app } = appWith((a) =>
        a.post("/write", async () => {
          throw err;
        }),
      );
      const res = await app.inject({ method: "POST", url: "/write", headers: { "accept-language": "en" } });
      expect(res.statusCode).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.json()).toEqual({
        error: "ERR_DATABASE_UNAVAILABLE",
        message: "The database is unavailable right now. Try again in a few seconds.",
      });
    },
  );

  it("a refused value is still 400 and an unknown failure still 500", async () => {
    const { app } = appWith((a) => {
      a.get("/bad", async () => {
        throw Object.assign(new Error("Failed query"), {
          cause: Object.assign(new Error("x"), { code: "22P02" }),
        });
      });
      a.get("/bug", async () => {
        throw Object.assign(new Error("Failed query"), {
          cause: Object.assign(new Error("x"), { code: "42703" }),
        });
      });
    });
    expect((await app.inject({ method: "GET", url: "/bad" })).statusCode).toBe(400);
    expect((await app.inject({ method: "GET", url: "/bug" })).statusCode).toBe(500);
  });
});
