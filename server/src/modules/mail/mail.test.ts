import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailOutboxDTO } from "@atende/contracts";
import { expectError, expectOk } from "../../test/calls.js";
import { buildPlatformOperator, buildTeam, buildUser, login, uid } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { logCapture } from "../../test/logLeaks.js";
import { OUTBOX_KEEP } from "./queries.js";

/** Without SMTP_URL outside production: every mail is logged (not its body) and kept in the dev outbox. */
let ctx: TestContext;
const log = logCapture();
beforeAll(async () => {
  ctx = await createTestContext({}, { logger: log.logger });
});
afterAll(() => ctx.close());

const outbox = (auth: { authorization: string } | undefined) =>
  ctx.app.inject({ method: "GET", url: "/mail/outbox", headers: auth ?? {} });

describe("the dev outbox (no SMTP_URL)", () => {
  it("keeps each mail for the super user to read, logs its subject and recipient only", async () => {
    const operator = await buildPlatformOperator(ctx);
    const team = await buildTeam(ctx);
    const user = await buildUser(ctx.deps.db, team.company.id, { email: `outbox-${uid()}@test.local` });
    expectOk(
      await ctx.app.inject({
        method: "POST",
        url: `/forgetpassword/${user.email}`,
        remoteAddress: "10.6.0.1",
      }),
    );
    await ctx.built.channels.jobs.runDue();

    const box = expectOk<MailOutboxDTO>(await outbox(operator.login.auth));
    expect(box.mode).toBe("outbox");
    const mail = box.mails.find((m) => m.to === user.email)!;
    expect(mail.subject).toBe("Seu código para redefinir a senha");
    const code = /code=(\d{6})/.exec(mail.text)![1]!;
    expect(mail.html).toContain(code);
    expect(log.text).toContain("mail kept in the dev outbox");
    expect(log.text).toContain(user.email);
    expect(log.text).not.toContain(code);

    // The code from the outbox sets the password.
    const res = await ctx.app.inject({
      method: "POST",
      url: "/resetpasswords",
      remoteAddress: "10.6.0.1",
      payload: { email: user.email, token: code, newPassword: "Outbox123" },
    });
    expectOk(res);
    expect((await login(ctx, user.email, "Outbox123")).user.id).toBe(user.id);

    // Only the super user reads it: it holds codes that set passwords.
    expectError(await outbox(team.adminLogin.auth), 403, "ERR_NO_PERMISSION");
    expectError(await outbox(team.agentLogin.auth), 403, "ERR_NO_PERMISSION");
    expect((await outbox(undefined)).statusCode).toBe(401);
  });

  it(`keeps only the newest ${OUTBOX_KEEP} mails`, async () => {
    const operator = await buildPlatformOperator(ctx);
    const team = await buildTeam(ctx);
    const emails: string[] = [];
    for (let i = 0; i < OUTBOX_KEEP + 3; i++) {
      const user = await buildUser(ctx.deps.db, team.company.id, { email: `many-${i}-${uid()}@test.local` });
      emails.push(user.email);
      expectOk(
        await ctx.app.inject({
          method: "POST",
          url: `/forgetpassword/${user.email}`,
          remoteAddress: `10.5.0.${i + 1}`,
        }),
      );
    }
    while ((await ctx.built.channels.jobs.runDue()) > 0);
    const box = expectOk<MailOutboxDTO>(await outbox(operator.login.auth));
    expect(box.mails).toHaveLength(OUTBOX_KEEP);
    // The job runner sends a few mails side by side, so the last ones may be stored in either order:
    // the newest listed is one of the last three asked for, the first one asked for is gone.
    expect(emails.slice(-3)).toContain(box.mails[0]!.to);
    expect(new Set(box.mails.map((m) => m.to)).size).toBe(OUTBOX_KEEP);
    expect(box.mails.map((m) => m.to)).not.toContain(emails[0]);
  });
});

describe("production without SMTP_URL", () => {
  it("starts, says where mail goes (nowhere), and fails the mail rather than keep it", async () => {
    const prodLog = logCapture();
    const prod = await createTestContext({ NODE_ENV: "production" }, { logger: prodLog.logger });
    try {
      expect(prodLog.text).toContain("SMTP_URL is not set");
      const operator = await buildPlatformOperator(prod);
      const team = await buildTeam(prod);
      expectOk(
        await prod.app.inject({
          method: "POST",
          url: `/forgetpassword/${team.admin.email}`,
          remoteAddress: "10.4.0.1",
        }),
      );
      await prod.built.channels.jobs.runDue();
      const box = expectOk<MailOutboxDTO>(
        await prod.app.inject({ method: "GET", url: "/mail/outbox", headers: operator.login.auth }),
      );
      expect(box).toEqual({ mode: "none", mails: [] });
      expect(prodLog.text).toContain("mail not sent: SMTP_URL is not set");
      expect(prodLog.text).toContain("job failed for good");
    } finally {
      await prod.close();
    }
  });
});
