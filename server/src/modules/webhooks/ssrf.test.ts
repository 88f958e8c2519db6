import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../../test/calls.js";
import { buildTeam } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { isPrivateAddress, publicOnlyLookup } from "./ssrf.js";

/** No SSRF through webhooks: with the default config, internal receivers are refused. */
let ctx: TestContext;
let team: Awaited<ReturnType<typeof buildTeam>>;

beforeAll(async () => {
  ctx = await createTestContext();
  team = await buildTeam(ctx);
});
afterAll(async () => ctx?.close());

describe("SSRF", () => {
  it("refuses loopback, private, link-local and metadata receivers with 400 ERR_WEBHOOK_URL_FORBIDDEN", async () => {
    for (const url of [
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://10.1.2.3/x",
      "http://192.168.0.10/x",
      "http://172.20.0.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://0.0.0.0/x",
    ]) {
      const res = await ctx.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: team.adminLogin.auth,
        payload: { url, events: ["ticket.created"] },
      });
      expectError(res, 400, "ERR_WEBHOOK_URL_FORBIDDEN");
    }
  });

  it("judges addresses, and refuses an internal address at connect time (DNS rebinding)", async () => {
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("2606:4700::1111")).toBe(false);
    expect(isPrivateAddress("100.64.1.1")).toBe(true);
    expect(isPrivateAddress("fd00::1")).toBe(true);
    const err = await new Promise<Error | null>((resolve) =>
      publicOnlyLookup(false)("localhost", {}, (e) => resolve(e)),
    );
    expect(err?.message).toMatch(/internal address/);
  });
});
