import fs from "node:fs";
import type { FastifyInstance } from "fastify";
import { type ZodType, z } from "zod";
import type { ErrorCode } from "@atende/contracts";
import type { RouteDeclaration } from "./route.js";

/** The code an error answer its route does not declare is replaced by (tests only). */
export const ERROR_UNDECLARED = "ERR_ERROR_UNDECLARED";
/** A test's request made of random input (http/guard.test.ts): an undeclared code is reported, not refused. */
export const FUZZ_HEADER = "x-test-fuzz";
/** On such an answer: the undeclared code it carried. */
export const UNDECLARED_HEADER = "x-test-undeclared-error";

/** What any request may meet before its route's own work: a body the server cannot read. */
const ANY_REQUEST: readonly ErrorCode[] = ["ERR_VALIDATION", "ERR_PAYLOAD_TOO_LARGE"];
/** A signed-in caller's session and company, checked before every route that is not public. */
const SIGNED_IN: readonly ErrorCode[] = [
  "ERR_NO_SESSION",
  "ERR_SESSION_EXPIRED",
  "ERR_SUBSCRIPTION_EXPIRED",
  "ERR_COMPANY_INACTIVE",
];

/** An input field that names another resource, and the code of that resource not being there. */
const REFERENCES: Record<string, ErrorCode> = {
  whatsappId: "ERR_NO_WAPP_FOUND",
  whatsappIds: "ERR_NO_WAPP_FOUND",
  queueId: "ERR_NO_QUEUE_FOUND",
  queueIds: "ERR_NO_QUEUE_FOUND",
  selectedQueueIds: "ERR_NO_QUEUE_FOUND",
  tagId: "ERR_NO_TAG_FOUND",
  tagIds: "ERR_NO_TAG_FOUND",
  tags: "ERR_NO_TAG_FOUND",
  tagListId: "ERR_NO_TAG_FOUND",
  companyId: "ERR_NO_COMPANY_FOUND",
  companyIds: "ERR_NO_COMPANY_FOUND",
  contactListId: "ERR_NO_CONTACT_LIST_FOUND",
  fileListId: "ERR_NO_FILE_LIST_FOUND",
  contactId: "ERR_NO_CONTACT_FOUND",
  userId: "ERR_NO_USER_FOUND",
  userIds: "ERR_NO_USER_FOUND",
  ticketId: "ERR_NO_TICKET_FOUND",
  promptId: "ERR_NO_PROMPT_FOUND",
  integrationId: "ERR_NO_QUEUE_INTEGRATION_FOUND",
  planId: "ERR_PLAN_NOT_FOUND",
};

/** The fields of an input schema (an object's properties, as JSON Schema reads them). */
function fieldsOf(schema: ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(json.properties ?? {});
}

/**
 * The error codes a route's declaration implies: its input (a bad one; a field naming another
 * resource that is not there, or is another company's), its access, its plan flag, its limit.
 */
export function impliedErrors(decl: RouteDeclaration): ErrorCode[] {
  const codes: ErrorCode[] = [...ANY_REQUEST];
  for (const field of [...fieldsOf(decl.body ?? decl.bodyDoc), ...fieldsOf(decl.query)]) {
    const missing = REFERENCES[field];
    if (missing) codes.push(missing);
  }
  if (decl.access !== "public") codes.push(...SIGNED_IN);
  // The public API's caller: a connection's token, its company's standing and plan.
  if (decl.connectionToken)
    codes.push(
      "ERR_API_TOKEN_INVALID",
      "ERR_SUBSCRIPTION_EXPIRED",
      "ERR_COMPANY_INACTIVE",
      "ERR_PLAN_FEATURE_DISABLED",
    );
  if (decl.access !== "public" && decl.access !== "user") codes.push("ERR_NO_PERMISSION");
  if (decl.plan) codes.push("ERR_PLAN_FEATURE_DISABLED");
  if (decl.rateLimit) codes.push("ERR_TOO_MANY_REQUESTS");
  return codes;
}

/** Every error code a route may answer: implied by its declaration, or declared (`errors`). */
export function errorsOf(decl: RouteDeclaration): ErrorCode[] {
  let codes = known.get(decl);
  if (!codes) known.set(decl, (codes = [...new Set([...impliedErrors(decl), ...(decl.errors ?? [])])]));
  return codes;
}
const known = new WeakMap<RouteDeclaration, ErrorCode[]>();

/** The `error` of an error answer's JSON body, if it has one. */
function errorCodeOf(payload: string): string | undefined {
  try {
    const body = JSON.parse(payload) as { error?: unknown };
    return typeof body.error === "string" ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks every error answer (4xx) of a declared route against the codes it may answer (errorsOf),
 * so the API document's list of each route's errors holds for every call the suite makes. An
 * undeclared code is replaced by a 500 ERR_ERROR_UNDECLARED naming the route and the code, so the
 * test that made the call fails and says what to declare. On in tests (NODE_ENV=test).
 * `recordTo` (a file) records undeclared codes as "METHOD url CODE" lines instead of refusing them.
 */
export function checkErrors(app: FastifyInstance, recordTo?: string) {
  const declared = new WeakMap<RouteDeclaration, Set<string>>();
  app.addHook("onSend", (req, reply, payload, done) => {
    const decl = req.routeOptions.config.route;
    const status = reply.statusCode;
    if (!decl || decl === "asset" || status < 400 || status >= 500 || typeof payload !== "string")
      return done(null, payload);
    const code = errorCodeOf(payload);
    if (!code) return done(null, payload);
    let codes = declared.get(decl);
    if (!codes) declared.set(decl, (codes = new Set(errorsOf(decl))));
    if (codes.has(code)) return done(null, payload);
    const at = `${req.method} ${req.routeOptions.url}`;
    if (recordTo) fs.appendFileSync(recordTo, `${at} ${code}\n`);
    // The guard suite's random inputs reach codes by chance: it is told, and lists them, but a
    // random draw does not fail a run (FUZZ_HEADER); every other test's call does.
    if (recordTo || req.headers[FUZZ_HEADER]) {
      reply.header(UNDECLARED_HEADER, code);
      return done(null, payload);
    }
    reply.code(500);
    done(
      null,
      JSON.stringify({
        error: ERROR_UNDECLARED,
        message: `${at} answered ${status} ${code}, which its declaration does not list (errors)`,
      }),
    );
  });
}
