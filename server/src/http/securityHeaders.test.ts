import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../test/calls.js";
import { type LoggedIn, buildTeam } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import { logCapture } from "../test/logLeaks.js";

/**
 * Security headers (issue 32, finding 7) on the built web app's page, the API, errors and files: the
 * CSP, frame-ancestors 'none' and X-Frame-Options DENY, nosniff, a strict Referrer-Policy, HSTS only
 * when the request came over https as the app trusts it; media keep their own sandboxing CSP. And
 * the CSP's report endpoint.
 */

/** The proxy this app trusts (TRUST_PROXY): X-Forwarded-Proto counts only from it. */
const PROXY = "10.77.0.1";

let ctx: TestContext;
let webDist: string;
let admin: LoggedIn;
const log = logCapture();
beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), "atende-headers-web-"));
  fs.writeFileSync(path.join(webDist, "index.html"), "<!doctype html><html><body>the SPA</body></html>");
  fs.writeFileSync(path.join(webDist, "sw.js"), "self.addEventListener('push', () => {})");
  ctx = await createTestContext(
    { WEB_DIST: webDist, TRUST_PROXY: PROXY, trustProxy: [PROXY] },
    { logger: log.logger },
  );
  admin = (await buildTeam(ctx)).adminLogin;
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, remoteAddress = "10.1.2.3") =>
  ctx.app.inject({ method: "GET", url, headers, remoteAddress });

/** A CSP header as its directives: name → sources. */
function directives(csp: unknown): Record<string, string[]> {
  expect(typeof csp, "a Content-Security-Policy header").toBe("string");
  return Object.fromEntries(
    (csp as string)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectAppHeaders(headers: Record<string, unknown>) {
  const csp = directives(headers["content-security-policy"]);
  expect(csp["default-src"]).toEqual(["'self'"]);
  expect(csp["script-src"]).toEqual(["'self'"]);
  expect(csp["object-src"]).toEqual(["'none'"]);
  expect(csp["base-uri"]).toEqual(["'self'"]);
  expect(csp["frame-ancestors"]).toEqual(["'none'"]);
  expect(csp["report-uri"]).toEqual(["/csp-report"]);
  // Plain http on a LAN address must keep working.
  expect(csp["upgrade-insecure-requests"]).toBeUndefined();
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["content-security-policy-report-only"]).toBeUndefined();
}

describe("security headers", () => {
  it("the web app's page: the CSP (no inline script), frame-ancestors 'none', DENY, nosniff, a strict referrer", async () => {
    const res = await get("/tickets", { accept: "text/html" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("the SPA");
    expectAppHeaders(res.headers);
    // What the built app needs beyond 'self': emotion's styles, previews and avatars, the socket.
    const csp = directives(res.headers["content-security-policy"]);
    expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["img-src"]).toEqual(expect.arrayContaining(["'self'", "data:", "blob:"]));
    expect(csp["media-src"]).toEqual(expect.arrayContaining(["'self'", "blob:"]));
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["worker-src"]).toEqual(["'self'"]);
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    // The background worker's script too.
    expectAppHeaders((await get("/sw.js")).headers);
  });

  it("the API's answers, errors included", async () => {
    const health = await get("/health");
    expect(health.statusCode).toBe(200);
    expectAppHeaders(health.headers);
    const missing = await get("/no-such-route");
    expectError(missing, 404, "ERR_ROUTE_NOT_FOUND");
    expectAppHeaders(missing.headers);
    const noSession = await get("/tickets");
    expectError(noSession, 401, "ERR_NO_SESSION");
    expectAppHeaders(noSession.headers);
    // Refused by the route's own validation, and by its handler: the same headers.
    const invalid = await get("/tickets/not-a-number", admin.auth);
    expectError(invalid, 400, "ERR_VALIDATION");
    expectAppHeaders(invalid.headers);
    const absent = await get("/tickets/999999999", admin.auth);
    expectError(absent, 404, "ERR_NO_TICKET_FOUND");
    expectAppHeaders(absent.headers);
    // Each answer names its request, as its log lines do.
    for (const res of [health, missing, noSession, invalid, absent])
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set([health, missing, absent].map((r) => r.headers["x-request-id"])).size).toBe(3);
  });

  it("media keep their own sandboxing CSP", async () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const stored = await ctx.deps.media.save(admin.user.companyId, png, "image/png");
    const res = await get(`/media/${stored.path}`, admin.auth);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
  });

  it("HSTS only when the request came over https: through the trusted proxy, never on a forged header", async () => {
    const viaProxy = await get("/health", { "x-forwarded-proto": "https" }, PROXY);
    expect(viaProxy.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const page = await get("/tickets", { accept: "text/html", "x-forwarded-proto": "https" }, PROXY);
    expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    // Plain http through the proxy, and a client that claims https itself: no HSTS.
    expect(
      (await get("/health", { "x-forwarded-proto": "http" }, PROXY)).headers["strict-transport-security"],
    ).toBeUndefined();
    expect(
      (await get("/health", { "x-forwarded-proto": "https" })).headers["strict-transport-security"],
    ).toBeUndefined();
  });
});

describe("POST /csp-report", () => {
  const report = (body: unknown, contentType = "application/csp-report", remoteAddress = "10.5.0.1") =>
    ctx.app.inject({
      method: "POST",
      url: "/csp-report",
      payload: JSON.stringify(body),
      headers: { "content-type": contentType },
      remoteAddress,
    });

  it("logs one warning per report: each violation's directive, blocked origin and page path; no query string", async () => {
    log.text = "";
    const res = await report({
      "csp-report": {
        "document-uri": "https://app.example/tickets/abc?token=page-secret#x",
        "violated-directive": "img-src",
        "effective-directive": "img-src",
        "blocked-uri": "https://tracker.example/pixel.gif?session=blocked-secret",
        disposition: "enforce",
        "original-policy": "default-src 'self'",
      },
    });
    expect(res.statusCode).toBe(204);
    const lines = log.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "csp violation");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      violations: [
        {
          directive: "img-src",
          blocked: "https://tracker.example",
          page: "/tickets/abc",
          disposition: "enforce",
        },
      ],
    });
    expect(log.text).not.toMatch(/page-secret|blocked-secret|pixel\.gif/);

    // The Reporting API's shape, and a keyword instead of a URL.
    log.text = "";
    const api = await report(
      Array.from({ length: 12 }, () => ({
        type: "csp-violation",
        body: {
          documentURL: "https://app.example/",
          effectiveDirective: "script-src-elem",
          blockedURL: "inline",
        },
      })),
      "application/reports+json",
    );
    expect(api.statusCode).toBe(204);
    // A batch is one line, whatever its length (at most 10 violations kept): a report cannot flood the log.
    const batch = log.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string; violations?: unknown[] })
      .filter((l) => l.msg === "csp violation");
    expect(batch).toHaveLength(1);
    expect(batch[0]!.violations).toHaveLength(10);
    expect(log.text).toContain('"directive":"script-src-elem"');
    expect(log.text).toContain('"blocked":"inline"');
  });

  it("takes no session, refuses a large body or bad JSON with a 4xx, and is limited per address", async () => {
    const big = await report(
      { "csp-report": { "blocked-uri": "x".repeat(20_000) } },
      "application/csp-report",
      "10.5.0.2",
    );
    expect(big.statusCode).toBe(413);
    const bad = await ctx.app.inject({
      method: "POST",
      url: "/csp-report",
      payload: "{not json",
      headers: { "content-type": "application/csp-report" },
      remoteAddress: "10.5.0.2",
    });
    expect(bad.statusCode).toBe(400);
    // Anything else is taken and ignored.
    expect((await report({ hello: 1 }, "application/json", "10.5.0.2")).statusCode).toBe(204);
    for (let i = 0; i < 60; i++)
      expect((await report({}, "application/csp-report", "10.5.0.3")).statusCode).toBe(204);
    const limited = await report({}, "application/csp-report", "10.5.0.3");
    expectError(limited, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});
