import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { type ZodType, z } from "zod";
import {
  ERRORS,
  type ErrorCode,
  WEBHOOK_DELIVERY_EVENTS,
  WEBHOOK_PAYLOADS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  webhookPayloadSchema,
} from "@atende/contracts";
import { VERSION } from "../version.js";
import { errorsOf } from "./errorCheck.js";
import { operationIdOf } from "./operationId.js";
import { type RouteDeclaration, type RouteExample, routes } from "./route.js";
import socketEvents from "./socketEvents.json" with { type: "json" };

/** A moment is `format: date-time`; the long pattern zod adds for it says no more. */
function plainDates(ctx: { jsonSchema: Record<string, unknown> }) {
  if (ctx.jsonSchema.format === "date-time") delete ctx.jsonSchema.pattern;
}

/** Where a named schema (`.meta({ id })`, contracts' answers) sits in the document. */
const componentUri = (id: string) => `#/components/schemas/${id}`;

/**
 * A zod schema as JSON Schema (OpenAPI 3.1 speaks JSON Schema 2020-12): what a client sends
 * (`input`), or what it receives (`output`), where a named schema inside is a reference to its
 * component.
 */
function jsonSchema(schema: ZodType, io: "input" | "output" = "input"): Record<string, unknown> {
  const id = io === "output" ? (z.globalRegistry.get(schema)?.id as string | undefined) : undefined;
  if (id) return { $ref: componentUri(id) };
  const {
    $schema: _,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  if (io === "input" || !$defs) return { ...json, ...($defs ? { $defs } : {}) };
  // Named schemas are the document's components: their $defs entries go, their references point there.
  const named = new Set(Object.keys(namedSchemas()));
  const kept = Object.fromEntries(
    Object.entries($defs as Record<string, unknown>).filter(([name]) => !named.has(name)),
  );
  const rewritten = JSON.parse(
    JSON.stringify(json).replace(/"#\/\$defs\/([^"]+)"/g, (ref, name: string) =>
      named.has(name) ? JSON.stringify(componentUri(name)) : ref,
    ),
  ) as Record<string, unknown>;
  return Object.keys(kept).length ? { ...rewritten, $defs: kept } : rewritten;
}

/** Every named answer schema (contracts' `.meta({ id })`), as the document's components. */
let named: Record<string, unknown> | null = null;
function namedSchemas(): Record<string, unknown> {
  named ??= buildNamedSchemas();
  return named;
}

function buildNamedSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: "output",
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: componentUri,
    override: plainDates,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _, $id: __, id: ___, ...json } = schema as Record<string, unknown>;
      return [id, json];
    }),
  );
}

/** One event of the live channel, as scripts/socket-events.mjs reads it from contracts' socket.ts. */
export interface SocketEvent {
  name: string;
  direction: "server" | "client";
  description: string;
  payload: string;
}

/**
 * The live channel for the reference page: how to connect, then every event with its payload's
 * type (a `XxxDTO` is the schema `Xxx` of this document).
 */
function liveEventsSection(events: readonly SocketEvent[]): string {
  const line = (e: SocketEvent) =>
    `- **\`${e.name}\`**${e.description ? ` — ${e.description}` : ""}\n  \`${e.payload}\``;
  return [
    "## Live events (Socket.IO)",
    "Connect with a Socket.IO 4 client to this server's origin (path `/socket.io`) with the access token " +
      "in the handshake: `io(origin, { auth: { token } })`. The server joins the socket to its company's " +
      "rooms and to those its permissions open, then sends `ready`. A `XxxDTO` below is the schema `Xxx` " +
      "of this document. The same list, machine-readable, is this document's `x-socket-events`.",
    "### Sent by the server",
    ...events.filter((e) => e.direction === "server").map(line),
    "### Sent by the client",
    ...events.filter((e) => e.direction === "client").map(line),
  ].join("\n\n");
}

/** How a receiver checks a delivery, for the reference page: the scheme, and the code that does it. */
const WEBHOOKS_SECTION = [
  "## Webhooks",
  "A company's admin subscribes an endpoint to events (POST /webhooks, or Settings → Webhooks); " +
    "each event is POSTed as JSON (the `webhooks` section of this document lists every event and its body). " +
    `Every delivery carries \`${WEBHOOK_TIMESTAMP_HEADER}\` (Unix seconds) and \`${WEBHOOK_SIGNATURE_HEADER}\`: ` +
    "`sha256=` + the hex HMAC-SHA256, keyed by the subscription's secret (shown once, when made or rotated), " +
    "of the timestamp, a dot, and the raw body. Answer 2xx within 10 s; anything else is retried with " +
    "growing waits for about a day, with the same `deliveryId` (drop the ones you already handled). Check the signature " +
    "on the raw bytes, before parsing, and refuse a timestamp more than 5 minutes off:",
  [
    "```js",
    'import crypto from "node:crypto";',
    "",
    "function verified(rawBody, headers, secret) {",
    `  const timestamp = headers["${WEBHOOK_TIMESTAMP_HEADER}"];`,
    `  const signature = headers["${WEBHOOK_SIGNATURE_HEADER}"] ?? "";`,
    "  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;",
    '  const expected = "sha256=" + crypto.createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");',
    "  return signature.length === expected.length &&",
    "    crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected));",
    "}",
    "```",
  ].join("\n"),
].join("\n\n");

/** The document's `webhooks`: one operation per event, its body the delivery's JSON. */
function webhooksOf(): Record<string, unknown> {
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    schema: { type: "string" },
    description,
  });
  return Object.fromEntries(
    WEBHOOK_DELIVERY_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: `webhook.${event}`,
          summary: WEBHOOK_PAYLOADS[event].when,
          tags: ["webhooks"],
          parameters: [
            header(WEBHOOK_TIMESTAMP_HEADER, "When this attempt was signed, in Unix seconds"),
            header(WEBHOOK_SIGNATURE_HEADER, "sha256= + hex HMAC-SHA256(secret, `${timestamp}.${raw body}`)"),
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(webhookPayloadSchema(event), "output") } },
          },
          responses: { "2XX": { description: "Received: not sent again" } },
        },
      },
    ]),
  );
}

/** This document's own answer: an OpenAPI 3.1 document (its schema is OpenAPI's, not restated here). */
const openApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) })
  .meta({ description: "An OpenAPI 3.1 document" });

/** The YAML media type (RFC 9512). */
const YAML_TYPE = "application/yaml";

/** The `{ error, message }` answer every user-caused error has (contracts' ErrorBody). */
const errorBody = {
  type: "object",
  required: ["error", "message"],
  properties: {
    error: { type: "string", pattern: "^ERR_[A-Z0-9_]+$" },
    message: { type: "string", description: "In the caller's language (Accept-Language: pt, en, es)" },
    fields: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "ERR_VALIDATION: each bad field's message",
    },
    requestId: { type: "string" },
    dueDate: { type: "string", description: "ERR_SUBSCRIPTION_EXPIRED: the due date that passed" },
  },
};

/** What each error status means, before the route's own codes of that status. */
const ERROR_LEADS: Record<number, string> = {
  400: "Bad input (ERR_VALIDATION lists the fields) or a refused action.",
  401: "No usable session (ERR_NO_SESSION): the client logs out.",
  402: "The company's subscription is past due (ERR_SUBSCRIPTION_EXPIRED carries the due date).",
  403: "An expired token (ERR_SESSION_EXPIRED: refresh and retry), a missing permission or plan flag, a locked company.",
  404: "Not found, or another company's.",
  409: "It conflicts with what is there (a duplicate, a state that does not allow it).",
  413: "Too large.",
  429: "Too many calls.",
};

/**
 * The route's error answers, by status: each lists the codes the route may answer with it (its
 * declaration's, http/errorCheck.ts: checked against every error the test suite meets); the shape
 * is components.schemas.ErrorBody.
 */
function errorAnswers(decl: RouteDeclaration): Record<number, Record<string, unknown>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(decl)) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const lead =
        status === 401 && decl.connectionToken
          ? "A missing, empty, unknown or rotated connection token (ERR_API_TOKEN_INVALID)."
          : status === 401 && decl.access === "public"
            ? "The credentials or the token sent are refused."
            : (ERROR_LEADS[status] ?? "");
      return [status, { description: `${lead} One of: ${codes.join(", ")}.`.trim(), $ref: "ErrorBody#" }];
    }),
  );
}

/**
 * The declaration's examples on the body's schema, or on each query parameter's (its value in each
 * example that sets it): @fastify/swagger moves `x-examples` to the media type's or the parameter's
 * named `examples`.
 */
function withExamples(
  schema: Record<string, unknown>,
  examples: Record<string, RouteExample> | undefined,
  on: "body" | "query",
): Record<string, unknown> {
  if (!examples) return schema;
  if (on === "body") return { ...schema, "x-examples": examples };
  const properties = { ...(schema.properties as Record<string, Record<string, unknown>>) };
  for (const [name, prop] of Object.entries(properties)) {
    const set = Object.entries(examples).filter(([, e]) => name in e.value);
    if (set.length === 0) continue;
    properties[name] = {
      ...prop,
      "x-examples": Object.fromEntries(
        set.map(([key, e]) => [key, { summary: e.summary, value: e.value[name] }]),
      ),
    };
  }
  return { ...schema, properties };
}

/** A declaration as the Fastify route schema @fastify/swagger turns into an OpenAPI operation. */
function operationOf(decl: RouteDeclaration, method: string, url: string): Record<string, unknown> {
  const isPublic = decl.access === "public";
  const access =
    decl.access === "public"
      ? "Public."
      : decl.access === "user"
        ? "Any signed-in user."
        : decl.access === "super"
          ? "The platform's super user."
          : `Needs permission \`${decl.access}\`.`;
  const status = decl.status ?? 200;
  const body = decl.body ?? decl.bodyDoc;
  const response: Record<number, unknown> = {
    [status]:
      status === 204
        ? { description: "No content", type: "null" }
        : { description: "Success", ...(decl.response ? jsonSchema(decl.response, "output") : {}) },
    ...errorAnswers(decl),
  };
  const limit = decl.rateLimit;
  // A public route has no user to count by: its limit counts by address (see makeRateLimitGuard).
  const by = limit?.by === "user" && !isPublic ? "user" : limit?.by === "token" ? "token" : "ip";
  const per = by === "user" ? "user" : by === "token" ? "bearer token" : "client address";
  if (limit) {
    const codes = errorsOf(decl).filter((code) => ERRORS[code].status === 429);
    response[429] = {
      description: `Over the limit of ${limit.max} calls per ${limit.windowSeconds} s per ${per} (\`retryAfter\` and Retry-After say the seconds to wait). One of: ${codes.join(", ")}.`,
      $ref: "ErrorBody#",
      headers: { "retry-after": { type: "integer", description: "Seconds to wait" } },
    };
  }
  return {
    operationId: decl.operationId ?? operationIdOf(method, url),
    tags: [url.split("/")[1] ?? "root"],
    ...(decl.summary ? { summary: decl.summary } : {}),
    description:
      (decl.connectionToken ? "Authorization: Bearer <the connection's token>." : access) +
      (decl.plan ? ` Needs the plan flag \`${decl.plan}\`.` : "") +
      (limit ? ` At most ${limit.max} calls per ${limit.windowSeconds} s per ${per}.` : "") +
      (decl.description ? `\n\n${decl.description}` : ""),
    ...(limit ? { "x-rateLimit": { max: limit.max, windowSeconds: limit.windowSeconds, by } } : {}),
    security: decl.connectionToken ? [{ connectionToken: [] }] : isPublic ? [] : [{ bearer: [] }],
    ...(decl.params ? { params: jsonSchema(decl.params) } : {}),
    ...(decl.query
      ? { querystring: withExamples(jsonSchema(decl.query), body ? undefined : decl.examples, "query") }
      : {}),
    ...(body ? { body: withExamples(jsonSchema(body), decl.examples, "body") } : {}),
    ...(decl.consumes ? { consumes: decl.consumes } : {}),
    ...(decl.produces ? { produces: [decl.produces] } : {}),
    response,
  };
}

/**
 * The OpenAPI 3.1 document of every declared route, at /docs/openapi.json, and its reference page at
 * /docs. Register before any route: @fastify/swagger collects routes as they are added.
 */
export async function docsModule(app: FastifyInstance) {
  app.addSchema({ $id: "ErrorBody", ...errorBody });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Atende API",
        version: VERSION,
        description:
          "Download this document as [OpenAPI JSON](/docs/openapi.json) or [OpenAPI YAML](/docs/openapi.yaml) " +
          "(the same document), for a client generator or an API tool.\n\n" +
          'Every error a user can cause answers `{ error: "ERR_...", message }`. An expired access token ' +
          "answers 403 ERR_SESSION_EXPIRED (refresh at POST /auth/refresh_token, then retry); 401 means no session.\n\n" +
          `${WEBHOOKS_SECTION}\n\n` +
          liveEventsSection(socketEvents as SocketEvent[]),
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          connectionToken: {
            type: "http",
            scheme: "bearer",
            description: "A connection's API token (Connections → edit → Token), for POST /api/messages/send",
          },
        },
      },
    },
    // The named answer schemas join the document's components beside ErrorBody.
    transformObject: (document) => {
      if (!("openapiObject" in document)) return document.swaggerObject;
      const { openapiObject } = document;
      const components = openapiObject.components ?? {};
      const withComponents = {
        ...openapiObject,
        components: { ...components, schemas: { ...namedSchemas(), ...components.schemas } },
        webhooks: webhooksOf(),
      } as typeof openapiObject;
      // The live channel's events, for tools (an `x-` extension: OpenAPI has no place for them).
      return Object.assign(withComponents, { "x-socket-events": socketEvents });
    },
    // Shared schemas (ErrorBody) keep their own names under components.schemas.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const decl = route.config?.route;
      if (decl === "asset" || (schema as { hide?: boolean } | undefined)?.hide)
        return { schema: { hide: true }, url };
      return {
        schema: decl ? operationOf(decl, String([route.method].flat()[0]), url) : schema,
        url,
      } as never;
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  const r = routes(app);
  r.get(
    "/docs/openapi.json",
    { access: "public", summary: "This document, as JSON", response: openApiDocument },
    () => app.swagger(),
  );
  r.get(
    "/docs/openapi.yaml",
    { access: "public", summary: "This document, as YAML", produces: YAML_TYPE },
    (_input, _req, reply) => reply.type(`${YAML_TYPE}; charset=utf-8`).send(app.swagger({ yaml: true })),
  );
}
