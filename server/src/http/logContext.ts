import type { FastifyBaseLogger } from "fastify";

const CALLER = Symbol("atende.caller");

interface Caller {
  companyId: number;
  userId: number;
}

/**
 * Names the caller on every later line of a request's logger (its "request completed" too): the
 * request's own child logger carries them, and the logger's mixin (callerMixin) writes them when a
 * line is logged. `log.child({companyId, userId})` did the same by building a second child logger on
 * every request, which cost more than the rest of the authentication (bench/inbound, issue 40).
 */
export function bindCaller(log: FastifyBaseLogger, caller: Caller): void {
  (log as unknown as { [CALLER]?: Caller })[CALLER] = caller;
}

/** pino's `mixin`: the caller bound to the logger a line is written on (or one it descends from). */
export function callerMixin(_line: object, _level: number, logger: object): object {
  const caller = (logger as { [CALLER]?: Caller })[CALLER];
  return caller ? { companyId: caller.companyId, userId: caller.userId } : {};
}
