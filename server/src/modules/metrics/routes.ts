import crypto from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ConnectionCache } from "../../channels/connectionCache.js";
import type { EventBus } from "../../events/bus.js";
import { bearerToken } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import type { Metrics } from "./registry.js";

function sameSecret(a: string, b: string) {
  const x = crypto.createHash("sha256").update(a).digest();
  const y = crypto.createHash("sha256").update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/**
 * GET /metrics (Prometheus text) behind METRICS_TOKEN as a bearer token; without the setting the
 * route answers 404 as if it did not exist. Also counts every HTTP answer and every stored message.
 */
export function metricsModule(
  app: FastifyInstance,
  deps: {
    metrics: Metrics;
    token: string | undefined;
    bus: EventBus;
    connections: Pick<ConnectionCache, "get" | "fresh">;
  },
) {
  const { metrics, token } = deps;
  app.addHook("onResponse", (req, reply, done) => {
    const route = req.routeOptions.url ?? "unmatched";
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  // Synchronous while the connection is cached (nearly always): no promise per stored message.
  const off = deps.bus.on((event) => {
    if (event.type !== "message.saved" || event.action !== "create" || !event.ticket.whatsappId) return;
    const direction = event.message.fromMe ? "out" : "in";
    const count = (connection: { provider: string } | null) =>
      metrics.messages.inc({ direction, provider: connection?.provider ?? "unknown" });
    const known = deps.connections.fresh(event.companyId, event.ticket.whatsappId);
    if (known !== undefined) return count(known);
    return deps.connections.get(event.companyId, event.ticket.whatsappId).then(count);
  });
  app.addHook("onClose", async () => off());
  routes(app).get(
    "/metrics",
    {
      errors: ["ERR_METRICS_TOKEN_INVALID", "ERR_ROUTE_NOT_FOUND"],
      access: "public",
      produces: "text/plain",
      summary: "Prometheus metrics (Authorization: Bearer METRICS_TOKEN; 404 when METRICS_TOKEN is unset)",
    },
    async (_input, req, reply) => {
      if (!token) throw new AppError("ERR_ROUTE_NOT_FOUND");
      const sent = bearerToken(req);
      if (!sent || !sameSecret(sent, token)) throw new AppError("ERR_METRICS_TOKEN_INVALID");
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
