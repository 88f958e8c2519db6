import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Database } from "../../db/client.js";
import { routes } from "../../http/route.js";
import { VERSION } from "../../version.js";

/** The health module: liveness with the database's reach, and the running version. */
export async function healthModule(app: FastifyInstance, deps: { database: Database }) {
  const { database } = deps;
  const r = routes(app);
  const health = z.object({ status: z.enum(["ok", "error"]), database: z.string() });
  r.get("/health", { access: "public", response: health }, async (_input, req, reply) => {
    try {
      await database.ping();
      return { status: "ok", database: database.kind };
    } catch (err) {
      req.log.error({ err }, "health: database unreachable");
      return reply.status(503).send({ status: "error", database: "unreachable" });
    }
  });
  r.get("/version", { access: "public", response: z.object({ version: z.string() }) }, () => ({
    version: VERSION,
  }));
}
