import type { FastifyInstance } from "fastify";
import type { ZodType } from "zod";
import type { RouteDeclaration } from "./route.js";

/** The code a checked answer that breaks its route's declaration is replaced by (tests only). */
export const ANSWER_MISMATCH = "ERR_ANSWER_MISMATCH";

/** The schema a declared route's answer of this status must match, if it declares one. */
export function answerSchemaOf(decl: RouteDeclaration, status: number): ZodType | undefined {
  if (status === (decl.status ?? 200)) return decl.response;
  return undefined;
}

/**
 * The paths of the fields an answer carries that its parsed form dropped: zod objects strip the
 * keys they do not declare, so what is in the answer and not in the parse is not in the document.
 */
export function undeclared(sent: unknown, parsed: unknown, at = ""): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed))
    return sent.flatMap((item, i) => undeclared(item, parsed[i], `${at}${i}.`));
  if (!isObject(sent) || !isObject(parsed)) return [];
  return Object.keys(sent).flatMap((key) =>
    key in parsed ? undeclared(sent[key], parsed[key], `${at}${key}.`) : [`${at}${key}`],
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks every JSON answer of a declared route against the schema its declaration gives for the
 * status (RouteDeclaration.response), as the client receives it: the serialized JSON, parsed. A
 * field the declaration does not name is a mismatch (the document names every field a client
 * gets), and so is a route that declares an answer and sends another status of success. A mismatch
 * replaces the answer with a 500 ERR_ANSWER_MISMATCH naming the route and where in the body it
 * differs, so the test that made the request fails on it and says why; the API document then holds
 * for every call the suite makes. On in tests (NODE_ENV=test); a parse of each answer is a cost
 * production does not pay.
 */
export function checkAnswers(app: FastifyInstance) {
  app.addHook("onSend", (req, reply, payload, done) => {
    const decl = req.routeOptions.config.route;
    if (!decl || decl === "asset" || !decl.response) return done(null, payload);
    const status = reply.statusCode;
    if (status >= 300) return done(null, payload);
    const at = `${req.method} ${req.routeOptions.url}`;
    const refuse = (why: string) => {
      reply.code(500).type("application/json; charset=utf-8");
      done(null, JSON.stringify({ error: ANSWER_MISMATCH, message: `${at}: ${why}` }));
    };
    const schema = answerSchemaOf(decl, status);
    if (!schema) return refuse(`answered ${status}, its declaration says ${decl.status ?? 200}`);
    if (typeof payload !== "string") return done(null, payload);
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return refuse("the answer is not JSON");
    }
    const result = schema.safeParse(body);
    if (result.success) {
      const extra = undeclared(body, result.data);
      if (extra.length === 0) return done(null, payload);
      return refuse(
        `the answer carries fields its declaration does not name: ${extra.slice(0, 5).join(", ")}`,
      );
    }
    const issues = result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(the body)"}: ${issue.message}`)
      .join("; ");
    return refuse(`the answer differs from its declaration at ${issues}`);
  });
}
