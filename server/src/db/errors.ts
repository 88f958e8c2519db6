/**
 * Reading database errors, in one place. Drizzle wraps the driver's error (its query text and
 * parameters in the message, the driver's error in `cause`), a service may wrap it again, and the two
 * drivers name things differently: node-postgres puts the violated constraint in `constraint`,
 * PGlite only in its message. Every reader here looks through the wrapping.
 */

/** What a driver's error may carry, at any level of the wrapping. */
export interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** How many levels of `cause` are read: deeper than any wrapping we make, and never a loop. */
const MAX_DEPTH = 5;

/** The error and its causes, outermost first. */
export function* errorChain(err: unknown): Generator<DriverError> {
  let e = err as DriverError | undefined;
  for (let i = 0; e && i < MAX_DEPTH; i++, e = e.cause as DriverError | undefined) yield e;
}

/** The first error of the chain whose `code` passes `test`, if any. */
function withCode(err: unknown, test: (code: string) => boolean): DriverError | undefined {
  for (const e of errorChain(err)) if (typeof e.code === "string" && test(e.code)) return e;
  return undefined;
}

/** The SQLSTATE of a database error (five characters), through any wrapping. */
export function dbErrorCode(err: unknown): string | undefined {
  return withCode(err, (code) => /^[0-9A-Z]{5}$/.test(code))?.code as string | undefined;
}

/** A deadlock (40P01) or a serialization failure (40001): the whole transaction may run again as it was. */
export function isSerializationFailure(err: unknown): boolean {
  return withCode(err, (code) => code === "40P01" || code === "40001") !== undefined;
}

/** A unique violation (23505) of one of `constraints`, whichever driver raised it. */
export function isUniqueViolationOf(err: unknown, constraints: readonly string[]): boolean {
  const e = withCode(err, (code) => code === "23505");
  if (!e) return false;
  const message = typeof e.message === "string" ? e.message : "";
  return constraints.some((name) => e.constraint === name || message.includes(`"${name}"`));
}

/** The innermost message of a wrapped error: the driver's, not Drizzle's query text and parameters. */
export function rootMessage(err: unknown): string {
  let message: unknown;
  for (const e of errorChain(err)) message = e.message;
  return String(message);
}

/** Whether any error of the chain has a string `code` that `pattern` matches, or a message `messages` matches. */
export function someCause(err: unknown, pattern: RegExp, messages?: RegExp): boolean {
  for (const e of errorChain(err)) {
    if (typeof e.code === "string" && pattern.test(e.code)) return true;
    if (messages && typeof e.message === "string" && messages.test(e.message)) return true;
  }
  return false;
}
