import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodType } from "zod";
import {
  ERRORS,
  type ErrorBody,
  type ErrorCode,
  errorMessage,
  pickLang,
  validationMessage,
} from "@atende/contracts";
import { isDatabaseUnavailable } from "../db/client.js";
import { dbErrorCode, rootMessage } from "../db/errors.js";

/**
 * An error a user can cause: answered with the catalogue's status (or `status`, where one code
 * must not mean what its usual status does to clients) and the translated message.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> = {},
    status?: number,
  ) {
    super(code);
    this.status = status ?? ERRORS[code].status;
  }
}

export function langOf(req: FastifyRequest) {
  return pickLang(req.headers["accept-language"]);
}

/** Parses input with a contracts schema; on failure answers 400 with every field's translated problem. */
export function parseInput<T>(schema: ZodType<T>, data: unknown, req: FastifyRequest): T {
  const result = schema.safeParse(data ?? {});
  if (result.success) return result.data;
  const lang = langOf(req);
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= validationMessage(issue.message, lang);
  }
  throw new AppError("ERR_VALIDATION", { fields });
}

function body(code: ErrorCode, req: FastifyRequest, extra: Record<string, unknown> = {}): ErrorBody {
  return { error: code, message: errorMessage(code, langOf(req)), ...extra };
}

export function sendError(
  reply: FastifyReply,
  req: FastifyRequest,
  code: ErrorCode,
  extra?: Record<string, unknown>,
) {
  return reply.status(ERRORS[code].status).send(body(code, req, extra));
}

/** Fastify's own client errors (bad JSON, wrong content type, too large) mapped to our codes. */
function fastifyClientError(err: FastifyError): ErrorCode | null {
  if (err.code === "FST_ERR_CTP_BODY_TOO_LARGE") return "ERR_PAYLOAD_TOO_LARGE";
  if (err.statusCode === 429) return "ERR_TOO_MANY_REQUESTS";
  // The web app's static files: a folder of the build (403 "Forbidden", as no index is served) or a
  // file that is not there is a path with nothing behind it, not a client's bad input.
  if (err.statusCode === 403 || err.statusCode === 404) return "ERR_ROUTE_NOT_FOUND";
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return "ERR_VALIDATION";
  return null;
}

/**
 * Runs a write that a unique index guards: two requests may race for one name or e-mail, the index
 * decides, and the loser hears `code` (a 4xx) instead of a 500.
 */
export async function uniqueOr<T>(code: ErrorCode, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (dbErrorCode(err) === "23505") throw new AppError(code);
    throw err;
  }
}

/**
 * Why a write may fail that the user can simply try again: the database gave up on it (a
 * serialization failure or deadlock, a lock or statement timeout, a row it pointed at removed
 * meanwhile, out of resources) or the disk refused a file. A bug is none of these: it stays a 500.
 */
function retryableFailure(err: unknown): boolean {
  const sqlState = dbErrorCode(err);
  if (sqlState) return /^(40|23|55P03|57014|53)/.test(sqlState);
  const ioCode = (err as { code?: unknown } | undefined)?.code;
  return typeof ioCode === "string" && /^(ENOSPC|EIO|EACCES|EPERM|EROFS|EMFILE|ENFILE|EDQUOT)$/.test(ioCode);
}

/**
 * Runs a creation (a ticket, a message) whose failure the user can retry: a database or disk
 * failure answers `code` (ERR_CREATING_TICKET, ERR_CREATING_MESSAGE, a 4xx with its translated
 * text) instead of a 500; the cause is kept for the log. Our own refusals (AppError), an unreachable
 * database (503) and bugs pass through unchanged.
 */
export async function retryableOr<T>(code: ErrorCode, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError || isDatabaseUnavailable(err) || !retryableFailure(err)) throw err;
    const refused = new AppError(code);
    refused.cause = err;
    throw refused;
  }
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      // A failure turned into a retryable 4xx (retryableOr): what went wrong goes to the log.
      if (err.cause)
        req.log.warn({ err: err.cause, reqId: req.id, code: err.code }, "creation failed; answered 4xx");
      return reply.status(err.status).send(body(err.code, req, err.extra));
    }
    const clientCode = fastifyClientError(err as FastifyError);
    if (clientCode) {
      const fields = clientCode === "ERR_VALIDATION" ? { fields: { _: err.message } } : {};
      return reply.status(ERRORS[clientCode].status).send(body(clientCode, req, fields));
    }
    // The database is out of reach (a restart, a failover): nothing was committed, the client (or
    // a webhook's sender) tries again once it is back.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ reqId: req.id, reason: rootMessage(err) }, "database unavailable; answered 503");
      return reply.status(503).header("retry-after", "5").send(body("ERR_DATABASE_UNAVAILABLE", req));
    }
    // Safety net: a value the database refuses (class 22, data exception) is bad input, not a crash.
    if (dbErrorCode(err)?.startsWith("22")) {
      req.log.warn({ err, reqId: req.id }, "input refused by the database");
      return reply.status(400).send(body("ERR_VALIDATION", req, { fields: {} }));
    }
    req.log.error({ err, reqId: req.id }, "unhandled error");
    return reply.status(500).send(body("ERR_INTERNAL", req, { requestId: req.id }));
  });
}
