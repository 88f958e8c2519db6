import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CompanyDTO,
  type CompanySignupAnswer,
  DEFAULT_COMPANY_SETTINGS,
  type SessionUserDTO,
  type WhatsappDTO,
  todayInZone,
} from "@atende/contracts";
import { queryRows } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import {
  type LoggedIn,
  buildPlan,
  buildPlatformOperator,
  buildTeam,
  login,
  uid,
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { SIGNUP_RATE_LIMIT } from "./routes.js";

/** POST /companies/cadastro: the public sign-up with a trial the server computes. */
let ctx: TestContext;
let root: LoggedIn;
let planId: number;
const call = caller(() => ctx);
let ipSeq = 0;
/** Each test signs up from its own address, so the per-address limit is tested on its own. */
const nextIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  // The first super user: platform settings live on this company.
  root = (await buildPlatformOperator(ctx)).login;
  planId = (await buildPlan(ctx.deps.db, { name: `Básico ${uid()}`, value: 49.9 })).id;
}, 60_000);
afterAll(() => ctx.close());

const setPlatform = async (key: string, value: string) =>
  expectOk(await call("PUT", `/settings/${key}`, root, { key, value }));

const form = (extra: Record<string, unknown> = {}) => ({
  name: `Loja ${uid()}`,
  email: `loja-${uid()}@example.com`,
  password: "Senha123",
  phone: "(11) 99876-5432",
  planId,
  ...extra,
});

const signup = (body: object, ip = nextIp()) =>
  ctx.app.inject({ method: "POST", url: "/companies/cadastro", payload: body, remoteAddress: ip });

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe("POST /companies/cadastro", () => {
  it("answers 403 ERR_USER_CREATION_DISABLED while allowregister is not enabled (the default), creating nothing", async () => {
    const body = form();
    expectError(await signup(body), 403, "ERR_USER_CREATION_DISABLED");
    await setPlatform("allowregister", "disabled");
    expectError(await signup(body), 403, "ERR_USER_CREATION_DISABLED");
    expect(await ctx.deps.db.select().from(users).where(eq(users.email, body.email))).toEqual([]);
    // The sign-up page reads these before anyone logs in.
    expect(expectOk<{ value: string }>(await call("GET", "/settings/allowregister", null)).value).toBe(
      "disabled",
    );
  });

  it("creates a usable company with the server's trial, whatever the request says; the admin logs in with the password given", async () => {
    await setPlatform("allowregister", "enabled");
    await setPlatform("trial", "5");
    const body = form({
      // Forged: none of these is taken from the request.
      dueDate: "2099-12-31",
      trialExpiration: "2099-12-31",
      status: false,
      recurrence: "ANUAL",
      campaignsEnabled: false,
      value: 0,
      price: 0,
      plan: { value: 0 },
      profile: "user",
      super: true,
    });
    const answer = expectOk<CompanySignupAnswer>(await signup(body), 201);
    expect(answer).toEqual({ id: expect.any(Number), name: body.name });

    const expected = addDays(todayInZone(ctx.clock.now), 5);
    const company = expectOk<CompanyDTO>(await call("GET", `/companies/${answer.id}`, root));
    expect(company).toMatchObject({
      name: body.name,
      email: body.email,
      phone: "11998765432",
      planId,
      status: true,
      recurrence: "MENSAL",
      dueDate: expected,
      trialExpiration: expected,
      campaignsEnabled: true,
    });
    expect(Object.fromEntries(company.settings.map((s) => [s.key, s.value]))).toEqual({
      ...DEFAULT_COMPANY_SETTINGS,
      campaignsEnabled: "true",
    });

    const admin = await login(ctx, body.email, body.password, nextIp());
    expect(admin.user).toMatchObject({
      email: body.email,
      profile: "admin",
      super: false,
      companyId: answer.id,
    });
    // The shell's trial warning reads the session's company.
    expect(admin.user.company).toMatchObject({ id: answer.id, dueDate: expected, trialExpiration: expected });
    const me = expectOk<SessionUserDTO>(await call("GET", "/auth/me", admin));
    expect(me.company).toMatchObject({ dueDate: expected, trialExpiration: expected });
    // Its own users read their company, not another's.
    expect(expectOk<CompanyDTO>(await call("GET", `/companies/${answer.id}`, admin)).trialExpiration).toBe(
      expected,
    );
    const connections = expectOk<WhatsappDTO[]>(await call("GET", "/whatsapp", admin));
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({ provider: "simulator", isDefault: true });
    // A super route stays closed to it.
    expectError(await call("GET", "/companies", admin), 403, "ERR_NO_PERMISSION");
  });

  it("the trial is the platform's setting, 3 days when unset", async () => {
    await setPlatform("allowregister", "enabled");
    await queryRows(ctx.deps.db, sql`delete from settings where key = 'trial'`);
    const three = expectOk<CompanySignupAnswer>(await signup(form()), 201);
    const today = todayInZone(ctx.clock.now);
    expect(expectOk<CompanyDTO>(await call("GET", `/companies/${three.id}`, root)).trialExpiration).toBe(
      addDays(today, 3),
    );
    await setPlatform("trial", "1");
    const one = expectOk<CompanySignupAnswer>(await signup(form()), 201);
    expect(expectOk<CompanyDTO>(await call("GET", `/companies/${one.id}`, root)).dueDate).toBe(
      addDays(today, 1),
    );
  });

  it("the e-mail is unique across the platform; the form's rules hold", async () => {
    await setPlatform("allowregister", "enabled");
    const team = await buildTeam(ctx);
    expectError(
      await signup(form({ email: team.admin.email.toUpperCase() })),
      409,
      "ERR_EMAIL_ALREADY_EXISTS",
    );
    expectError(await signup(form({ name: team.company.name })), 409, "ERR_COMPANY_NAME_TAKEN");
    expectError(await signup(form({ planId: 2147483647 })), 400, "ERR_COMPANY_PLAN_INVALID");
    const fields = fieldsOf(
      await signup({
        name: "A",
        email: "not-an-email",
        password: "",
        phone: "(11) 99876-54321",
        planId: "x",
      }),
    );
    expect(Object.keys(fields).sort()).toEqual(["email", "name", "password", "phone", "planId"]);
    expect(Object.keys(fieldsOf(await signup(form({ name: "x".repeat(51) }))))).toEqual(["name"]);
  });

  it(`is rate-limited per address: ${SIGNUP_RATE_LIMIT.max} an hour, then 429 ERR_TOO_MANY_REQUESTS`, async () => {
    await setPlatform("allowregister", "enabled");
    const ip = nextIp();
    for (let i = 0; i < SIGNUP_RATE_LIMIT.max; i++) expect((await signup(form(), ip)).statusCode).toBe(201);
    const refused = await signup(form(), ip);
    expectError(refused, 429, "ERR_TOO_MANY_REQUESTS");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await signup(form())).statusCode).toBe(201);
  });
});
