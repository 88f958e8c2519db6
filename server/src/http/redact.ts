import type { FastifyServerOptions } from "fastify";

/** Query parameters that carry a credential (the socket accepts `?token=` from older clients). */
const SECRET_PARAMS = /([?&](?:token|access_token|refresh_token)=)[^&#]*/gi;

/**
 * Paths that carry a credential: the legacy password reset puts the e-mail, the code and the new
 * password in its path (`/resetpasswords/{email}/{token}/{newPassword}`).
 */
const SECRET_PATHS = /^(\/resetpasswords)\/[^?#]*/i;

/** The URL with the values of credential parameters (and secret path segments) replaced, for logs. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATHS, "$1/[redacted]").replace(SECRET_PARAMS, "$1[redacted]");
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The app's logger options with the request serializer Fastify uses by default, but with
 * credentials in the query string redacted: "incoming request" logs `req.url` as it came.
 */
export function withRedactedUrls(logger: FastifyServerOptions["logger"]): FastifyServerOptions["logger"] {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: {
      ...base.serializers,
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
