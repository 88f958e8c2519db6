import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { type TestContext, createTestContext } from "../test/harness.js";
import { WEBHOOK_DELIVERY_EVENTS } from "@atende/contracts";
import type { SocketEvent } from "./docs.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

interface Operation {
  operationId?: string;
  summary?: string;
  security?: { bearer?: string[]; connectionToken?: string[] }[];
  parameters?: {
    name: string;
    in: string;
    examples?: Record<string, { summary?: string; value: unknown }>;
  }[];
  requestBody?: {
    content: Record<string, { examples?: Record<string, { summary?: string; value: unknown }> }>;
  };
  responses: Record<string, unknown>;
}

interface Document {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
}

async function theDocument(): Promise<Document> {
  const res = await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" });
  expect(res.statusCode).toBe(200);
  return res.json<Document>();
}

/** Every operation of the document with its method and path. */
function operationsOf(doc: Document) {
  return Object.entries(doc.paths).flatMap(([url, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ at: `${method.toUpperCase()} ${url}`, op })),
  );
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
      // A JSON answer is declared (http/answerCheck.ts checks it in every test run); a 204 has none,
      // a file or text says its media type.
      if (r.route.status !== 204 && !r.route.produces)
        expect(r.route.response, `${r.method} ${r.url} declares its answer (response)`).toBeDefined();
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

  it("lists each route's own error codes by status, not the whole catalogue", async () => {
    const doc = await theDocument();
    const described = (at: string, method: string, status: number) =>
      ((doc.paths[at]?.[method]?.responses[String(status)] ?? {}) as { description?: string }).description ??
      "";
    // A ticket that is not there (or another company's); the validation of its id.
    expect(described("/tickets/{id}", "get", 404)).toContain("ERR_NO_TICKET_FOUND");
    expect(described("/tickets/{id}", "get", 400)).toContain("ERR_VALIDATION");
    // Another resource's codes are not a ticket's.
    expect(described("/tickets/{id}", "get", 404)).not.toContain("ERR_NO_CONTACT_FOUND");
    expect(described("/tickets/{id}", "get", 409)).toBe("");
    // A public route has no session to lose.
    expect(described("/auth/login", "post", 401)).not.toContain("ERR_NO_SESSION");
    expect(described("/tags", "post", 403)).toContain("ERR_SESSION_EXPIRED");
  });

  it("names every operation once, by a stable operationId derived from its method and path", async () => {
    const ops = operationsOf(await theDocument());
    const missing = ops.filter(({ op }) => !op.operationId).map(({ at }) => at);
    expect(missing, "operations without an operationId").toEqual([]);
    const malformed = ops.filter(({ op }) => !/^[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$/.test(op.operationId!));
    expect(malformed.map(({ at, op }) => `${at}: ${op.operationId}`)).toEqual([]);
    const byId = new Map<string, string[]>();
    for (const { at, op } of ops) byId.set(op.operationId!, [...(byId.get(op.operationId!) ?? []), at]);
    const clashes = [...byId].filter(([, at]) => at.length > 1).map(([id, at]) => `${id}: ${at.join(", ")}`);
    expect(clashes, "one operationId for two operations (declare operationId on one)").toEqual([]);

    // The rule (http/operationId.ts), and the names the routes declare over it.
    const named = Object.fromEntries(ops.map(({ at, op }) => [at, op.operationId]));
    expect(named).toMatchObject({
      "GET /tickets": "tickets.list",
      "GET /tickets/{id}": "tickets.get",
      "POST /tickets": "tickets.create",
      "PUT /tickets/{id}": "tickets.update",
      "DELETE /tickets/{id}": "tickets.delete",
      "GET /contact-lists": "contactLists.list",
      "POST /campaigns/{id}/cancel": "campaigns.cancel",
      "GET /webhooks/{id}/deliveries": "webhooks.deliveries",
      "DELETE /campaigns/{id}/media-upload": "campaigns.deleteMediaUpload",
      "POST /auth/login": "auth.login",
      "GET /messages/{ticketId}": "messages.list",
      "POST /messages/{ticketId}": "messages.send",
      "POST /api/messages/send": "messagesApi.send",
    });
  });

  it("has a summary on the operations integrators call first, and says how many have none", async () => {
    const ops = operationsOf(await theDocument());
    const summaryOf = new Map(ops.map(({ op }) => [op.operationId, op.summary]));
    const first = [
      ["auth.login", "auth.refreshToken", "auth.me", "auth.logout"],
      ["tickets.list", "tickets.get", "tickets.update", "tickets.delete"],
      ["messages.list", "messages.send", "messagesApi.send"],
      ["contacts.list", "contacts.create", "contacts.update"],
      ["webhooks.list", "webhooks.create"],
    ].flat();
    expect(first.filter((id) => !summaryOf.get(id)?.trim())).toEqual([]);
    const without = ops.filter(({ op }) => !op.summary?.trim());
    // Not a failure (yet): the count to bring down, in the test's output.
    console.info(`/docs: ${ops.length} operations, ${ops.length - without.length} with a summary`);
  });

  it("shows the declared examples of a call's input, each one its route accepts", async () => {
    const doc = await theDocument();
    let count = 0;
    const withExamples = new Set<string>();
    for (const r of ctx.built.routes) {
      if (!r.route || r.route === "asset" || !r.route.examples) continue;
      const at = `${r.method} ${r.url}`;
      const body = r.route.body ?? r.route.bodyDoc;
      const schema = body ?? r.route.query;
      expect(schema, `${at} declares examples of an input it has`).toBeDefined();
      const op = doc.paths[r.url.replace(/:(\w+)/g, "{$1}")]![r.method.toLowerCase()]!;
      withExamples.add(op.operationId!);
      for (const [name, example] of Object.entries(r.route.examples)) {
        count += 1;
        const parsed = schema!.safeParse(example.value);
        expect(parsed.success, `${at}, example ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        if (body) {
          for (const media of Object.values(op.requestBody!.content))
            expect(media.examples?.[name]).toEqual({ summary: example.summary, value: example.value });
        } else {
          for (const [param, value] of Object.entries(example.value)) {
            const p = op.parameters?.find((x) => x.in === "query" && x.name === param);
            expect(p?.examples?.[name], `${at}, example ${name}, ${param}`).toEqual({
              summary: example.summary,
              value,
            });
          }
        }
      }
    }
    expect([...withExamples]).toEqual(
      expect.arrayContaining([
        "auth.login",
        "tickets.list",
        "messages.send",
        "messagesApi.send",
        "contacts.create",
        "webhooks.create",
      ]),
    );
    console.info(`/docs: ${count} examples on ${withExamples.size} operations`);
  });

  it("names the answers' schemas as components and points each answer at its own", async () => {
    const doc = (await theDocument()) as Document & {
      components: { schemas: Record<string, { properties?: Record<string, unknown>; $id?: string }> };
    };
    const tag = doc.components.schemas.Tag;
    expect(Object.keys(tag?.properties ?? {})).toEqual(
      expect.arrayContaining(["id", "name", "color", "kanban", "ticketsCount", "createdAt"]),
    );
    expect(tag?.$id).toBeUndefined();
    const answer = (op: Operation | undefined) =>
      (op?.responses["200"] ?? op?.responses["201"]) as {
        content: { "application/json": { schema: unknown } };
      };
    expect(answer(doc.paths["/tags"]?.get).content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/TagsPage",
    });
    expect(answer(doc.paths["/tags"]?.post).content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Tag",
    });
    // A moment is a date-time, without the long pattern zod would add.
    expect(JSON.stringify(doc.components.schemas.Tag)).not.toContain("pattern");
  });

  it("lists the live channel's events with their payloads, read from contracts' socket.ts", async () => {
    // The committed list is what scripts/socket-events.mjs reads from socket.ts today.
    const { socketEventsJson, SOCKET_EVENTS_FILE } = (await import(
      path.join(repoRoot, "scripts/socket-events.mjs")
    )) as { socketEventsJson: () => string; SOCKET_EVENTS_FILE: string };
    expect(
      fs.readFileSync(SOCKET_EVENTS_FILE, "utf8"),
      "server/src/http/socketEvents.json is out of date: run node scripts/socket-events.mjs",
    ).toBe(socketEventsJson());

    const doc = (await theDocument()) as Document & { "x-socket-events": SocketEvent[] };
    const byName = new Map(doc["x-socket-events"].map((e) => [e.name, e]));
    expect(byName.get("company-{companyId}-ticket")?.payload).toContain("ticket: TicketDTO");
    expect(byName.get("company-{companyId}-appMessage")?.payload).toContain("message: MessageDTO");
    expect(byName.get("company-{companyId}-chat-user-{userId}")?.direction).toBe("server");
    expect(byName.get("joinTickets")).toMatchObject({
      direction: "client",
      payload: expect.stringContaining("status: string"),
    });
    expect(byName.get("ready")?.direction).toBe("server");
    // The reference page's text has them too, with how to connect.
    expect(doc.info.description).toContain("## Live events (Socket.IO)");
    expect(doc.info.description).toContain("auth: { token }");
    expect(doc.info.description).toContain("`company-{companyId}-ticketNote`");
  });

  it("documents every webhook event's body, and how a receiver checks its signature", async () => {
    const doc = (await theDocument()) as Document & {
      webhooks: Record<
        string,
        { post: Operation & { requestBody: { content: Record<string, { schema: unknown }> } } }
      >;
    };
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_DELIVERY_EVENTS].sort());
    const created = doc.webhooks["ticket.created"]!.post;
    expect(created.parameters?.map((p) => p.name)).toEqual(["x-atende-timestamp", "x-atende-signature"]);
    const body = created.requestBody.content["application/json"]!.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(body.required).toEqual(
      expect.arrayContaining(["event", "companyId", "deliveryId", "createdAt", "data"]),
    );
    expect(body.properties.event).toMatchObject({ const: "ticket.created" });
    expect(body.properties.data).toEqual({ $ref: "#/components/schemas/Ticket" });
    const message = doc.webhooks["message.created"]!.post.requestBody.content["application/json"]!.schema as {
      properties: Record<string, unknown>;
    };
    expect(message.properties.data).toEqual({ $ref: "#/components/schemas/MessageEvent" });
    expect(doc.info.description).toContain("## Webhooks");
    expect(doc.info.description).toContain('createHmac("sha256", secret)');
  });

  it("is downloadable as JSON and as YAML, the same document, linked from the reference page", async () => {
    const json = await ctx.app.inject({ method: "GET", url: "/docs/openapi.json" });
    expect(json.statusCode).toBe(200);
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    const yaml = await ctx.app.inject({ method: "GET", url: "/docs/openapi.yaml" });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers["content-type"]).toMatch(/^application\/yaml/);
    expect(parseYaml(yaml.body)).toEqual(json.json());
    // The page shows the document's description: it links to both files.
    const { description } = json.json<Document>().info;
    expect(description).toContain("(/docs/openapi.json)");
    expect(description).toContain("(/docs/openapi.yaml)");
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

  it("a folder of the build asked for by a client that is not a browser is not found, not a refusal of its input", async () => {
    // A health checker or a script asking for / (no Accept: text/html) got 400 ERR_VALIDATION
    // "Forbidden": the static files' 403 for a folder read as a client's bad input.
    for (const url of ["/", "/assets/"]) {
      const res = await ctx.app.inject({ method: "GET", url, headers: { accept: "application/json" } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: "ERR_ROUTE_NOT_FOUND" });
    }
    const missing = await ctx.app.inject({ method: "GET", url: "/assets/nothing-here.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: "ERR_ROUTE_NOT_FOUND" });
  });
});
