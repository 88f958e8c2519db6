import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COMPANY_SETTING_KEYS,
  type CompanyDTO,
  type CompanySchedulesDTO,
  DEFAULT_COMPANY_SETTINGS,
  DEFAULT_SCHEDULES,
  type SettingDTO,
} from "@atende/contracts";
import { companies, settings } from "../../db/schema/index.js";
import { secretBoxFor } from "../../lib/secretBox.js";
import { sealSecretsAtRest } from "../../secretsAtRest.js";
import { billingSettings } from "../billing/gateways/registry.js";
import { openSetting } from "./sealing.js";
import { type LoggedIn, buildPlatformOperator, buildTeam, buildUser, login } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { expectError, expectOk, caller, fieldsOf } from "../../test/calls.js";

/**
 * The settings page's API (back-office spec §2 Settings page, §3 Setting keys and Company
 * schedules, §7): GET /settings, PUT /settings/{key} with each key's own values, the company's
 * opening hours (PUT /companies/{id}/schedules), admin-only writes, super-only platform keys, and
 * one company never reading or changing another's. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */

let ctx: TestContext;
let a: Awaited<ReturnType<typeof buildTeam>>;
let b: Awaited<ReturnType<typeof buildTeam>>;
let superLogin: LoggedIn;
let platformId: number;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  a = await buildTeam(ctx);
  b = await buildTeam(ctx);
  const operator = await buildPlatformOperator(ctx);
  platformId = operator.companyId;
  superLogin = operator.login;
});
afterAll(async () => {
  await ctx.close();
});

const call = caller(() => ctx);

async function stored(companyId: number, key: string): Promise<string | undefined> {
  const [row] = await ctx.deps.db
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.companyId, companyId), eq(settings.key, key)));
  return row?.value;
}

/** A secret setting as the row holds it: sealed, never the value, and what it opens to. */
async function sealedValue(companyId: number, key: string): Promise<string | undefined> {
  const raw = await stored(companyId, key);
  if (raw === undefined) return undefined;
  expect(raw, key).toMatch(/^v1\./);
  const clear = openSetting(secretBoxFor(ctx.deps.config), key, raw);
  expect(raw).not.toContain(clear);
  return clear;
}

/** The Asaas key and webhook token as the gateway gets them. */
async function gatewaySecrets() {
  const s = await billingSettings(ctx.deps.db);
  const box = secretBoxFor(ctx.deps.config);
  return {
    asaasApiKey: openSetting(box, "asaas", s.asaasApiKeyEnc),
    asaasWebhookToken: openSetting(box, "asaasWebhookToken", s.asaasWebhookTokenEnc),
  };
}

const put = (who: LoggedIn, key: string, value: unknown, headers = {}) =>
  call("PUT", `/settings/${key}`, who, { key, value }, headers);

async function settingsOf(who: LoggedIn): Promise<Record<string, string>> {
  const list = expectOk<SettingDTO[]>(await call("GET", "/settings", who));
  return Object.fromEntries(list.map((s) => [s.key, s.value]));
}

describe("GET /settings", () => {
  it("answers every key of the Options tab with the company's values, to admins and agents", async () => {
    for (const who of [a.adminLogin, a.agentLogin]) {
      const values = await settingsOf(who);
      for (const key of COMPANY_SETTING_KEYS) expect(values[key], key).toBe(DEFAULT_COMPANY_SETTINGS[key]);
      expect(values.timezone).toBe("America/Sao_Paulo");
    }
  });

  it("a key never saved shows its default", async () => {
    const team = await buildTeam(ctx);
    await ctx.deps.db
      .delete(settings)
      .where(and(eq(settings.companyId, team.company.id), eq(settings.key, "scheduleType")));
    expect((await settingsOf(team.adminLogin)).scheduleType).toBe("disabled");
  });

  it("platform settings and integration credentials reach only the super user", async () => {
    await ctx.deps.db.insert(settings).values({ companyId: a.company.id, key: "tokenixc", value: "segredo" });
    expect((await settingsOf(a.adminLogin)).tokenixc).toBeUndefined();
    expectOk(await put(superLogin, "tokenixc", "chave-da-plataforma"));
    expect(await sealedValue(platformId, "tokenixc")).toBe("chave-da-plataforma");
  });

  it("never lists the Asaas API key or webhook token in clear: a hint of their last 4 characters", async () => {
    expectOk(await put(superLogin, "asaas", "$aact_prod_chave-secreta-1234"));
    const saved = expectOk<SettingDTO>(await put(superLogin, "asaasWebhookToken", "token-do-webhook-9876"));
    expect(JSON.stringify(saved)).not.toContain("token-do-webhook");
    expect(saved).toEqual({ key: "asaasWebhookToken", value: "", hint: "9876" });
    const res = await call("GET", "/settings", superLogin);
    expect(res.body).not.toContain("chave-secreta");
    expect(res.body).not.toContain("token-do-webhook");
    const list = expectOk<SettingDTO[]>(res);
    expect(list.find((s) => s.key === "asaas")).toEqual({ key: "asaas", value: "", hint: "1234" });
    expect(list.find((s) => s.key === "asaasWebhookToken")).toEqual({
      key: "asaasWebhookToken",
      value: "",
      hint: "9876",
    });
    // Stored sealed, whole: the gateway still uses them.
    expect(await sealedValue(platformId, "asaas")).toBe("$aact_prod_chave-secreta-1234");
    expect(await sealedValue(platformId, "asaasWebhookToken")).toBe("token-do-webhook-9876");
    // A secret of 4 characters or fewer shows none of them.
    expectOk(await put(superLogin, "asaasWebhookToken", "abc"));
    expect((await settingsOf(superLogin)).asaasWebhookToken).toBe("");
    const short = expectOk<SettingDTO[]>(await call("GET", "/settings", superLogin));
    expect(short.find((s) => s.key === "asaasWebhookToken")!.hint).toBe("****");
  });

  it("never lists the IXC token or the MK-AUTH client secret in clear; their addresses and the client ID are no secrets", async () => {
    const put1 = expectOk<SettingDTO>(await put(superLogin, "tokenixc", "ixc-token-secreto-4455"));
    expect(put1).toEqual({ key: "tokenixc", value: "", hint: "4455" });
    const put2 = expectOk<SettingDTO>(
      await put(superLogin, "clientsecretmkauth", "mk-segredo-do-cliente-7788"),
    );
    expect(put2).toEqual({ key: "clientsecretmkauth", value: "", hint: "7788" });
    expectOk(await put(superLogin, "ipixc", "https://ixc.provedor.test"));
    expectOk(await put(superLogin, "clientidmkauth", "cliente-mk-01"));
    const res = await call("GET", "/settings", superLogin);
    expect(res.body).not.toContain("ixc-token-secreto");
    expect(res.body).not.toContain("mk-segredo-do-cliente");
    const list = expectOk<SettingDTO[]>(res);
    expect(list.find((s) => s.key === "tokenixc")).toEqual({ key: "tokenixc", value: "", hint: "4455" });
    expect(list.find((s) => s.key === "clientsecretmkauth")).toEqual({
      key: "clientsecretmkauth",
      value: "",
      hint: "7788",
    });
    expect(list.find((s) => s.key === "ipixc")).toEqual({ key: "ipixc", value: "https://ixc.provedor.test" });
    expect(list.find((s) => s.key === "clientidmkauth")).toEqual({
      key: "clientidmkauth",
      value: "cliente-mk-01",
    });
    // Stored sealed, whole, for the integrations that use them; the others as they are.
    expect(await sealedValue(platformId, "tokenixc")).toBe("ixc-token-secreto-4455");
    expect(await sealedValue(platformId, "clientsecretmkauth")).toBe("mk-segredo-do-cliente-7788");
    expect(await stored(platformId, "ipixc")).toBe("https://ixc.provedor.test");
  });

  it("the login answer and the company payloads carry the platform's secrets only as hints", async () => {
    expectOk(await put(superLogin, "asaas", "$aact_prod_outra-chave-5566"));
    expectOk(await put(superLogin, "tokenixc", "ixc-token-da-sessao-3344"));
    // A plain user of the platform company: its login answer carries the company's settings.
    const member = await buildUser(ctx.deps.db, platformId, { profile: "user" });
    const memberLogin = await login(ctx, member.email);
    const secrets = ["outra-chave", "ixc-token-da-sessao"];
    const answers = [
      JSON.stringify(memberLogin.user),
      (await call("GET", "/auth/me", memberLogin)).body,
      (await call("GET", "/auth/me", superLogin)).body,
      (await call("GET", `/companies/${platformId}`, memberLogin)).body,
      (await call("GET", "/companies/list", superLogin)).body,
      (await call("GET", "/companies?pageNumber=1", superLogin)).body,
    ];
    for (const body of answers) for (const secret of secrets) expect(body).not.toContain(secret);
    const me = expectOk<{ company: { settings: SettingDTO[] } }>(await call("GET", "/auth/me", superLogin));
    expect(me.company.settings.find((s) => s.key === "tokenixc")).toEqual({
      key: "tokenixc",
      value: "",
      hint: "3344",
    });
  });

  it("answers 401 without a session", async () => {
    expectError(await ctx.app.inject({ method: "GET", url: "/settings" }), 401, "ERR_NO_SESSION");
  });
});

describe("PUT /settings/{key}", () => {
  const valid: [string, string[]][] = [
    ["userRating", ["enabled", "disabled"]],
    ["scheduleType", ["queue", "company", "disabled"]],
    ["call", ["disabled", "enabled"]],
    ["CheckMsgIsGroup", ["disabled", "enabled"]],
    ["sendGreetingAccepted", ["enabled", "disabled"]],
    ["sendMsgTransfTicket", ["enabled", "disabled"]],
    ["sendGreetingMessageOneQueues", ["disabled", "enabled"]],
    ["chatBotType", ["text"]],
    ["notificationPreview", ["disabled", "enabled"]],
    ["historyImportDays", ["7", "0", "30", "3"]],
    ["timezone", ["America/Manaus", "UTC", "Europe/Lisbon", "America/Sao_Paulo"]],
  ];

  it("saves each key's values at once and answers { key, value }", async () => {
    expect(valid.map(([key]) => key).sort()).toEqual([...COMPANY_SETTING_KEYS].sort());
    for (const [key, values] of valid) {
      for (const value of values) {
        expect(expectOk<SettingDTO>(await put(a.adminLogin, key, value))).toEqual({ key, value });
        expect(await stored(a.company.id, key)).toBe(value);
        expect((await settingsOf(a.adminLogin))[key]).toBe(value);
      }
    }
  });

  it("refuses a value the key does not take with 400, saving nothing", async () => {
    const bad: [string, unknown, string][] = [
      ["userRating", "yes", "Valor inválido"],
      ["userRating", true, "Valor inválido"],
      ["scheduleType", "always", "Valor inválido"],
      ["scheduleType", "", "Valor inválido"],
      ["call", null, "Valor inválido"],
      ["chatBotType", "audio", "Valor inválido"],
      // The bot sends text menus only: the spec's value is text, and nothing else is taken.
      ["chatBotType", "button", "Valor inválido"],
      ["chatBotType", "list", "Valor inválido"],
      ["historyImportDays", "400", "Valor inválido"],
      ["historyImportDays", 3, "Valor inválido"],
      ["timezone", "Mars/Olympus_Mons", "Fuso horário inválido"],
      ["timezone", "America/Sao Paulo", "Fuso horário inválido"],
      ["timezone", "", "Fuso horário inválido"],
      ["timezone", "../../etc/passwd", "Fuso horário inválido"],
    ];
    for (const [key, value, text] of bad) {
      const before = await stored(a.company.id, key);
      const res = await put(a.adminLogin, key, value);
      expectError(res, 400, "ERR_VALIDATION");
      expect(fieldsOf(res).value, `${key}=${JSON.stringify(value)}`).toBe(text);
      expect(await stored(a.company.id, key)).toBe(before);
    }
    const missing = await call("PUT", "/settings/userRating", a.adminLogin, {});
    expectError(missing, 400, "ERR_VALIDATION");
    const english = await put(a.adminLogin, "timezone", "Nowhere/Land", { "accept-language": "en" });
    expect(fieldsOf(english).value).toBe("Invalid time zone");
  });

  it("the path's key decides, whatever the body's key says", async () => {
    expectOk(
      await call("PUT", "/settings/userRating", a.adminLogin, { key: "scheduleType", value: "enabled" }),
    );
    expect(await stored(a.company.id, "userRating")).toBe("enabled");
    expect(await stored(a.company.id, "scheduleType")).not.toBe("enabled");
  });

  it("an unknown key answers 404 ERR_NO_SETTING_FOUND and creates no row", async () => {
    expectError(await put(a.adminLogin, "notAKey", "enabled"), 404, "ERR_NO_SETTING_FOUND");
    expect(await stored(a.company.id, "notAKey")).toBeUndefined();
  });

  it("agents get 403 ERR_NO_PERMISSION on every key, and nothing changes", async () => {
    for (const key of COMPANY_SETTING_KEYS) {
      const before = await stored(a.company.id, key);
      expectError(
        await put(a.agentLogin, key, key === "timezone" ? "UTC" : "disabled"),
        403,
        "ERR_NO_PERMISSION",
      );
      expect(await stored(a.company.id, key)).toBe(before);
    }
  });

  it("platform keys are the super user's: a company admin gets 403; the super user's values are checked too", async () => {
    for (const key of ["allowregister", "viewregister", "trial", "asaas", "tokenixc"]) {
      expectError(await put(a.adminLogin, key, "enabled"), 403, "ERR_NO_PERMISSION");
      expect(await stored(a.company.id, key), key).toBe(key === "tokenixc" ? "segredo" : undefined);
    }
    expectOk(await put(superLogin, "viewregister", "enabled"));
    expect(await stored(platformId, "viewregister")).toBe("enabled");
    // The public read of the login page follows (the platform is the super user's company).
    const pub = await ctx.app.inject({ method: "GET", url: "/settings/viewregister" });
    expect(pub.json<SettingDTO>()).toEqual({ key: "viewregister", value: "enabled" });
    expectOk(await put(superLogin, "trial", "7"));
    expectError(await put(superLogin, "trial", "8"), 400, "ERR_VALIDATION");
    expectError(await put(superLogin, "asaas", "x".repeat(501)), 400, "ERR_VALIDATION");
    expect(await stored(platformId, "trial")).toBe("7");
  });

  it("a company's change never touches another company", async () => {
    expectOk(await put(a.adminLogin, "scheduleType", "queue"));
    expectOk(await put(b.adminLogin, "scheduleType", "company"));
    expect((await settingsOf(a.adminLogin)).scheduleType).toBe("queue");
    expect((await settingsOf(b.adminLogin)).scheduleType).toBe("company");
    // A companyId in the body is not read.
    expectOk(
      await call("PUT", "/settings/userRating", a.adminLogin, { value: "disabled", companyId: b.company.id }),
    );
    expect(await stored(b.company.id, "userRating")).toBe(DEFAULT_COMPANY_SETTINGS.userRating);
  });
});

describe("DELETE /settings/{key}: removing a stored secret", () => {
  it("the super user removes the IXC token: gone from the store and the list; a company's own row stays", async () => {
    expectOk(await put(superLogin, "tokenixc", "ixc-para-remover-1212"));
    const res = await call("DELETE", "/settings/tokenixc", superLogin);
    expect(res.statusCode, res.body).toBe(204);
    expect(await stored(platformId, "tokenixc")).toBeUndefined();
    const list = expectOk<SettingDTO[]>(await call("GET", "/settings", superLogin));
    expect(list.find((s) => s.key === "tokenixc")?.hint ?? "").toBe("");
    // Removing what is not there is no error.
    expect((await call("DELETE", "/settings/tokenixc", superLogin)).statusCode).toBe(204);
    // Company A's stray row (written in the first describe) is not the platform's.
    expect(await stored(a.company.id, "tokenixc")).toBe("segredo");
  });

  it("each secret is removable; the payment gateway reads the whole value, then none", async () => {
    for (const key of ["asaas", "asaasWebhookToken", "tokenixc", "clientsecretmkauth"]) {
      expectOk(await put(superLogin, key, `valor-de-${key}-9090`));
      expect((await call("DELETE", `/settings/${key}`, superLogin)).statusCode, key).toBe(204);
      expect(await stored(platformId, key), key).toBeUndefined();
    }
    expectOk(await put(superLogin, "asaas", "$aact_prod_chave-do-gateway-6161"));
    expectOk(await put(superLogin, "asaasWebhookToken", "webhook-do-gateway-6262"));
    expect(await gatewaySecrets()).toEqual({
      asaasApiKey: "$aact_prod_chave-do-gateway-6161",
      asaasWebhookToken: "webhook-do-gateway-6262",
    });
    expectOk(await call("DELETE", "/settings/asaas", superLogin), 204);
    expectOk(await call("DELETE", "/settings/asaasWebhookToken", superLogin), 204);
    expect(await gatewaySecrets()).toEqual({ asaasApiKey: "", asaasWebhookToken: "" });
  });

  it("an agent, or a company admin on the platform's secrets, gets 403 and nothing is removed", async () => {
    expectOk(await put(superLogin, "asaasWebhookToken", "webhook-que-fica-3030"));
    for (const who of [a.agentLogin, a.adminLogin, b.adminLogin]) {
      for (const key of ["asaas", "asaasWebhookToken", "tokenixc", "clientsecretmkauth"])
        expectError(await call("DELETE", `/settings/${key}`, who), 403, "ERR_NO_PERMISSION");
    }
    expect(await sealedValue(platformId, "asaasWebhookToken")).toBe("webhook-que-fica-3030");
    expect(await stored(a.company.id, "tokenixc")).toBe("segredo");
    expectError(await call("DELETE", "/settings/tokenixc", null), 401, "ERR_NO_SESSION");
  });

  it("a setting that is no secret is not removed (400), an unknown key answers 404", async () => {
    const before = await stored(a.company.id, "userRating");
    expectError(await call("DELETE", "/settings/userRating", a.adminLogin), 400, "ERR_SETTING_NOT_CLEARABLE");
    expect(await stored(a.company.id, "userRating")).toBe(before);
    expectError(await call("DELETE", "/settings/ipixc", superLogin), 400, "ERR_SETTING_NOT_CLEARABLE");
    expectError(await call("DELETE", "/settings/notAKey", a.adminLogin), 404, "ERR_NO_SETTING_FOUND");
    expectError(await call("DELETE", "/settings/userRating", a.agentLogin), 403, "ERR_NO_PERMISSION");
  });

  it("a blank PUT keeps the stored secret: a client sending back the list's blank value removes nothing", async () => {
    expectOk(await put(superLogin, "clientsecretmkauth", "mk-que-fica-5050"));
    for (const value of ["", "   "])
      expect(expectOk<SettingDTO>(await put(superLogin, "clientsecretmkauth", value))).toEqual({
        key: "clientsecretmkauth",
        value: "",
        hint: "5050",
      });
    expect(await sealedValue(platformId, "clientsecretmkauth")).toBe("mk-que-fica-5050");
    // A null value is refused, as before: only DELETE removes.
    expectError(await put(superLogin, "clientsecretmkauth", null), 400, "ERR_VALIDATION");
    expect(await sealedValue(platformId, "clientsecretmkauth")).toBe("mk-que-fica-5050");
    // With nothing stored, a blank PUT stores nothing either.
    expectOk(await call("DELETE", "/settings/clientsecretmkauth", superLogin), 204);
    expect(expectOk<SettingDTO>(await put(superLogin, "clientsecretmkauth", ""))).toEqual({
      key: "clientsecretmkauth",
      value: "",
      hint: "",
    });
    expect(await stored(platformId, "clientsecretmkauth")).toBeUndefined();
  });
});

describe("secret settings at rest", () => {
  it("a secret saved in clear before sealing is sealed by the start-up step; its hint and the gateway's value stay the same", async () => {
    // As rows were written before migration 0031.
    for (const [key, value] of [
      ["asaas", "$aact_prod_antiga-em-claro-8181"],
      ["asaasWebhookToken", "webhook-antigo-em-claro-8282"],
      ["tokenixc", "ixc-antigo-em-claro-8383"],
    ] as const) {
      await ctx.deps.db
        .update(settings)
        .set({ value })
        .where(and(eq(settings.companyId, platformId), eq(settings.key, key)));
      if ((await stored(platformId, key)) !== value)
        await ctx.deps.db.insert(settings).values({ companyId: platformId, key, value });
    }
    const hintsBefore = expectOk<SettingDTO[]>(await call("GET", "/settings", superLogin));
    const moved = await sealSecretsAtRest(ctx.deps.db, secretBoxFor(ctx.deps.config));
    // The platform's three, and company A's stray clear row of the first describe.
    expect(moved.settings).toBe(4);
    expect(await sealedValue(platformId, "asaas")).toBe("$aact_prod_antiga-em-claro-8181");
    expect(await sealedValue(platformId, "asaasWebhookToken")).toBe("webhook-antigo-em-claro-8282");
    expect(await sealedValue(platformId, "tokenixc")).toBe("ixc-antigo-em-claro-8383");
    expect(await sealedValue(a.company.id, "tokenixc")).toBe("segredo");
    expect(await gatewaySecrets()).toEqual({
      asaasApiKey: "$aact_prod_antiga-em-claro-8181",
      asaasWebhookToken: "webhook-antigo-em-claro-8282",
    });
    expect(expectOk<SettingDTO[]>(await call("GET", "/settings", superLogin))).toEqual(hintsBefore);
    // Settings that are no secrets are left as they are; a second run finds nothing to do.
    expect(await stored(platformId, "trial")).toBe("7");
    expect((await sealSecretsAtRest(ctx.deps.db, secretBoxFor(ctx.deps.config))).settings).toBe(0);
  });
});

describe("the company's opening hours", () => {
  const week = DEFAULT_SCHEDULES.map((d) =>
    d.weekdayEn === "saturday" ? { ...d, startTime: "09:00", endTime: "13:00" } : { ...d },
  );

  it("a new company starts with the default hours; GET /companies/{id} answers them to its users", async () => {
    const company = expectOk<CompanyDTO>(await call("GET", `/companies/${a.company.id}`, a.agentLogin));
    expect(company).toMatchObject({ id: a.company.id, name: a.company.name, schedules: DEFAULT_SCHEDULES });
  });

  it("an admin saves the week; the answer and the company carry it", async () => {
    const saved = expectOk<CompanySchedulesDTO>(
      await call("PUT", `/companies/${a.company.id}/schedules`, a.adminLogin, { schedules: week }),
    );
    expect(saved).toEqual({ id: a.company.id, schedules: week });
    expect(
      expectOk<CompanyDTO>(await call("GET", `/companies/${a.company.id}`, a.adminLogin)).schedules,
    ).toEqual(week);
    const [row] = await ctx.deps.db.select().from(companies).where(eq(companies.id, b.company.id));
    expect(row!.schedules).toEqual(DEFAULT_SCHEDULES);
  });

  it("validates ##:## times and the end after the start; a refused week keeps the saved one", async () => {
    const cases: [unknown, string, string][] = [
      [
        [{ weekdayEn: "monday", startTime: "24:00", endTime: "18:00" }],
        "schedules.0.startTime",
        "Use o formato HH:MM",
      ],
      [
        [{ weekdayEn: "monday", startTime: "08:00", endTime: "7:00" }],
        "schedules.0.endTime",
        "Use o formato HH:MM",
      ],
      [
        [{ weekdayEn: "monday", startTime: "12:00", endTime: "11:59" }],
        "schedules.0.endTime",
        "O fim deve ser depois do início",
      ],
      [
        [{ weekdayEn: "funday", startTime: "08:00", endTime: "18:00" }],
        "schedules.0.weekdayEn",
        "Valor inválido",
      ],
      [undefined, "schedules", "Valor inválido"],
    ];
    for (const [schedules, field, text] of cases) {
      const res = await call("PUT", `/companies/${a.company.id}/schedules`, a.adminLogin, { schedules });
      expectError(res, 400, "ERR_VALIDATION");
      expect(fieldsOf(res)[field], JSON.stringify(schedules)).toBe(text);
    }
    expect(
      expectOk<CompanyDTO>(await call("GET", `/companies/${a.company.id}`, a.adminLogin)).schedules,
    ).toEqual(week);
  });

  it("an agent gets 403; another company's admin gets 404 ERR_NO_COMPANY_FOUND; nothing changes", async () => {
    expectError(
      await call("PUT", `/companies/${a.company.id}/schedules`, a.agentLogin, {
        schedules: DEFAULT_SCHEDULES,
      }),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await call("PUT", `/companies/${a.company.id}/schedules`, b.adminLogin, {
        schedules: DEFAULT_SCHEDULES,
      }),
      404,
      "ERR_NO_COMPANY_FOUND",
    );
    expectError(await call("GET", `/companies/${a.company.id}`, b.adminLogin), 404, "ERR_NO_COMPANY_FOUND");
    expectError(await call("GET", "/companies/2147483647", a.adminLogin), 404, "ERR_NO_COMPANY_FOUND");
    expect(
      expectOk<CompanyDTO>(await call("GET", `/companies/${a.company.id}`, a.adminLogin)).schedules,
    ).toEqual(week);
  });

  it("the super user reaches every company", async () => {
    const saved = expectOk<CompanySchedulesDTO>(
      await call("PUT", `/companies/${b.company.id}/schedules`, superLogin, { schedules: week }),
    );
    expect(saved.schedules).toEqual(week);
    expectOk(
      await call("PUT", `/companies/${b.company.id}/schedules`, superLogin, { schedules: DEFAULT_SCHEDULES }),
    );
  });
});
