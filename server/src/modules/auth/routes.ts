import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loginSchema } from "@atende/contracts";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { authOf, authenticate, bearerToken } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import type { TokenService } from "../../http/tokens.js";
import type { AuthService, IssuedSession } from "./service.js";

export const REFRESH_COOKIE = "jrt";

function cookieOptions(config: Config, req: FastifyRequest) {
  const secure = config.COOKIE_SECURE === "auto" ? req.protocol === "https" : config.COOKIE_SECURE === "true";
  // A front end on another origin needs SameSite=None, which browsers accept only with Secure.
  const sameSite = secure && config.corsOrigins.length > 0 ? ("none" as const) : ("lax" as const);
  return { httpOnly: true, secure, sameSite, path: "/auth" };
}

/** Sets the httpOnly refresh cookie (login, refresh, and one's own password change). */
export function setRefreshCookie(
  reply: FastifyReply,
  req: FastifyRequest,
  config: Config,
  s: { refreshToken: string; refreshExpiresAt: Date },
) {
  reply.setCookie(REFRESH_COOKIE, s.refreshToken, {
    ...cookieOptions(config, req),
    expires: s.refreshExpiresAt,
  });
}

function answer(reply: FastifyReply, req: FastifyRequest, config: Config, s: IssuedSession) {
  setRefreshCookie(reply, req, config, s);
  return { token: s.token, user: s.user, subscription: s.subscription };
}

export function authRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    config: Config;
    db: Db;
    tokens: TokenService;
    requireAuth: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  },
) {
  const { auth, config } = deps;

  app.post("/auth/login", async (req, reply) => {
    const input = parseInput(loginSchema, req.body, req);
    return answer(reply, req, config, await auth.login(input, req.ip));
  });

  app.post("/auth/refresh_token", async (req, reply) => {
    try {
      return answer(reply, req, config, await auth.refresh(req.cookies[REFRESH_COOKIE]));
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, cookieOptions(config, req));
      throw err;
    }
  });

  app.delete("/auth/logout", async (req, reply) => {
    const ctx = await authenticate(deps.db, deps.tokens, bearerToken(req)).catch(() => null);
    if (ctx) await auth.logout(ctx.companyId, ctx.userId);
    else await auth.logoutByRefreshToken(req.cookies[REFRESH_COOKIE]);
    reply.clearCookie(REFRESH_COOKIE, cookieOptions(config, req));
    return reply.status(204).send();
  });

  app.get("/auth/me", { preHandler: deps.requireAuth }, async (req) => {
    const ctx = authOf(req);
    return auth.me(ctx.companyId, ctx.userId);
  });
}
