import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoggedIn, buildTeam } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";

/**
 * Ids in paths and queries are plain positive integers (or uuids where the route takes one):
 * whatever else Number() would read as an id (" 1", "1e0", "0x1", "01", "+1") answers 400 and
 * changes nothing.
 */
let ctx: TestContext;
let admin: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  admin = (await buildTeam(ctx)).adminLogin;
});
afterAll(() => ctx.close());

/** Ways to write something Number() reads as `id`, and ids out of range. */
function malformed(id: number): string[] {
  return [
    `%20${id}`,
    `${id}%20`,
    `${id}e0`,
    `0x${id.toString(16)}`,
    `0${id}`,
    `%2B${id}`,
    `-${id}`,
    `${id}.0`,
    "0",
    "2147483648",
    "99999999999999999999",
  ];
}

async function call(method: "GET" | "DELETE" | "POST", url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers: admin.auth, payload });
}

async function created(url: string, payload: object): Promise<number> {
  const res = await call("POST", url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: number }>().id;
}

describe("path ids", () => {
  it.each([
    ["/contacts", { name: "Ida", number: "5511987650001" }],
    ["/queue", { name: "Ids queue", color: "#123456" }],
    ["/whatsapp", { name: "Ids connection", provider: "simulator" }],
  ])(
    "DELETE %s/{id} with a malformed id answers 400 ERR_VALIDATION and deletes nothing",
    async (base, payload) => {
      const id = await created(base, payload);
      for (const bad of malformed(id)) {
        const res = await call("DELETE", `${base}/${bad}`);
        expect(res.statusCode, `${base}/${bad}`).toBe(400);
        expect(res.json().error).toBe("ERR_VALIDATION");
      }
      expect((await call("GET", `${base}/${id}`)).statusCode).toBe(200);
      expect((await call("DELETE", `${base}/${id}`)).statusCode).toBeLessThan(300);
      expect((await call("GET", `${base}/${id}`)).statusCode).toBe(404);
    },
  );

  it("a ticket's uuid must be a uuid: padded or otherwise shaped, 400", async () => {
    for (const bad of [`%20${crypto.randomUUID()}`, "1", "not-a-uuid"]) {
      const res = await call("GET", `/tickets/u/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    expect((await call("GET", `/tickets/u/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});

describe("query ids", () => {
  it("ids in queries and id lists are plain digits", async () => {
    const urls = [
      "/schedules?contactId=%201",
      "/schedules?contactId=1e0",
      "/queue-options?queueId=0x1",
      "/queue-options?queueId=%2B1",
      "/ticket-notes/list?ticketId=01",
      "/tickets?queueIds=%5B%22%201%22%5D",
      "/tickets?queueIds=1e0",
      "/tickets?queueIds=1,0x2",
      "/tickets?queueIds=2147483648",
    ];
    for (const url of urls) {
      const res = await call("GET", url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
    }
    for (const url of ["/tickets?queueIds=%5B1%2C2%5D", "/tickets?queueIds=1,2", "/schedules?contactId=1"]) {
      expect((await call("GET", url)).statusCode, url).toBe(200);
    }
  });
});
