import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createTestContext } from "./harness.js";
import { NO_GRAPH_URL, blockedConnections } from "./network.js";

describe("tests never leave this machine", () => {
  const server = http.createServer((_req, res) => res.end("local"));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("refuses a connection to an outside host, naming it, and lets loopback through", async () => {
    const failed = await fetch("https://graph.facebook.com/v21.0/me").catch((err: Error) => err);
    expect(failed).toBeInstanceOf(Error);
    expect(String((failed as Error & { cause?: unknown }).cause)).toContain(
      "Outbound connection to graph.facebook.com refused",
    );
    expect(blockedConnections).toEqual(["graph.facebook.com"]);
    // Meant here: the suite's own check (test/setup.ts) would fail this file for it.
    blockedConnections.length = 0;

    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("local");
    expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe("local");
  });

  it("points the app's Graph API at a refusing local port unless a test starts the fake", async () => {
    const ctx = await createTestContext();
    try {
      expect(ctx.deps.config.GRAPH_API_URL).toBe(NO_GRAPH_URL);
      expect(new URL(NO_GRAPH_URL).hostname).toBe("127.0.0.1");
    } finally {
      await ctx.close();
    }
  });
});
