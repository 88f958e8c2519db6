import type { FastifyReply, FastifyRequest } from "fastify";
import { type Permission, type Profile, can } from "@atende/contracts";
import type { Db } from "../db/client.js";
import type { DomainEvent } from "../events/bus.js";
import {
  companyLockout,
  companyLockoutHeld,
  forgetCompanyStanding,
  pastDueAdminPasses,
} from "./companyStanding.js";
import { AppError } from "./errors.js";
import { SingleFlight } from "../lib/singleFlight.js";
import { bindCaller } from "./logContext.js";
import { findSession } from "./queries.js";
import type { AccessClaims, TokenService } from "./tokens.js";

/** Who is calling: read from the verified token and the user's row, never from the request body. */
export interface AuthContext {
  userId: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  sessionId: string;
}

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** A route a past-due company's admins still reach (the billing issue's payment pages). */
    reachableWhenPastDue?: boolean;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : null;
}

/** Tokens whose signature was verified, per token service (secret): claims and expiry. */
const verified = new WeakMap<TokenService, Map<string, { claims: AccessClaims; expiresAtMs: number }>>();
const VERIFIED_MAX = 5_000;

/**
 * The token's claims: its signature is checked once (HS256 through WebCrypto costs more than the
 * rest of a small request), then remembered until its own `exp`; an expired token is refused as
 * jose refuses it (`exp` at or before now). What the token cannot say (the session still live, the
 * user's profile) is read from the database on every request.
 */
async function verifiedClaims(tokens: TokenService, token: string) {
  const held = heldClaims(tokens, token);
  if (held) return held;
  let cache = verified.get(tokens);
  if (!cache) {
    cache = new Map();
    verified.set(tokens, cache);
  }
  const claims = await tokens.verify(token);
  if (claims === "expired" || claims === "invalid") return claims;
  const exp = expiryOf(token);
  if (exp !== null) {
    if (cache.size >= VERIFIED_MAX) cache.delete(cache.keys().next().value!);
    cache.set(token, { claims, expiresAtMs: exp * 1000 });
  }
  return claims;
}

/** The claims of a token verified before ("expired" once past its `exp`), or undefined: not verified yet. */
function heldClaims(tokens: TokenService, token: string): AccessClaims | "expired" | undefined {
  const hit = verified.get(tokens)?.get(token);
  if (!hit) return undefined;
  return hit.expiresAtMs <= Date.now() ? "expired" : hit.claims;
}

/** The `exp` (seconds) of a token whose signature was just verified. */
function expiryOf(token: string): number | null {
  try {
    const exp = (
      JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { exp?: unknown }
    ).exp;
    return typeof exp === "number" && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}

/** How long a passed session check is trusted by the instance that ran it (see authenticate). */
export const SESSION_CHECK_TTL_MS = 1_000;

interface PassedCheck {
  userId: number;
  /** The caller as the check found them, handed to each request it covers (frozen: shared). */
  context: Readonly<AuthContext>;
  checkedAtMs: number;
}

/**
 * Passed session checks, per database, while at least one `trustSessionChecks` wires their
 * forgetting to a bus: by session id. `generation` moves on every forgetting, so a check read before
 * a revocation committed is not stored after it. Without any (a caller that does not publish
 * changes) every request asks.
 */
interface PassedChecks {
  bySession: Map<string, PassedCheck>;
  generation: number;
  subscribers: number;
  /**
   * The checks being read: a burst of the session's requests arriving when its check went stale
   * (bench/inbound's 50 phones on one token every second) reads it once, not once each.
   */
  reading: SingleFlight<string, Awaited<ReturnType<typeof findSession>>>;
}
const passedChecks = new WeakMap<Db, PassedChecks>();
const PASSED_MAX = 20_000;

/**
 * Lets `authenticate` trust a passed session check for SESSION_CHECK_TTL_MS, and forget a user's
 * checks the moment this instance publishes a change to them: a login (which revokes the user's
 * other sessions), a logout, a revoked session, a profile change, a deletion. So on this instance a
 * revocation or a new profile applies to the very next request; on another instance, within a second.
 * Several apps on one database (tests play instances so) share the checks and each forgets in them.
 * Answers the listener that forgets (registered in listeners.ts) and `close`, at the app's end.
 */
export function trustSessionChecks(db: Db): { heard(event: DomainEvent): void; close(): void } {
  let checks = passedChecks.get(db);
  if (!checks) {
    checks = { bySession: new Map(), generation: 0, subscribers: 0, reading: new SingleFlight() };
    passedChecks.set(db, checks);
  }
  const shared = checks;
  shared.subscribers++;
  const forgetUser = (userId: number) => {
    shared.generation++;
    for (const [sessionId, check] of shared.bySession)
      if (check.userId === userId) shared.bySession.delete(sessionId);
  };
  return {
    heard(event) {
      if (
        event.type === "session.started" ||
        event.type === "session.revoked" ||
        event.type === "user.sessionsRevoked"
      )
        forgetUser(event.userId);
      else if (event.type === "user.saved") forgetUser(event.user.id);
      else if (event.type === "user.deleted") forgetUser(event.userId);
      else if (event.type === "company.saved") forgetCompanyStanding(db, event.companyId);
    },
    close() {
      if (--shared.subscribers === 0 && passedChecks.get(db) === shared) passedChecks.delete(db);
    },
  };
}

/**
 * Resolves an access token to an auth context: 403 ERR_SESSION_EXPIRED for an expired or
 * unverifiable token (the client refreshes and retries); 401 ERR_NO_SESSION when the user is gone
 * or the session was revoked (logout, a login elsewhere). The session check is a database read; a
 * passed one is reused for SESSION_CHECK_TTL_MS when `trustSessionChecks` is on (a burst of an
 * agent's or an integration's requests reads it once).
 */
export async function authenticate(db: Db, tokens: TokenService, token: string | null): Promise<AuthContext> {
  if (!token) throw new AppError("ERR_NO_SESSION");
  const claims = await verifiedClaims(tokens, token);
  if (claims === "expired" || claims === "invalid") throw new AppError("ERR_SESSION_EXPIRED");
  const held = heldCheck(db, claims);
  if (held) return held;
  const checks = passedChecks.get(db);
  const nowMs = performance.now();
  const generation = checks?.generation;
  const read = () => findSession(db, claims.companyId, claims);
  const row = checks
    ? await checks.reading.run(`${generation}:${claims.sessionId}:${claims.userId}`, read)
    : await read();
  if (!row || !row.live) throw new AppError("ERR_NO_SESSION");
  const context: AuthContext = Object.freeze({ ...claims, profile: row.profile, super: row.super });
  if (checks && checks.generation === generation) {
    const map = checks.bySession;
    if (map.size >= PASSED_MAX) map.delete(map.keys().next().value!);
    map.delete(claims.sessionId); // re-inserted last: the map stays in check order
    map.set(claims.sessionId, { userId: claims.userId, context, checkedAtMs: nowMs });
  }
  return context;
}

/** The caller as a session check passed within SESSION_CHECK_TTL_MS on this instance says, or undefined. */
function heldCheck(db: Db, claims: AccessClaims): AuthContext | undefined {
  const passed = passedChecks.get(db)?.bySession.get(claims.sessionId);
  if (!passed || passed.userId !== claims.userId || passed.context.companyId !== claims.companyId)
    return undefined;
  if (performance.now() - passed.checkedAtMs >= SESSION_CHECK_TTL_MS) return undefined;
  // The check's own context, not a copy per request: a session's tokens all name the same user
  // and company (checked above), and the rest is what the check read.
  return passed.context;
}

/**
 * The lockout of a company past its due date or made inactive, for an authenticated caller: the
 * error to answer, or null. The super user is never locked out. The seam for billing: a route
 * declared with `config: { reachableWhenPastDue: true }` stays open to a past-due company's admins.
 */
export async function lockoutOf(
  db: Db,
  auth: AuthContext,
  now: Date,
  route?: { reachableWhenPastDue?: boolean },
): Promise<AppError | null> {
  if (auth.super) return null;
  return lockOnRoute(await companyLockout(db, auth.companyId, now), auth, route);
}

/** The company's lock as a route sees it: a past-due company's admins pass the payment pages. */
function lockOnRoute(
  lock: AppError | null,
  auth: AuthContext,
  route?: { reachableWhenPastDue?: boolean },
): AppError | null {
  return route?.reachableWhenPastDue && pastDueAdminPasses(lock, auth.profile) ? null : lock;
}

/**
 * `authenticate`'s answer when everything it needs is held fresh on this instance (the token's
 * signature verified, the session's check passed within SESSION_CHECK_TTL_MS), or undefined: the
 * caller then goes the whole way. The same rules, without a promise (nearly every request).
 */
function authenticatedNow(db: Db, tokens: TokenService, token: string | null): AuthContext | undefined {
  const claims = token ? heldClaims(tokens, token) : undefined;
  return claims && claims !== "expired" ? heldCheck(db, claims) : undefined;
}

/**
 * The route guard's authentication: the caller's session and company checked, `req.auth` set.
 * Answers nothing when it could decide at once from what is held fresh (see authenticatedNow and
 * companyLockoutHeld), a promise otherwise; throws (or rejects) the refusal.
 */
export function makeRequireAuth(db: Db, tokens: TokenService, now: () => Date = () => new Date()) {
  function admit(req: FastifyRequest, auth: AuthContext, lock: AppError | null) {
    if (lock) throw lock;
    req.auth = auth;
  }
  return function requireAuth(req: FastifyRequest, _reply: FastifyReply): Promise<void> | void {
    const token = bearerToken(req);
    const route = req.routeOptions.config;
    const known = authenticatedNow(db, tokens, token);
    if (known) {
      // Every later line of this request (its "request completed" too) says whose it was.
      bindCaller(req.log, known);
      const held = known.super ? null : companyLockoutHeld(db, known.companyId, now());
      if (held !== undefined) return admit(req, known, lockOnRoute(held, known, route));
      return lockoutOf(db, known, now(), route).then((lock) => admit(req, known, lock));
    }
    return authenticate(db, tokens, token).then(async (auth) => {
      bindCaller(req.log, auth);
      admit(req, auth, await lockoutOf(db, auth, now(), route));
    });
  };
}

/** The caller's auth context; only for routes behind requireAuth. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new AppError("ERR_NO_SESSION");
  return req.auth;
}

export function authorize(actor: AuthContext, permission: Permission): void {
  if (!can(actor, permission)) throw new AppError("ERR_NO_PERMISSION");
}

export function requireSuper(actor: AuthContext): void {
  if (!actor.super) throw new AppError("ERR_NO_PERMISSION");
}
