import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCompany, buildUser, login } from "../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../test/harness.js";
import { logCapture } from "../test/logLeaks.js";

const SECRET = "test-secret-".padEnd(48, "x");
let ctx: TestContext;
const log = logCapture();
beforeAll(async () => {
  ctx = await createTestContext({}, { logger: log.logger });
});
afterAll(() => ctx.close());

describe("access tokens", () => {
  it("a well-signed token without exp is refused: 403 ERR_SESSION_EXPIRED, over HTTP and the socket", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const s = await login(ctx, u.email);
    const sid = (JSON.parse(Buffer.from(s.token.split(".")[1]!, "base64url").toString()) as { sid: string })
      .sid;
    const forever = await new SignJWT({ companyId: company.id, sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(u.id))
      .setIssuedAt()
      .sign(new TextEncoder().encode(SECRET));
    const res = await ctx.app.inject({
      method: "GET",
      url: "/auth/me",
      headers: { authorization: `Bearer ${forever}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("ERR_SESSION_EXPIRED");
    await expect(connectSocket(await ctx.url(), forever)).rejects.toThrow("ERR_SESSION_EXPIRED");
    // The same session's proper token still works.
    expect((await ctx.app.inject({ method: "GET", url: "/auth/me", headers: s.auth })).statusCode).toBe(200);
  });

  it("a token in a query string never reaches the log", async () => {
    const company = await buildCompany(ctx.deps.db);
    const u = await buildUser(ctx.deps.db, company.id);
    const s = await login(ctx, u.email);
    const base = await ctx.url();
    // The socket's handshake by long polling, as older clients open it, and an API call.
    await fetch(`${base}/socket.io/?EIO=4&transport=polling&token=${s.token}`);
    await fetch(`${base}/auth/me?token=${s.token}&x=1`, { headers: s.auth });
    await ctx.app.inject({ method: "GET", url: `/users?access_token=${s.token}`, headers: s.auth });
    // Every request logged has logged its end too ("request completed" follows the answer).
    const count = (msg: string) => log.text.split(`"msg":"${msg}"`).length - 1;
    await waitFor(() => count("request completed") === count("incoming request"));
    expect(log.text).toContain("/auth/me?token=[redacted]&x=1");
    expect(log.text).toContain("/users?access_token=[redacted]");
    expect(log.text).not.toContain(s.token);
    expect(log.text).not.toContain(s.token.split(".")[2]);
  });
});
