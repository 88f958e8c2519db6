import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_CODE_ATTEMPTS } from "@atende/contracts";
import { inTransaction } from "../../events/bus.js";
import { expectError, expectOk, fieldsOf } from "../../test/calls.js";
import { TEST_PASSWORD, buildCompany, buildUser, login, uid } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { RESET_LIMITS } from "./service.js";

/** A mail as the local SMTP server received it, quoted-printable undone. */
interface Received {
  from: string;
  to: string[];
  raw: string;
  auth: string | null;
}

let smtp: SMTPServer;
const inbox: Received[] = [];
let ctx: TestContext;
let logged = "";
let ipSeq = 0;
/** Every test calls from addresses of its own: the routes' per-address limits are not what it tests. */
const nextIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === "mailer" && auth.password === "s3cret") done(null, { user: auth.username });
      else done(new Error("bad credentials"));
    },
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: decodeQuotedPrintable(raw),
          auth: typeof session.user === "string" ? session.user : null,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logged += chunk.toString();
      done();
    },
  });
  ctx = await createTestContext(
    {
      SMTP_URL: `smtp://mailer:s3cret@127.0.0.1:${port}`,
      MAIL_FROM: "Atende Test <robot@atende.test>",
      PUBLIC_URL: "https://app.atende.test",
    },
    { logger: { level: "info", stream } },
  );
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const post = (url: string, payload?: object, ip = nextIp(), lang?: string) =>
  ctx.app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    ...(payload ? { payload } : {}),
    headers: lang ? { "accept-language": lang } : {},
  });

/** Runs the queued mail jobs; answers the mails that arrived for `email` since `before`. */
async function mailsTo(email: string, before = inbox.length): Promise<Received[]> {
  await ctx.built.channels.jobs.runDue();
  return inbox.slice(before).filter((m) => m.to.includes(email));
}

/** Asks for a reset code and reads it from the mail. */
async function askCode(email: string, lang?: string): Promise<{ code: string; mail: Received }> {
  const before = inbox.length;
  expectOk(await post(`/forgetpassword/${encodeURIComponent(email)}`, undefined, nextIp(), lang));
  const [mail] = await mailsTo(email, before);
  expect(mail, `a mail to ${email}`).toBeDefined();
  const code = /code=(\d{6})/.exec(mail!.raw)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return { code: code!, mail: mail! };
}

async function someone() {
  const company = await buildCompany(ctx.deps.db);
  const user = await buildUser(ctx.deps.db, company.id, { email: `reset-${uid()}@test.local`, name: "Rita" });
  return { company, user };
}

const NEW_PASSWORD = "Nova1234";
const reset = (email: string, token: string, newPassword = NEW_PASSWORD, ip = nextIp()) =>
  post("/resetpasswords", { email, token, newPassword }, ip);

describe("POST /forgetpassword/{email}", () => {
  it("mails a 6-digit code through SMTP_URL, from MAIL_FROM, with a link that keeps the code out of URLs servers see", async () => {
    const { user } = await someone();
    const before = inbox.length;
    const res = await post(`/forgetpassword/${user.email.toUpperCase()}`);
    expect(expectOk(res)).toEqual({ ok: true });
    const [mail] = await mailsTo(user.email, before);
    expect(mail!.auth).toBe("mailer");
    expect(mail!.from).toBe("robot@atende.test");
    expect(mail!.raw).toMatch(/Subject: .*=\?UTF-8\?|Subject: Seu c/);
    expect(mail!.raw).toContain("Olá, Rita!");
    expect(mail!.raw).toContain("text/html");
    // The code travels in the fragment (#...), which a browser never sends to any server.
    expect(mail!.raw).toMatch(
      new RegExp(
        `https://app\\.atende\\.test/forgetpsw#email=${encodeURIComponent(user.email).replace(/\./g, "\\.")}&code=\\d{6}`,
      ),
    );
    // The log says a mail went, to whom: never its code.
    const code = /code=(\d{6})/.exec(mail!.raw)![1]!;
    expect(logged).toContain('"msg":"mail sent"');
    expect(logged).not.toContain(code);
  });

  it("writes the mail in the language the request asked in (English, Spanish; Portuguese otherwise)", async () => {
    const { user } = await someone();
    const en = await askCode(user.email, "en-US,en;q=0.9");
    expect(en.mail.raw).toContain("Your verification code is:");
    const es = await askCode(user.email, "es");
    expect(es.mail.raw).toContain("Su código de verificación es:");
  });

  it("answers an e-mail without an account exactly as one with an account, and mails nobody", async () => {
    const { user } = await someone();
    const known = await post(`/forgetpassword/${user.email}`);
    const nobody = `nobody-${uid()}@test.local`;
    const unknown = await post(`/forgetpassword/${nobody}`);
    expect({ status: unknown.statusCode, body: unknown.body }).toEqual({
      status: known.statusCode,
      body: known.body,
    });
    const before = inbox.length;
    await ctx.built.channels.jobs.runDue();
    expect(inbox.slice(before).flatMap((m) => m.to)).not.toContain(nobody);
  });

  it("refuses an invalid e-mail with the spec's message", async () => {
    const res = await post("/forgetpassword/not-an-email");
    expect(fieldsOf(res).email).toBe("Invalid email");
  });
});

describe("POST /resetpasswords", () => {
  it("sets the new password from the mailed code and ends every session of the user", async () => {
    const { user } = await someone();
    const session = await login(ctx, user.email, TEST_PASSWORD, nextIp());
    const { code } = await askCode(user.email);
    expect(expectOk(await reset(user.email, code))).toEqual({ ok: true });

    // The old session is over: its access token and its refresh cookie no longer work.
    expect((await ctx.app.inject({ method: "GET", url: "/auth/me", headers: session.auth })).statusCode).toBe(
      401,
    );
    const refresh = await ctx.app.inject({
      method: "POST",
      url: "/auth/refresh_token",
      headers: { cookie: session.cookie },
    });
    expectError(refresh, 401, "ERR_NO_SESSION");
    // The new password logs in; the old one does not.
    await expect(login(ctx, user.email, TEST_PASSWORD, nextIp())).rejects.toThrow("ERR_INVALID_CREDENTIALS");
    expect((await login(ctx, user.email, NEW_PASSWORD, nextIp())).user.id).toBe(user.id);
  });

  it("a code works once", async () => {
    const { user } = await someone();
    const { code } = await askCode(user.email);
    expectOk(await reset(user.email, code));
    expectError(await reset(user.email, code, "Outra1234"), 400, "ERR_INVALID_RESET_CODE");
    expect((await login(ctx, user.email, NEW_PASSWORD, nextIp())).user.id).toBe(user.id);
  });

  it(`a wrong code is refused; after ${RESET_CODE_ATTEMPTS} tries even the right one is`, async () => {
    const { user } = await someone();
    const { code } = await askCode(user.email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < RESET_CODE_ATTEMPTS; i++)
      expectError(await reset(user.email, wrong), 400, "ERR_INVALID_RESET_CODE");
    expectError(await reset(user.email, code), 400, "ERR_INVALID_RESET_CODE");
    await expect(login(ctx, user.email, NEW_PASSWORD, nextIp())).rejects.toThrow("ERR_INVALID_CREDENTIALS");

    // A new code (past the per-e-mail window of tries) starts over: wrong tries, then the right one.
    ctx.clock.now = new Date(Date.now() + (RESET_LIMITS.triesPerEmail.windowSeconds + 1) * 1000);
    try {
      const again = await askCode(user.email);
      for (let i = 0; i < RESET_CODE_ATTEMPTS - 1; i++)
        expectError(
          await reset(user.email, again.code === "000000" ? "111111" : "000000"),
          400,
          "ERR_INVALID_RESET_CODE",
        );
      expectOk(await reset(user.email, again.code));
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("a code expires after 15 minutes", async () => {
    const { user } = await someone();
    const start = new Date();
    ctx.clock.now = start;
    try {
      const first = await askCode(user.email);
      ctx.clock.now = new Date(start.getTime() + 15 * 60_000 + 1_000);
      expectError(await reset(user.email, first.code), 400, "ERR_INVALID_RESET_CODE");
      const second = await askCode(user.email);
      ctx.clock.now = new Date(start.getTime() + 29 * 60_000);
      expectOk(await reset(user.email, second.code));
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("a new code replaces the one before", async () => {
    const { user } = await someone();
    const first = await askCode(user.email);
    const second = await askCode(user.email);
    if (first.code !== second.code)
      expectError(await reset(user.email, first.code), 400, "ERR_INVALID_RESET_CODE");
    expectOk(await reset(user.email, second.code));
  });

  it("answers an e-mail without an account as a wrong code, so the reset tells nobody who has one", async () => {
    const { user } = await someone();
    await askCode(user.email);
    const known = await reset(user.email, "000001", NEW_PASSWORD, "10.8.0.1");
    const unknown = await reset(`nobody-${uid()}@test.local`, "000001", NEW_PASSWORD, "10.8.0.1");
    expect(JSON.parse(unknown.body)).toEqual(JSON.parse(known.body));
    expect(unknown.statusCode).toBe(known.statusCode);
    expectError(unknown, 400, "ERR_INVALID_RESET_CODE");
  });

  it("refuses a weak password and a missing code with the spec's messages", async () => {
    const { user } = await someone();
    const weak = fieldsOf(await reset(user.email, "123456", "abcdefgh"));
    expect(weak.newPassword).toBe(
      "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.",
    );
    const missing = fieldsOf(
      await post("/resetpasswords", { email: user.email, token: "", newPassword: "" }),
    );
    expect(missing).toMatchObject({ token: "Campo obrigatório", newPassword: "Campo obrigatório" });
  });

  it("the older clients' path form works, and its path (e-mail, code, password) is never logged", async () => {
    const { user } = await someone();
    const { code } = await askCode(user.email);
    const secretPassword = `Legacy${uid()}9`;
    const res = await post(
      `/resetpasswords/${encodeURIComponent(user.email)}/${code}/${encodeURIComponent(secretPassword)}`,
    );
    expect(expectOk(res)).toEqual({ ok: true });
    expect((await login(ctx, user.email, secretPassword, nextIp())).user.id).toBe(user.id);
    expect(logged).toContain("/resetpasswords/[redacted]");
    expect(logged).not.toContain(secretPassword);
    expect(logged).not.toContain(`/${code}/`);
    expect(logged).not.toContain(`/resetpasswords/${encodeURIComponent(user.email)}`);
  });
});

describe("rate limits", () => {
  it(`at most ${RESET_LIMITS.codesPerEmail.max} codes per e-mail, whoever asks, known or not`, async () => {
    for (const email of [(await someone()).user.email, `nobody-${uid()}@test.local`]) {
      for (let i = 0; i < RESET_LIMITS.codesPerEmail.max; i++)
        expectOk(await post(`/forgetpassword/${email}`));
      const over = await post(`/forgetpassword/${email}`);
      expectError(over, 429, "ERR_TOO_MANY_REQUESTS");
    }
    await ctx.built.channels.jobs.runDue();
  });

  it(`at most ${RESET_LIMITS.codesPerIp.max} codes per address`, async () => {
    const ip = "10.7.0.1";
    for (let i = 0; i < RESET_LIMITS.codesPerIp.max; i++)
      expectOk(await post(`/forgetpassword/nobody-${uid()}@test.local`, undefined, ip));
    const over = await post(`/forgetpassword/nobody-${uid()}@test.local`, undefined, ip);
    expectError(over, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    await ctx.built.channels.jobs.runDue();
  });

  it(`at most ${RESET_LIMITS.triesPerEmail.max} tries per e-mail, and ${RESET_LIMITS.triesPerIp.max} per address`, async () => {
    const email = `nobody-${uid()}@test.local`;
    for (let i = 0; i < RESET_LIMITS.triesPerEmail.max; i++)
      expectError(await reset(email, "123456"), 400, "ERR_INVALID_RESET_CODE");
    expectError(await reset(email, "123456"), 429, "ERR_TOO_MANY_REQUESTS");

    const ip = "10.7.0.2";
    for (let i = 0; i < RESET_LIMITS.triesPerIp.max; i++)
      expectError(
        await reset(`nobody-${uid()}@test.local`, "123456", NEW_PASSWORD, ip),
        400,
        "ERR_INVALID_RESET_CODE",
      );
    expectError(
      await reset(`nobody-${uid()}@test.local`, "123456", NEW_PASSWORD, ip),
      429,
      "ERR_TOO_MANY_REQUESTS",
    );
  });
});

describe("the invitation of a user without a password (user.invited)", () => {
  it("mails a code that sets the first password, valid for 72 hours, only if the creating transaction commits", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildUser(ctx.deps.db, company.id, {
      profile: "admin",
      name: "Nova Admin",
      email: `invited-${uid()}@test.local`,
    });
    // A transaction that rolls back invites nobody.
    await expect(
      inTransaction(ctx.deps.db, ctx.deps.bus, async (_tx, raise) => {
        raise({ type: "user.invited", companyId: company.id, userId: admin.id });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await mailsTo(admin.email)).toEqual([]);

    const start = new Date();
    ctx.clock.now = start;
    try {
      const before = inbox.length;
      await inTransaction(ctx.deps.db, ctx.deps.bus, async (_tx, raise) => {
        raise({ type: "user.invited", companyId: company.id, userId: admin.id });
      });
      const [mail] = await mailsTo(admin.email, before);
      expect(mail!.raw).toContain("Olá, Nova Admin!");
      expect(mail!.raw).toContain("Uma conta de administrador foi criada para você no Atende.");
      const code = /code=(\d{6})/.exec(mail!.raw)![1]!;
      // Two days later the invitation still works (a reset code would long be dead).
      ctx.clock.now = new Date(start.getTime() + 48 * 3_600_000);
      expectOk(await reset(admin.email, code, "Primeira1"));
      expect((await login(ctx, admin.email, "Primeira1", nextIp())).user.id).toBe(admin.id);
    } finally {
      ctx.clock.now = new Date();
    }
  });

  it("an invitation expires after 72 hours", async () => {
    const company = await buildCompany(ctx.deps.db);
    const admin = await buildUser(ctx.deps.db, company.id, { email: `invited-${uid()}@test.local` });
    const start = new Date();
    ctx.clock.now = start;
    try {
      const before = inbox.length;
      await inTransaction(ctx.deps.db, ctx.deps.bus, async (_tx, raise) => {
        raise({ type: "user.invited", companyId: company.id, userId: admin.id });
      });
      const [mail] = await mailsTo(admin.email, before);
      const code = /code=(\d{6})/.exec(mail!.raw)![1]!;
      ctx.clock.now = new Date(start.getTime() + 72 * 3_600_000 + 1_000);
      expectError(await reset(admin.email, code, "Primeira1"), 400, "ERR_INVALID_RESET_CODE");
    } finally {
      ctx.clock.now = new Date();
    }
  });
});

describe("SMTP trouble", () => {
  it("a mail the server cannot take is tried again later, with a new code", async () => {
    const { user } = await someone();
    const jobs = ctx.built.channels.jobs;
    const close = () => new Promise<void>((r) => smtp.close(() => r()));
    const port = (smtp.server.address() as AddressInfo).port;
    await close();
    expectOk(await post(`/forgetpassword/${user.email}`));
    await jobs.runDue();
    // SMTP back on the same port; the job is due again after its backoff.
    smtp = new SMTPServer({ ...smtp.options });
    await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
    const before = inbox.length;
    const start = new Date();
    ctx.clock.now = new Date(start.getTime() + 60_000);
    try {
      await jobs.runDue();
      const [mail] = inbox.slice(before).filter((m) => m.to.includes(user.email));
      expect(mail).toBeDefined();
      const code = /code=(\d{6})/.exec(mail!.raw)![1]!;
      expectOk(await reset(user.email, code));
    } finally {
      ctx.clock.now = new Date();
    }
  });
});
