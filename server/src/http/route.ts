import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import type { ZodType, z } from "zod";
import type { ErrorCode, Permission, PlanFlag } from "@atende/contracts";
import { type AuthContext, authOf, authorize, requireSuper } from "./auth.js";
import { parseInput } from "./errors.js";

/**
 * Who may call a route: anyone (`public`), any signed-in user of a company (`user`), a user whose
 * profile holds a permission key (contracts' PERMISSIONS), or the platform's super user (`super`).
 */
export type Access = "public" | "user" | "super" | Permission;

/**
 * A route's contract, declared once in its Fastify route options (`config.route`). The guard
 * preHandler enforces `access`, the handler gets `params`/`query`/`body` parsed with parseInput
 * (the same 400 ERR_VALIDATION answers as ever), /docs documents it, and the guard suite
 * (http/guard.test.ts) calls it unauthenticated, as another company, as an agent and fuzzed.
 */
export interface RouteDeclaration {
  access: Access;
  /**
   * The plan flag the feature needs (contracts' PLAN_FLAGS). The route guard refuses a caller whose
   * company's plan lacks it with 403 ERR_PLAN_FEATURE_DISABLED, before the handler (see requirePlan).
   */
  plan?: PlanFlag;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /**
   * A body read by the handler itself (multipart, a file, a schema chosen by the params): documented
   * from this schema, not parsed before the handler.
   */
  bodyDoc?: ZodType;
  /** The media type of a body that is not JSON. */
  consumes?: readonly string[];
  /** The success status (200 unless said); 204 answers no body. */
  status?: 200 | 201 | 204;
  /** The success answer's schema (contracts' answers); checked against every answer in tests. */
  response?: ZodType;
  /**
   * The error codes its handler may answer besides those the declaration implies (impliedErrors,
   * http/errorCheck.ts: a bad input, no session, a missing permission or plan flag, a rate limit).
   * The API document lists them per status, and in tests an answer with a code not declared fails.
   */
  errors?: readonly ErrorCode[];
  /** The media type of an answer that is not JSON (CSV, NDJSON, a file). */
  produces?: string;
  /** One line: what the call does, as a generated client's docs and the reference page show it. */
  summary?: string;
  /**
   * The operation's name in the API document, where the one derived from the method and path
   * (operationIdOf, http/operationId.ts) reads poorly or clashes with another route's.
   */
  operationId?: string;
  /**
   * Named examples of a whole call's input for the API document: of the body (`body` or `bodyDoc`),
   * or, on a route without one, of the query, each value shown on its parameter. The docs test
   * parses each with the route's schema, so an example that the route would refuse fails it.
   */
  examples?: Record<string, RouteExample>;
  /** A past-due company's admins still reach it (see lockoutOf). */
  reachableWhenPastDue?: boolean;
  bodyLimit?: number;
  /**
   * At most `max` calls per `windowSeconds`, per route and per caller: the client's address (`ip`,
   * the default) or the signed-in user (`user`; the address on a public route). Every call counts;
   * over it, 429 ERR_TOO_MANY_REQUESTS (see makeRateLimitGuard).
   */
  rateLimit?: RateLimit;
  /**
   * A `public` route whose handler authenticates the caller itself by a connection's API token
   * (`Authorization: Bearer <token>`, the public messages API): documented with that scheme.
   */
  connectionToken?: boolean;
  /** More for the API document than the summary says. */
  description?: string;
}

export interface RouteExample {
  summary: string;
  value: Record<string, unknown>;
}

export interface RateLimit {
  max: number;
  windowSeconds: number;
  /** `token`: the bearer token sent (hashed; the address when none is sent). */
  by?: "ip" | "user" | "token";
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's declaration (see RouteDeclaration); `asset` marks static files and the docs' pages. */
    route?: RouteDeclaration | "asset";
  }
}

type Out<S> = S extends ZodType ? z.output<S> : undefined;

/** What a declared route's handler receives: the input parsed from its declaration, and the caller. */
export interface RouteInput<D extends RouteDeclaration> {
  /** The caller (routes other than `public`); read lazily, as authOf. */
  auth: AuthContext;
  params: Out<D["params"]>;
  query: Out<D["query"]>;
  body: Out<D["body"]>;
}

type Handler<D extends RouteDeclaration> = (
  input: RouteInput<D>,
  req: FastifyRequest,
  reply: FastifyReply,
) => unknown;

/** Registers a declared route. The handler's answer is sent with the declared status. */
function declare<D extends RouteDeclaration>(
  app: FastifyInstance,
  method: HTTPMethods,
  url: string,
  decl: D,
  handler: Handler<D>,
) {
  app.route({
    method,
    url,
    ...(decl.bodyLimit ? { bodyLimit: decl.bodyLimit } : {}),
    config: { route: decl, reachableWhenPastDue: decl.reachableWhenPastDue },
    handler: async (req, reply) => {
      // Parsed in the order the handlers always did: params, then query, then body.
      const params = decl.params ? parseInput(decl.params, req.params, req) : undefined;
      const query = decl.query ? parseInput(decl.query, req.query, req) : undefined;
      const body = decl.body ? parseInput(decl.body, req.body, req) : undefined;
      const input = {
        get auth() {
          return authOf(req);
        },
        params,
        query,
        body,
      } as RouteInput<D>;
      reply.status(decl.status ?? 200);
      const out = await handler(input, req, reply);
      if (decl.status === 204 && !reply.sent) return reply.send();
      return out;
    },
  });
}

/** `r.get(url, declaration, handler)`...: the way every route is registered. */
export function routes(app: FastifyInstance) {
  const at =
    (method: HTTPMethods) =>
    <D extends RouteDeclaration>(url: string, decl: D, handler: Handler<D>) =>
      declare(app, method, url, decl, handler);
  return { get: at("GET"), post: at("POST"), put: at("PUT"), delete: at("DELETE") };
}

/** Whether the caller passes a route's declared access (authentication was checked before). */
export function checkAccess(actor: AuthContext, access: Access): void {
  if (access === "public" || access === "user") return;
  if (access === "super") requireSuper(actor);
  else authorize(actor, access);
}

/**
 * The one preHandler that enforces declarations: a route not `public` needs a live session (401/403
 * as requireAuth answers), the declared access (403 ERR_NO_PERMISSION), and the declared plan flag
 * (403 ERR_PLAN_FEATURE_DISABLED, see http/plan.ts: the caller's own company's plan, so it tells nothing of another
 * company's rows, and is checked on every gated route, with or without an id in its path). A route
 * naming a resource in its path answers 404 for another company's resource before any 403 of
 * access, as if it did not exist: its service looks the resource up first and checks the declared
 * permission after. A route without a declaration is not public (the guard suite refuses it
 * anyway); static files and the docs' pages are marked `asset`. Services keep their own checks.
 */
export function makeRouteGuard(
  /** Sets req.auth or throws; answers a promise only when it had to read something (auth.ts). */
  requireAuth: (req: FastifyRequest, reply: FastifyReply) => Promise<void> | void,
  /** Throws unless the company's plan has the flag: `requirePlan` (http/plan.ts) on the app's database. */
  requirePlanFlag: (companyId: number, flag: PlanFlag) => Promise<void>,
) {
  /** What follows the authentication: the route's access, then its plan flag. */
  function authorizeRoute(req: FastifyRequest, decl: RouteDeclaration | undefined, done: HookDone) {
    if (!decl) return done();
    try {
      if (!req.routeOptions.url?.includes(":")) checkAccess(authOf(req), decl.access);
    } catch (err) {
      return done(err as Error);
    }
    if (decl.plan) return requirePlanFlag(authOf(req).companyId, decl.plan).then(() => done(), done);
    done();
  }
  // Written with `done`, not async: a request whose caller is known fresh (nearly all) passes the
  // guard without a promise.
  return function routeGuard(req: FastifyRequest, reply: FastifyReply, done: HookDone) {
    const decl = req.routeOptions.config.route;
    if (req.is404 || decl === "asset" || decl?.access === "public") return done();
    let pending: Promise<void> | void;
    try {
      pending = requireAuth(req, reply);
    } catch (err) {
      return done(err as Error);
    }
    if (pending) return void pending.then(() => authorizeRoute(req, decl, done), done);
    authorizeRoute(req, decl, done);
  };
}

type HookDone = (err?: Error) => void;

/** A registered route as the guard suite and the API document see it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  route: RouteDeclaration | "asset" | undefined;
}

/**
 * Collects every route the app registers (add before any route). A route hidden from the API
 * document without a declaration (static files, the docs' own pages) is marked an `asset`: public.
 */
export function collectRoutes(app: FastifyInstance): RegisteredRoute[] {
  const registered: RegisteredRoute[] = [];
  app.addHook("onRoute", (opts) => {
    const hidden = (opts.schema as { hide?: boolean } | undefined)?.hide === true;
    if (!opts.config?.route && hidden) opts.config = { ...opts.config, route: "asset" };
    for (const method of [opts.method].flat())
      if (method !== "HEAD") registered.push({ method, url: opts.url, route: opts.config?.route });
  });
  return registered;
}
