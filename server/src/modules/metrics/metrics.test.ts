import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSimulatorCompany, phoneSends } from "../../test/channels.js";
import { expectError } from "../../test/calls.js";
import { newNumber } from "../../test/factories.js";
import { type TestContext, createTestContext, waitFor } from "../../test/harness.js";

const TOKEN = "metrics-secret-token-0123456789";

/**
 * A strict reader of the Prometheus text exposition format (0.0.4): # HELP / # TYPE lines and
 * samples `name{label="value",...} number` (NaN and Inf in any case, as Prometheus' own float parser
 * reads them); anything else fails the test.
 */
function parsePrometheus(text: string) {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") {
        expect(["counter", "gauge", "histogram", "summary", "untyped"]).toContain(meta[3]);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const m =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? ([-+]?(\d+(\.\d+)?([eE][-+]?\d+)?|[Nn][Aa][Nn]|[-+]?[Ii]nf))$/.exec(
        line,
      );
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const l of (m![3] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = l[2]!;
    samples.push({ name: m![1]!, labels, value: Number(m![4]) });
  }
  return { samples, types };
}

let ctx: TestContext;
let off: TestContext;
const scrape = (c: TestContext, token?: string) =>
  c.app.inject({
    method: "GET",
    url: "/metrics",
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

beforeAll(async () => {
  ctx = await createTestContext({ METRICS_TOKEN: TOKEN });
  ctx.built.startBackground();
  off = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
  await off?.close();
});

describe("/metrics", () => {
  it("is off (404) without METRICS_TOKEN, and needs the token when set", async () => {
    expectError(await scrape(off, TOKEN), 404, "ERR_ROUTE_NOT_FOUND");
    expectError(await scrape(ctx), 401, "ERR_METRICS_TOKEN_INVALID");
    expectError(await scrape(ctx, `${TOKEN}x`), 401, "ERR_METRICS_TOKEN_INVALID");
  });

  it("parses as Prometheus text and counts requests by route and status, messages by provider, connections, jobs", async () => {
    const team = await buildSimulatorCompany(ctx, { queues: 1, bot: false });
    await ctx.app.inject({ method: "GET", url: "/health" });
    const res = await phoneSends(ctx, team.adminLogin, team.connection.id, {
      from: newNumber(),
      name: "M",
      body: "oi",
    });
    expect(res.statusCode, res.body).toBe(201);
    let parsed = parsePrometheus((await scrape(ctx, TOKEN)).body);
    await waitFor(async () => {
      parsed = parsePrometheus((await scrape(ctx, TOKEN)).body);
      return parsed.samples.some(
        (s) => s.name === "atende_messages_total" && s.labels.provider === "simulator",
      );
    }, 10_000);
    const { samples, types } = parsed;
    const find = (name: string, labels: Record<string, string>) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    expect(types.get("atende_http_requests_total")).toBe("counter");
    expect(
      find("atende_http_requests_total", { method: "GET", route: "/health", status: "200" })?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(
      find("atende_http_request_duration_seconds_count", { route: "/health" })?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(
      find("atende_messages_total", { direction: "in", provider: "simulator" })?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(
      find("atende_connections", { status: "CONNECTED", provider: "simulator" })?.value,
    ).toBeGreaterThanOrEqual(1);
    expect(find("atende_sockets_connected", {})).toBeDefined();
    expect(types.get("atende_jobs")).toBe("gauge");
    expect(types.get("atende_webhook_deliveries_total")).toBe("counter");
  });
});
