import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ANSWER_MISMATCH, checkAnswers } from "./answerCheck.js";
import { routes } from "./route.js";

/** A bare app with the check and three declared routes: one keeps its word, two do not. */
const app = Fastify();
beforeAll(async () => {
  checkAnswers(app);
  const r = routes(app);
  const item = z.object({ id: z.number(), tags: z.array(z.object({ name: z.string() })) });
  r.get("/kept", { access: "public", response: item }, () => ({ id: 1, tags: [{ name: "vip" }] }));
  r.get("/extra", { access: "public", response: item }, () => ({
    id: 1,
    secret: "x",
    tags: [{ name: "vip" }, { name: "new", color: "#fff" }],
  }));
  r.get("/broken", { access: "public", response: item }, () => ({ id: "1", tags: [{ name: 7 }] }));
  r.post("/created", { access: "public", response: item }, (_input, _req, reply) => {
    reply.status(201);
    return { id: 1, tags: [] };
  });
  r.get("/undeclared", { access: "public" }, () => ({ anything: "goes" }));
  r.get("/refused", { access: "public", response: item }, (_input, _req, reply) =>
    reply.status(409).send({ error: "ERR_DUPLICATED", message: "Already there" }),
  );
  await app.ready();
});
afterAll(() => app.close());

describe("the answer check (tests only)", () => {
  it("lets an answer that matches its declaration through unchanged", async () => {
    const res = await app.inject({ method: "GET", url: "/kept" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, tags: [{ name: "vip" }] });
  });

  it("refuses fields the declaration does not name, wherever they are", async () => {
    const res = await app.inject({ method: "GET", url: "/extra" });
    expect(res.statusCode).toBe(500);
    const { message } = res.json<{ message: string }>();
    expect(message).toContain("GET /extra");
    expect(message).toContain("secret, tags.1.color");
  });

  it("turns an answer unlike its declaration into a 500 naming the route and the paths that differ", async () => {
    const res = await app.inject({ method: "GET", url: "/broken" });
    expect(res.statusCode).toBe(500);
    const body = res.json<{ error: string; message: string }>();
    expect(body.error).toBe(ANSWER_MISMATCH);
    expect(body.message).toContain("GET /broken");
    expect(body.message).toMatch(/\bid: /);
    expect(body.message).toMatch(/tags\.0\.name: /);
  });

  it("refuses a success status other than the declared one", async () => {
    const res = await app.inject({ method: "POST", url: "/created" });
    expect(res.statusCode).toBe(500);
    expect(res.json<{ message: string }>().message).toContain("answered 201, its declaration says 200");
  });

  it("leaves errors and routes without a declared answer alone", async () => {
    expect((await app.inject({ method: "GET", url: "/undeclared" })).json()).toEqual({ anything: "goes" });
    const refused = await app.inject({ method: "GET", url: "/refused" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toBe("ERR_DUPLICATED");
  });
});
