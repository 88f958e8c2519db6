import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_PASSWORD, buildCompany, buildMember, uid } from "../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../test/harness.js";
import { logCapture } from "../test/logLeaks.js";
import { SecretRoutes, normalizePath } from "./redact.js";

/**
 * What the server logs of a URL that carries a credential, over real HTTP (the path goes out byte
 * for byte: fetch and inject would tidy it first): the legacy password reset's path, however it is
 * spelled, matched or not, and credentials in query strings under any spelling of their names.
 */

let ctx: TestContext;
const log = logCapture();
let base: URL;

beforeAll(async () => {
  ctx = await createTestContext({}, { logger: log.logger });
  base = new URL(await ctx.url());
});
afterAll(() => ctx.close());

/** Sends `path` exactly as written; answers the status. */
function rawRequest(method: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method, path, headers: { "content-length": "0" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Every request logged has logged its end too ("request completed" follows the answer). */
async function logSettled() {
  const count = (msg: string) => log.text.split(`"msg":"${msg}"`).length - 1;
  await waitFor(() => count("request completed") === count("incoming request"));
}

/** The URLs the log shows, in order. */
const loggedUrls = () =>
  log.text
    .split("\n")
    .filter((line) => line.includes('"msg":"incoming request"'))
    .map((line) => (JSON.parse(line) as { req: { url: string } }).req.url);

describe("the legacy password reset's path in the log", () => {
  it("never carries the e-mail, the code or the new password, whatever the path's spelling", async () => {
    const local = `leak-${uid()}`;
    const email = encodeURIComponent(`${local}@test.local`);
    const code = "918273";
    const password = `Leaked${uid()}Pw9`;
    const tail = `${email}/${code}/${password}`;
    const spellings = {
      plain: `/resetpasswords/${tail}`,
      doubleSlash: `//resetpasswords/${tail}`,
      tripleSlash: `///resetpasswords//${email}//${code}//${password}`,
      mixedCase: `/ResetPasswords/${tail}`,
      upperCase: `/RESETPASSWORDS/${tail}`,
      // The router decodes it: this one reaches the route.
      encodedLetter: `/%72esetpasswords/${tail}`,
      encodedTwice: `/%2572esetpasswords/${tail}`,
      encodedSlashes: `/resetpasswords%2F${email}%2f${code}%2F${password}`,
      dotSegments: `/x/../resetpasswords/./${tail}`,
      backslashes: `/\\resetpasswords\\${email}\\${code}\\${password}`,
      trailingSlash: `/resetpasswords/${tail}/`,
      withQuery: `/resetpasswords/${tail}?lang=en`,
      extraSegment: `/resetpasswords/${tail}/more`,
      underAPrefix: `/api/resetpasswords/${tail}`,
      dotsAfter: `/resetpasswords/../x/${code}/${password}`,
      anotherName: `/reset-password/${tail}`,
      // Not decodable.
      badEncoding: `/resetpasswords/${tail}%E0%A4%A`,
      badEscape: `/%ZZ/resetpasswords/${tail}`,
    };
    const statuses: Record<string, number> = {};
    log.text = "";
    for (const [name, path] of Object.entries(spellings)) statuses[name] = await rawRequest("POST", path);
    await logSettled();

    // The router took these to the reset route itself (refused for the unknown e-mail, not a 404).
    for (const name of ["plain", "encodedLetter", "trailingSlash", "withQuery"])
      expect(statuses[name], name).not.toBe(404);
    // Fastify answers an undecodable path 400 before it logs anything of it.
    expect([statuses.badEncoding, statuses.badEscape]).toEqual([400, 400]);
    expect(loggedUrls()).toHaveLength(Object.keys(spellings).length - 2);
    for (const url of loggedUrls()) expect(url).toMatch(/\/reset-?passwords?\/\[redacted\]$/);
    expect(log.text).not.toContain(password);
    expect(log.text).not.toContain(code);
    expect(log.text).not.toContain(local);
  });

  it("the JSON-body reset and other routes' paths are logged as they came", async () => {
    log.text = "";
    await rawRequest("POST", "/resetpasswords");
    await rawRequest("GET", "/users/12?searchParam=Maria&pageNumber=2");
    await logSettled();
    expect(loggedUrls()).toEqual(["/resetpasswords", "/users/12?searchParam=Maria&pageNumber=2"]);
  });
});

describe("credentials in a query string", () => {
  it("are redacted whatever the spelling of their names; other parameters stay", async () => {
    const secrets = Array.from({ length: 6 }, () => `tok${uid()}${uid()}`);
    log.text = "";
    await rawRequest("GET", `/auth/me?token=${secrets[0]}&x=1`);
    await rawRequest("GET", `/auth/me?Token=${secrets[1]}&x=2`);
    await rawRequest("GET", `/auth/me?%74oken=${secrets[2]}&x=3`);
    await rawRequest("GET", `/auth/me?ACCESS_TOKEN=${secrets[3]}&x=4`);
    await rawRequest("GET", `/auth/me?newPassword=${secrets[4]}&x=5`);
    await rawRequest("GET", `//auth/me?refresh_token=${secrets[5]}&x=6`);
    await logSettled();
    for (const secret of secrets) expect(log.text).not.toContain(secret);
    expect(loggedUrls()).toEqual([
      "/auth/me?token=[redacted]&x=1",
      "/auth/me?Token=[redacted]&x=2",
      "/auth/me?%74oken=[redacted]&x=3",
      "/auth/me?ACCESS_TOKEN=[redacted]&x=4",
      "/auth/me?newPassword=[redacted]&x=5",
      "//auth/me?refresh_token=[redacted]&x=6",
    ]);
  });
});

describe("names that only contain a credential's word", () => {
  it("stay readable: qrcode, barcode, bypass; code and resetCode do not", async () => {
    const code = `c${uid()}`;
    log.text = "";
    await rawRequest("GET", "/whatsappsession/qrcode/7?barcode=55&bypass=1");
    await rawRequest("GET", `/auth/me?code=${code}&resetCode=${code}&reset_code=${code}`);
    await logSettled();
    expect(log.text).not.toContain(code);
    expect(loggedUrls()).toEqual([
      "/whatsappsession/qrcode/7?barcode=55&bypass=1",
      "/auth/me?code=[redacted]&resetCode=[redacted]&reset_code=[redacted]",
    ]);
  });
});

describe("SecretRoutes", () => {
  it("learns secret routes from their parameters' names, and refuses one without a fixed prefix", () => {
    const routes = new SecretRoutes();
    routes.watch("/users/:id");
    routes.watch("/settings/:key");
    routes.watch("/invites/:email/:code");
    expect(routes.redact({ url: "/users/5" })).toBe("/users/5");
    expect(routes.redact({ url: "/settings/userRating" })).toBe("/settings/userRating");
    expect(routes.redact({ url: "/Invites/a%40b.c/123456" })).toBe("/invites/[redacted]");
    // A segment named like a credential hides what follows it, route or not.
    expect(routes.redact({ url: "/api/v2/Reset-Password/a/b?x=1" })).toBe(
      "/api/v2/reset-password/[redacted]",
    );
    expect(routes.redact({ url: "/forgetpassword/a%40b.c" })).toBe("/forgetpassword/[redacted]");
    expect(routes.redact({ url: "/whatsapp/5/token" })).toBe("/whatsapp/5/token");
    // Matched by the router under a spelling this reading would not guess: the pattern decides.
    expect(routes.redact({ url: "/elsewhere", routeOptions: { url: "/invites/:email/:code" } })).toBe(
      "/invites/[redacted]",
    );
    expect(() => routes.watch("/:token")).toThrow(/fixed prefix/);
  });

  it("reads a path as a router or a proxy might", () => {
    expect(normalizePath("//a///B/./c/../d%2Fe%252F")).toBe("/a/b/d/e");
    expect(normalizePath("/\\x\\y")).toBe("/x/y");
    expect(normalizePath("/../../etc")).toBe("/etc");
  });
});

describe("the harness's own log", () => {
  it("fails a test file whose server logged a test password", async () => {
    const other = await createTestContext();
    // A search is no credential: what it holds is logged as sent.
    await other.app.inject({ method: "GET", url: `/users?searchParam=${TEST_PASSWORD}` });
    await expect(other.close()).rejects.toThrow(/a log line carried a test password/);
  }, 60_000);
});

describe("whose request a line is", () => {
  it("names the signed-in caller's company and user on their request's lines, and no one on another's", async () => {
    const company = await buildCompany(ctx.deps.db);
    const member = await buildMember(ctx, company.id, { profile: "admin" });
    log.text = "";
    const mine = await ctx.app.inject({ method: "GET", url: "/auth/me", headers: member.login.auth });
    const anonymous = await ctx.app.inject({ method: "GET", url: "/auth/me?anonymous=1" });
    expect([mine.statusCode, anonymous.statusCode]).toEqual([200, 401]);
    await logSettled();
    const completed = log.text
      .split("\n")
      .filter((line) => line.includes('"msg":"request completed"'))
      .map((line) => JSON.parse(line) as { reqId: string; companyId?: number; userId?: number });
    const of = (reqId: string) => completed.find((line) => line.reqId === reqId);
    expect(of(mine.headers["x-request-id"] as string)).toMatchObject({
      companyId: company.id,
      userId: member.id,
    });
    const theirs = of(anonymous.headers["x-request-id"] as string);
    expect(theirs).toBeDefined();
    expect(theirs).not.toHaveProperty("userId");
    expect(theirs).not.toHaveProperty("companyId");
  });
});
