import type { FastifyReply, FastifyRequest } from "fastify";
import { sql } from "drizzle-orm";
import { type Permission, type Profile, can } from "@atende/contracts";
import { type Db, queryRows } from "../db/client.js";
import { AppError } from "./errors.js";
import type { TokenService } from "./tokens.js";

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
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : null;
}

/**
 * Resolves an access token to an auth context: 403 ERR_SESSION_EXPIRED for an expired or
 * unverifiable token (the client refreshes and retries); 401 ERR_NO_SESSION when the user is gone
 * or the session was revoked (logout, a login elsewhere).
 */
export async function authenticate(db: Db, tokens: TokenService, token: string | null): Promise<AuthContext> {
  if (!token) throw new AppError("ERR_NO_SESSION");
  const claims = await tokens.verify(token);
  if (claims === "expired" || claims === "invalid") throw new AppError("ERR_SESSION_EXPIRED");
  const rows = await queryRows<{ profile: Profile; super: boolean; live: boolean }>(
    db,
    sql`
    select u.profile, u.super,
      exists (select 1 from refresh_tokens r
              where r.session_id = ${claims.sessionId} and r.user_id = u.id and r.revoked_at is null) as live
    from users u where u.id = ${claims.userId} and u.company_id = ${claims.companyId}`,
  );
  const row = rows[0];
  if (!row || !row.live) throw new AppError("ERR_NO_SESSION");
  return { ...claims, profile: row.profile, super: row.super };
}

export function makeRequireAuth(db: Db, tokens: TokenService) {
  return async function requireAuth(req: FastifyRequest, _reply: FastifyReply) {
    req.auth = await authenticate(db, tokens, bearerToken(req));
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
