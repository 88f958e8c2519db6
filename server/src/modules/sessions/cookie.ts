import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.js";

export const REFRESH_COOKIE = "jrt";

/** Where the refresh cookie lives and who may read it. */
export function refreshCookieOptions(config: Config, req: FastifyRequest) {
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
    ...refreshCookieOptions(config, req),
    expires: s.refreshExpiresAt,
  });
}
