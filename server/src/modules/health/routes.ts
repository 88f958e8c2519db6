import type { FastifyInstance } from "fastify";
import type { Database } from "../../db/client.js";
import { VERSION } from "../../version.js";

export function healthRoutes(app: FastifyInstance, database: Database) {
  app.get("/health", async (req, reply) => {
    try {
      await database.ping();
      return { status: "ok", database: database.kind };
    } catch (err) {
      req.log.error({ err }, "health: database unreachable");
      return reply.status(503).send({ status: "error", database: "unreachable" });
    }
  });
  app.get("/version", async () => ({ version: VERSION }));
}
