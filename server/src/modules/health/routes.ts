import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Database } from "../../db/client.js";
import { routes } from "../../http/route.js";
import { VERSION } from "../../version.js";

/** How long a readiness check waits for the database or Redis before calling it unreachable. */
const CHECK_TIMEOUT_MS = 3_000;

async function reachable(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The health module, for probes and monitors:
 * - `/livez`: the process answers (never touches the database or Redis), so a liveness probe does
 *   not restart every instance during an outage the server rides out by itself;
 * - `/readyz`: the database and, when configured, Redis answer (503 naming which did not), so a
 *   load balancer sends no traffic to an instance that cannot serve it;
 * - `/health`: as before (the database's reach), for existing monitors;
 * - `/version`: the running version.
 */
export async function healthModule(
  app: FastifyInstance,
  deps: { database: Database; pingRedis: (() => Promise<void>) | null },
) {
  const { database, pingRedis } = deps;
  const r = routes(app);
  const health = z.object({ status: z.enum(["ok", "error"]), database: z.string() });
  r.get(
    "/health",
    { access: "public", response: health, operationId: "health.get" },
    async (_input, req, reply) => {
      try {
        await database.ping();
        return { status: "ok", database: database.kind };
      } catch (err) {
        req.log.error({ err }, "health: database unreachable");
        return reply.status(503).send({ status: "error", database: "unreachable" });
      }
    },
  );

  r.get(
    "/livez",
    { access: "public", operationId: "livez.get", response: z.object({ status: z.literal("ok") }) },
    () => ({
      status: "ok" as const,
    }),
  );

  const state = z.enum(["ok", "unreachable", "not configured"]);
  const ready = z.object({
    status: z.enum(["ok", "error"]),
    checks: z.object({ database: state, redis: state }),
  });
  r.get(
    "/readyz",
    { access: "public", response: ready, operationId: "readyz.get" },
    async (_input, req, reply) => {
      const [db, redis] = await Promise.all([
        reachable(() => database.ping()),
        pingRedis ? reachable(pingRedis) : Promise.resolve(null),
      ]);
      const checks = {
        database: db ? "ok" : "unreachable",
        redis: redis === null ? "not configured" : redis ? "ok" : "unreachable",
      } as const;
      if (db && redis !== false) return { status: "ok" as const, checks };
      req.log.warn({ checks }, "readyz: not ready");
      return reply.status(503).send({ status: "error", checks });
    },
  );

  r.get(
    "/version",
    { access: "public", operationId: "version.get", response: z.object({ version: z.string() }) },
    () => ({
      version: VERSION,
    }),
  );
}
