import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loginSchema } from "@atende/contracts";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { authenticate, bearerToken } from "../../http/auth.js";
import { routes } from "../../http/route.js";
import type { TokenService } from "../../http/tokens.js";
import { REFRESH_COOKIE, refreshCookieOptions, setRefreshCookie } from "../sessions/cookie.js";
import { type AuthService, type IssuedSession, createAuthService } from "./service.js";

function answer(reply: FastifyReply, req: FastifyRequest, config: Config, s: IssuedSession) {
  setRefreshCookie(reply, req, config, s);
  return { token: s.token, user: s.user, subscription: s.subscription };
}

export function authRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; config: Config; db: Db; tokens: TokenService },
) {
  const { auth, config } = deps;
  const r = routes(app);

  r.post("/auth/login", { access: "public", body: loginSchema }, async ({ body }, req, reply) =>
    answer(reply, req, config, await auth.login(body, req.ip)),
  );

  r.post("/auth/refresh_token", { access: "public" }, async (_input, req, reply) => {
    try {
      return answer(reply, req, config, await auth.refresh(req.cookies[REFRESH_COOKIE]));
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(config, req));
      throw err;
    }
  });

  // Public: a stale or missing token still ends the session its refresh cookie names.
  r.delete("/auth/logout", { access: "public", status: 204 }, async (_input, req, reply) => {
    const ctx = await authenticate(deps.db, deps.tokens, bearerToken(req)).catch(() => null);
    if (ctx) await auth.logout(ctx.companyId, ctx.userId);
    else await auth.logoutByRefreshToken(req.cookies[REFRESH_COOKIE]);
    reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(config, req));
  });

  // A past-due company's admin reads it on the payment pages.
  r.get("/auth/me", { access: "user", reachableWhenPastDue: true }, ({ auth: ctx }) =>
    auth.me(ctx.companyId, ctx.userId),
  );
}

/** The auth module: login, refresh, logout and the session's user. */
export async function authModule(
  app: FastifyInstance,
  deps: Parameters<typeof createAuthService>[0] & { authOptions?: Parameters<typeof createAuthService>[1] },
): Promise<AuthService> {
  const auth = createAuthService(deps, deps.authOptions);
  app.addHook("onClose", async () => auth.close());
  authRoutes(app, { ...deps, auth });
  return auth;
}
