import client from "prom-client";
import type { Db } from "../../db/client.js";
import * as q from "./queries.js";

/**
 * The instance's Prometheus metrics, on a registry of its own (two apps in one process, as the
 * tests build, never share counters). Database-wide gauges are read at scrape time.
 */
export function createMetrics(deps: { db: Db; socketsConnected: () => number }) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "atende_" });
  const httpRequests = new client.Counter({
    name: "atende_http_requests_total",
    help: "HTTP requests by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new client.Histogram({
    name: "atende_http_request_duration_seconds",
    help: "HTTP request latency by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const messages = new client.Counter({
    name: "atende_messages_total",
    help: "WhatsApp messages stored, by direction (in, out) and provider",
    labelNames: ["direction", "provider"] as const,
    registers: [registry],
  });
  const webhookDeliveries = new client.Counter({
    name: "atende_webhook_deliveries_total",
    help: "Outbound webhook delivery attempts by outcome (delivered, failed_attempt, gave_up)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  new client.Gauge({
    name: "atende_sockets_connected",
    help: "Sockets connected to this instance",
    registers: [registry],
    collect() {
      this.set(deps.socketsConnected());
    },
  });
  new client.Gauge({
    name: "atende_jobs",
    help: "Durable jobs by type and status (pending and running: the queue's depth; failed: given up)",
    labelNames: ["type", "status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await q.jobCounts(deps.db)) this.set({ type: r.type, status: r.status }, Number(r.n));
    },
  });
  new client.Gauge({
    name: "atende_connections",
    help: "WhatsApp connections by status and provider",
    labelNames: ["status", "provider"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await q.connectionCounts(deps.db))
        this.set({ status: r.status, provider: r.provider }, Number(r.n));
    },
  });
  return { registry, httpRequests, httpDuration, messages, webhookDeliveries };
}

export type Metrics = ReturnType<typeof createMetrics>;
