import type { SocketConfig } from "./lib.js";

/** Baileys' logger interface (pino-shaped); the package does not export it by name. */
export type BaileysLogger = SocketConfig["logger"];

/**
 * The logger used when none is given: warnings and errors to the console, the rest dropped.
 * Baileys logs every frame at debug and much at info; the server passes its own (pino) logger.
 */
export function consoleLogger(bindings: Record<string, unknown> = {}): BaileysLogger {
  const write = (print: (...args: unknown[]) => void) => (obj: unknown, msg?: string) =>
    print(msg ?? "", { ...bindings, ...fields(obj) });
  const ignore = () => {};
  return {
    level: "warn",
    child: (more: Record<string, unknown>) => consoleLogger({ ...bindings, ...more }),
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: write(console.warn),
    error: write(console.error),
  };
}

function fields(obj: unknown): object {
  if (obj instanceof Error) return { err: obj };
  return typeof obj === "object" && obj !== null ? obj : { detail: obj };
}
