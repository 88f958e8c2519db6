import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { loginSchema, sessionSchema, sessionUserSchema } from "@atende/contracts";
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

  r.post(
    "/auth/login",
    {
      access: "public",
      body: loginSchema,
      errors: ["ERR_INVALID_CREDENTIALS", "ERR_SUBSCRIPTION_EXPIRED", "ERR_TOO_MANY_LOGIN_ATTEMPTS"],
      response: sessionSchema,
      summary: "Log in: an access token, the user and the subscription (and the refresh cookie)",
      description:
        "Send the access token as `Authorization: Bearer <token>`. It lasts minutes: when a call answers " +
        "403 ERR_SESSION_EXPIRED, POST /auth/refresh_token (with the `jrt` cookie this call set) and retry.",
      examples: {
        login: {
          summary: "An agent logs in",
          value: { email: "agent@example.com", password: "s3cret-Passw0rd" },
        },
      },
    },
    async ({ body }, req, reply) => answer(reply, req, config, await auth.login(body, req.ip)),
  );

  r.post(
    "/auth/refresh_token",
    {
      errors: ["ERR_NO_SESSION"],
      access: "public",
      response: sessionSchema,
      summary: "A new access token for the session of the refresh cookie (which is rotated)",
    },
    async (_input, req, reply) => {
      try {
        return answer(reply, req, config, await auth.refresh(req.cookies[REFRESH_COOKIE]));
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(config, req));
        throw err;
      }
    },
  );

  // Public: a stale or missing token still ends the session its refresh cookie names.
  r.delete(
    "/auth/logout",
    {
      access: "public",
      status: 204,
      operationId: "auth.logout",
      summary: "Log out: ends the session of the access token or of the refresh cookie",
    },
    async (_input, req, reply) => {
      const ctx = await authenticate(deps.db, deps.tokens, bearerToken(req)).catch(() => null);
      if (ctx) await auth.logout(ctx.companyId, ctx.userId);
      else await auth.logoutByRefreshToken(req.cookies[REFRESH_COOKIE]);
      reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(config, req));
    },
  );

  // A past-due company's admin reads it on the payment pages.
  r.get(
    "/auth/me",
    {
      access: "user",
      reachableWhenPastDue: true,
      response: sessionUserSchema,
      summary: "The signed-in user, with the company and the permissions",
    },
    ({ auth: ctx }) => auth.me(ctx.companyId, ctx.userId),
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
