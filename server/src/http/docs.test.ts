import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../test/harness.js";

interface Operation {
  security?: { bearer?: string[]; connectionToken?: string[] }[];
  responses: Record<string, unknown>;
}

let ctx: TestContext;
let webDist: string;
beforeAll(async () => {
  // A built web app: /docs must still reach the reference page, not the SPA's index.html.
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), "atende-docs-web-"));
  fs.writeFileSync(path.join(webDist, "index.html"), "<html>the SPA</html>");
  fs.mkdirSync(path.join(webDist, "assets"));
  fs.writeFileSync(path.join(webDist, "assets", "index-Di3NXC7G.js"), "console.log('app')");
  fs.writeFileSync(path.join(webDist, "sw.js"), "self.addEventListener('push', () => {})");
  ctx = await createTestContext({ WEB_DIST: webDist });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe("/docs", () => {
  it("serves a valid OpenAPI 3.1 document listing every registered route with its auth and errors", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { required?: string[] }> };
    }>();
    expect(doc.openapi).toBe("3.1.0");
    // Error answers share contracts' ErrorBody shape.
    expect(doc.components.schemas.ErrorBody?.required).toEqual(["error", "message"]);
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);

    const declared = ctx.built.routes.filter((r) => r.route && r.route !== "asset");
    expect(declared.length).toBeGreaterThan(100);
    for (const r of declared) {
      if (r.route === "asset" || !r.route) continue;
      const openApiPath = r.url.replace(/:(\w+)/g, "{$1}");
      const op = doc.paths[openApiPath]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url} in the document`).toBeDefined();
      if (r.route.connectionToken) {
        // Public to the session guard; the handler checks a connection's token.
        expect(op!.security).toEqual([{ connectionToken: [] }]);
        expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(["400", "401", "403"]));
      } else if (r.route.access === "public") expect(op!.security).toEqual([]);
      else {
        expect(op!.security).toEqual([{ bearer: [] }]);
        expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(["400", "401", "403"]));
      }
    }
  });

  it("serves the reference page to a browser, past the web app's navigation fallback", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/docs", headers: { accept: "text/html" } });
    const page =
      res.statusCode === 302
        ? await ctx.app.inject({
            method: "GET",
            url: res.headers.location!,
            headers: { accept: "text/html" },
          })
        : res;
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("the SPA");
    expect(page.body.toLowerCase()).toContain("swagger");
    // The web app's own pages still get the SPA.
    const spa = await ctx.app.inject({ method: "GET", url: "/tickets", headers: { accept: "text/html" } });
    expect(spa.body).toContain("the SPA");
  });
});

describe("the web app's files", () => {
  it("a hashed build file is cached for a year; the page and the background worker are checked on every visit", async () => {
    // A new build writes new names under /assets/, so a browser never revalidates one it holds
    // (it did: max-age=0 sent ~100 conditional requests at every navigation).
    const asset = await ctx.app.inject({ method: "GET", url: "/assets/index-Di3NXC7G.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const worker = await ctx.app.inject({ method: "GET", url: "/sw.js" });
    expect(worker.headers["cache-control"]).toBe("no-cache");
    const page = await ctx.app.inject({ method: "GET", url: "/tickets", headers: { accept: "text/html" } });
    expect(page.headers["cache-control"]).toBe("no-cache");
  });
});
