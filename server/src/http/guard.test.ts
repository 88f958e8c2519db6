import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { PERMISSIONS, PLAN_FLAGS, type Permission, type PlanFlag } from "@atende/contracts";
import { eq } from "drizzle-orm";
import { queryRows } from "../db/client.js";
import { invoices, plans, users } from "../db/schema/index.js";
import { findCompany } from "../modules/companies/queries.js";
import { arbitraryOf, validSample } from "../test/arbitraries.js";
import { type LoggedIn, buildCompany, buildPlan, buildTeam, buildUser, login } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";
import type { RegisteredRoute, RouteDeclaration } from "./route.js";
import { FUZZ_HEADER, UNDECLARED_HEADER } from "./errorCheck.js";

/**
 * The generated guard suite: it walks EVERY registered route, from its declaration (http/route.ts),
 * and calls it without a token, as another company with this company's real ids, as an agent where
 * the route needs more, and with property-based and hostile inputs. A new route is covered by being
 * registered; one without a declaration, or whose path parameter this suite cannot fill, fails it.
 */
let ctx: TestContext;
let admin: LoggedIn;
let agent: LoggedIn;
let stranger: LoggedIn;
let superUser: LoggedIn;
/** The admin of a company whose plan has none of the flags. */
let unplanned: LoggedIn;
/** Per flag, the admin of a company whose plan has every flag but that one. */
let lacking: Record<PlanFlag, LoggedIn>;
let companyId: number;
/** Company A's real ids, by path parameter (and body field) name; `id` depends on the path. */
let ids: Record<string, string | number>;
let idByResource: Record<string, number>;
let requests = 0;
/** The fuzz's seed: a new one each run, printed; GUARD_SEED replays one. */
const seed = Number(process.env.GUARD_SEED ?? Date.now() % 2 ** 31);
const answered: Record<string, number> = {};

interface ApiRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  decl: RouteDeclaration;
}
let api: ApiRoute[] = [];

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 10_000, LOGIN_MAX_PER_IP: 1_000_000 });
  const team = await buildTeam(ctx);
  companyId = team.company.id;
  admin = team.adminLogin;
  agent = team.agentLogin;
  stranger = (await buildTeam(ctx)).adminLogin;
  const root = await buildUser(ctx.deps.db, companyId, { profile: "admin", super: true });
  superUser = await login(ctx, root.email);
  const flags = (on: (flag: PlanFlag) => boolean) =>
    Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, on(flag)])) as Record<PlanFlag, boolean>;
  const adminOnPlan = async (plan: Record<PlanFlag, boolean>) => {
    const company = await buildCompany(ctx.deps.db, { planId: (await buildPlan(ctx.deps.db, plan)).id });
    return login(ctx, (await buildUser(ctx.deps.db, company.id, { profile: "admin" })).email);
  };
  // Company A and the stranger have every feature: what they hear is about rows and rights.
  for (const planId of [
    team.company.planId!,
    (await findCompany(ctx.deps.db, stranger.user.companyId))!.plan!.id,
  ])
    await ctx.deps.db
      .update(plans)
      .set(flags(() => true))
      .where(eq(plans.id, planId));
  unplanned = await adminOnPlan(flags(() => false));
  lacking = Object.fromEntries(
    await Promise.all(PLAN_FLAGS.map(async (flag) => [flag, await adminOnPlan(flags((f) => f !== flag))])),
  ) as Record<PlanFlag, LoggedIn>;

  // One of each entity, made as the admin would.
  const made = async (url: string, payload: object) => {
    const res = await ctx.app.inject({ method: "POST", url, headers: admin.auth, payload });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return res.json<{ id: number; uuid?: string }>();
  };
  const whatsapp = await made("/whatsapp", { name: "Guard", provider: "simulator" });
  const contact = await made("/contacts", { name: "Guarded", number: "5511987650042" });
  const ticket = await made("/tickets", { contactId: contact.id, whatsappId: whatsapp.id, status: "open" });
  const message = await made(`/messages/${ticket.id}`, { body: "guarded" });
  const tag = await made("/tags", { name: "Guard tag" });
  const option = await made("/queue-options", { queueId: team.queue.id, title: "Guard option" });
  const quick = await made("/quick-messages", { shortcode: "guard", message: "Guarded" });
  const schedule = await made("/schedules", {
    body: "guarded",
    contactId: contact.id,
    sendAt: "2099-01-01T10:00",
  });
  const campaign = await made("/campaigns", { name: "Guard campaign", message1: "Olá {nome}" });
  const note = await made("/ticket-notes", { note: "guarded", ticketId: ticket.id, contactId: contact.id });
  const chat = await made("/chats", { title: "Guard chat", users: [team.agent.id] });
  // Help videos are the platform's, written by the super user only.
  const helpRes = await ctx.app.inject({
    method: "POST",
    url: "/helps",
    headers: superUser.auth,
    payload: { title: "Guard help", video: "dQw4w9WgXcQ" },
  });
  expect(helpRes.statusCode, helpRes.body).toBe(201);
  const help = helpRes.json<{ id: number }>();
  const integration = await made("/queueIntegration", {
    type: "typebot",
    name: "Guard bot",
    urlN8N: "http://127.0.0.1:9",
    typebotSlug: "guard",
  });
  const prompt = await made("/prompt", {
    name: "Guard prompt",
    prompt: "You are a guard.",
    apiKey: "sk-guard-0000",
    queueId: team.queue.id,
  });
  // Announcements are the platform's too; this one is addressed to company A alone.
  const announcementRes = await ctx.app.inject({
    method: "POST",
    url: "/announcements",
    headers: superUser.auth,
    payload: { title: "Guard announcement", text: "guarded", allCompanies: false, companyIds: [companyId] },
  });
  expect(announcementRes.statusCode, announcementRes.body).toBe(201);
  const announcement = announcementRes.json<{ id: number }>();
  // An outbound webhook and a delivery: a loopback receiver the tests' OUTBOUND_ALLOW_PRIVATE lets
  // through (203.0.113.0/24 is documentation, refused like any reserved range); the discard port.
  const webhook = await made("/webhooks", { url: "http://127.0.0.1:9/hook", events: ["ticket.created"] });
  const tested = await ctx.app.inject({
    method: "POST",
    url: `/webhooks/${webhook.id}/test`,
    headers: admin.auth,
  });
  expect(tested.statusCode, tested.body).toBe(204);
  const delivery = (
    await ctx.app.inject({ method: "GET", url: `/webhooks/${webhook.id}/deliveries`, headers: admin.auth })
  ).json<{ id: number }[]>()[0]!;

  const contactList = await made("/contact-lists", { name: "Guard list" });
  const listItem = await made("/contact-list-items", {
    name: "Guarded",
    number: "5511987650043",
    contactListId: contactList.id,
  });
  const fileList = await made("/files", {
    name: "Guard files",
    message: "guarded",
    options: [{ name: "one" }],
  });
  const fileOption = (fileList as unknown as { options: { id: number }[] }).options[0]!;
  // An invoice of company A (billing): opened as the invoicing job opens them.
  const [invoice] = await ctx.deps.db
    .insert(invoices)
    .values({ companyId, detail: "Guard invoice", value: 10, dueDate: "2099-01-01" })
    .returning();

  idByResource = {
    contacts: contact.id,
    tickets: ticket.id,
    messages: message.id,
    tags: tag.id,
    queue: team.queue.id,
    "queue-options": option.id,
    "quick-messages": quick.id,
    schedules: schedule.id,
    "ticket-notes": note.id,
    // The agent, never the admin: the fuzz may change a user's profile.
    users: team.agent.id,
    whatsapp: whatsapp.id,
    whatsappsession: whatsapp.id,
    companies: companyId,
    // Company A's own plan: another company's admin does not reach it (404), the super user's
    // DELETE of it is refused while A is on it (ERR_PLAN_IN_USE).
    plans: team.company.planId!,
    helps: help.id,
    chats: chat.id,
    announcements: announcement.id,
    campaigns: campaign.id,
    "contact-lists": contactList.id,
    "contact-list-items": listItem.id,
    files: fileList.id,
    invoices: invoice!.id,
    webhooks: webhook.id,
    queueIntegration: integration.id,
    prompt: prompt.id,
  };
  ids = {
    ticketId: ticket.id,
    tagId: tag.id,
    whatsappId: whatsapp.id,
    companyId,
    contactId: contact.id,
    messageId: message.id,
    queueId: team.queue.id,
    userId: team.agent.id,
    uuid: ticket.uuid!,
    key: "userRating",
    file: "guard.png",
    // The password reset's legacy path: an address without an account, a code, a new password.
    email: "guard-nobody@test.local",
    token: "123456",
    newPassword: "Guard1234",
    // No import was made: its errors are not found for anyone.
    importId: 1,
    optionId: fileOption.id,
    deliveryId: delivery.id,
  };

  api = ctx.built.routes
    .filter((r): r is RegisteredRoute & { route: RouteDeclaration } => r.route !== "asset" && !!r.route)
    .map((r) => ({ method: r.method as ApiRoute["method"], url: r.url, decl: r.route }));
}, 60_000);
afterAll(() => ctx.close());

const paramNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** The real id for a path parameter: `:id` is the resource the path names (/messages/edit/:id is a message). */
function realParam(url: string, name: string): string | number | undefined {
  if (name !== "id") return ids[name];
  const resource = url.split("/")[1]!;
  return idByResource[resource === "message" ? "messages" : resource];
}

function pathWith(url: string, value: (name: string) => string | number | undefined) {
  return url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(value(name))));
}
const realPath = (url: string) => pathWith(url, (name) => realParam(url, name));

function queryString(query: unknown): string {
  if (!query || typeof query !== "object") return "";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    for (const one of Array.isArray(v) ? v : [v])
      if (one !== undefined)
        parts.push(
          `${encodeURIComponent(k)}=${encodeURIComponent(typeof one === "object" ? JSON.stringify(one) : String(one))}`,
        );
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

const ID_FIELDS = ["ticketId", "contactId", "messageId", "queueId", "tagId", "whatsappId", "userId"];
/** A body with company A's real ids in its id fields. */
function withRealIds(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const f of ID_FIELDS) if (f in out || f === "ticketId") out[f] = ids[f];
  return out;
}

const bodySchema = (decl: RouteDeclaration) => decl.body ?? decl.bodyDoc;

/** A valid body for the route, with company A's ids (where the schema's refinements defeat the arbitrary, by hand). */
function validBody(r: ApiRoute): unknown {
  if (r.method === "POST" && r.url === "/schedules")
    return withRealIds({ body: "guarded", sendAt: "2099-01-01T10:00", contactId: 0 });
  // The integration's required fields depend on its type.
  if (/^\/queueIntegration(\/:id)?$/.test(r.url) && (r.method === "POST" || r.method === "PUT"))
    return { type: "typebot", name: "Guarded bot", urlN8N: "http://127.0.0.1:9", typebotSlug: "guard" };
  const body = bodySchema(r.decl);
  return body ? withRealIds(validSample(body) ?? {}) : undefined;
}

interface Call {
  method: ApiRoute["method"];
  url: string;
  who?: LoggedIn;
  /** A JSON value, or raw JSON text. */
  payload?: unknown;
  raw?: string;
}

async function send(call: Call, fuzz = false) {
  requests++;
  const hasBody = call.raw !== undefined || call.payload !== undefined;
  const res = await ctx.app.inject({
    method: call.method,
    url: call.url,
    headers: {
      ...(call.who?.auth ?? {}),
      ...(hasBody ? { "content-type": "application/json" } : {}),
      ...(fuzz ? { [FUZZ_HEADER]: "1" } : {}),
    },
    ...(hasBody ? { payload: call.raw ?? JSON.stringify(call.payload) } : {}),
  });
  answered[res.statusCode] = (answered[res.statusCode] ?? 0) + 1;
  return res;
}

/** The calls that were not refused with 403 ERR_NO_PERMISSION, each with what it got instead. */
async function notForbidden(calls: Call[]): Promise<string[]> {
  const failures: string[] = [];
  for (const call of calls) {
    const res = await send(call);
    if (res.statusCode !== 403 || res.json<{ error: string }>().error !== "ERR_NO_PERMISSION")
      failures.push(`${describeCall(call)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  return failures;
}

/** A 4xx with an ERR_* code, or a success; never a 5xx. */
function problemOf(res: { statusCode: number; body: string }): string | null {
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return null;
  let code: unknown;
  try {
    code = (JSON.parse(res.body) as { error?: unknown }).error;
  } catch {
    code = undefined;
  }
  return typeof code === "string" && /^ERR_[A-Z0-9_]+$/.test(code)
    ? null
    : `answered ${res.statusCode} without an ERR_* code: ${res.body.slice(0, 300)}`;
}

const describeCall = (c: Call) =>
  `${c.method} ${c.url.slice(0, 200)} ${(c.raw ?? JSON.stringify(c.payload) ?? "").slice(0, 200)}`;

/** Every table row of company A, as one comparable fingerprint per table. */
async function snapshotOfA(): Promise<Record<string, string>> {
  const tables = await queryRows<{ table_name: string }>(
    ctx.deps.db,
    sql`select distinct table_name from information_schema.columns
        where column_name = 'company_id' and table_schema = current_schema() order by table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number; digest: string | null }>(
      ctx.deps.db,
      sql`select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as digest
          from ${sql.identifier(table_name)} t where company_id = ${companyId}`,
    );
    out[table_name] = `${row?.n}:${row?.digest}`;
  }
  const [company] = await queryRows<{ t: string }>(
    ctx.deps.db,
    sql`select c::text as t from companies c where id = ${companyId}`,
  );
  out.companies = company?.t ?? "";
  return out;
}

const agentLacks = (access: RouteDeclaration["access"]) =>
  access === "super" ||
  (access in PERMISSIONS && !(PERMISSIONS[access as Permission] as readonly string[]).includes("user"));

describe("every registered route", () => {
  it("has a declaration, and the suite can fill its path parameters", () => {
    const undeclared = ctx.built.routes.filter((r) => !r.route).map(key);
    expect(undeclared, "routes registered without a declaration (http/route.ts)").toEqual([]);
    const unfilled = api.flatMap((r) =>
      paramNames(r.url)
        .filter((name) => realParam(r.url, name) === undefined)
        .map((name) => `${key(r)} :${name}`),
    );
    expect(unfilled, "path parameters this suite has no real id for: add them to `ids`").toEqual([]);
    expect(api.length).toBeGreaterThan(100);
  });

  it("answers 401 without a token, unless public", async () => {
    const failures: string[] = [];
    for (const r of api) {
      const call: Call = { method: r.method, url: realPath(r.url) };
      const res = await send(call);
      if (r.decl.access === "public") {
        const problem = problemOf(res);
        if (problem) failures.push(`${describeCall(call)}: ${problem}`);
      } else if (res.statusCode !== 401 || res.json<{ error: string }>().error !== "ERR_NO_SESSION") {
        failures.push(`${describeCall(call)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("as another company's admin with this company's real ids: 404, and nothing of this company changed", async () => {
    const before = await snapshotOfA();
    const failures: string[] = [];
    for (const r of api) {
      if (r.decl.access === "public" || r.decl.access === "super") continue;
      const query = r.decl.query ? validSample(r.decl.query) : undefined;
      const call: Call = {
        method: r.method,
        url: realPath(r.url) + queryString(withRealIds(query)),
        who: stranger,
        payload: validBody(r),
      };
      const res = await send(call);
      const problem = problemOf(res);
      if (problem) failures.push(`${describeCall(call)}: ${problem}`);
      // A route naming a resource in its path: that resource does not exist for another company.
      else if (paramNames(r.url).some((n) => n !== "key") && res.statusCode !== 404)
        failures.push(`${describeCall(call)}: expected 404, got ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(await snapshotOfA()).toEqual(before);
  });

  it("as an agent on routes that need a permission the agent lacks: 403, and nothing changed", async () => {
    const before = await snapshotOfA();
    const calls: Call[] = api
      .filter((r) => agentLacks(r.decl.access))
      .map((r) => ({
        method: r.method,
        url: realPath(r.url) + queryString(r.decl.query ? validSample(r.decl.query) : undefined),
        who: agent,
        payload: validBody(r),
      }));
    expect(await notForbidden(calls)).toEqual([]);
    expect(calls.length).toBeGreaterThan(20);
    expect(await snapshotOfA()).toEqual(before);
  });

  // The other-company check above skips the super user's routes: they name no company's rows (help
  // videos are the platform's) or any company's. A company's own admin may not call them either.
  it("as a company admin on the super user's routes: 403, and nothing changed", async () => {
    const before = await snapshotOfA();
    const superRoutes = api.filter((r) => r.decl.access === "super");
    const calls: Call[] = superRoutes.map((r) => ({
      method: r.method,
      url: realPath(r.url) + queryString(r.decl.query ? validSample(r.decl.query) : undefined),
      who: admin,
      payload: validBody(r),
    }));
    expect(await notForbidden(calls)).toEqual([]);
    expect(superRoutes.length).toBeGreaterThan(3);
    expect(await snapshotOfA()).toEqual(before);
  });

  // The super user sits in company A beside its admin, as the platform's operator sits in the
  // platform's company: no admin of it changes, demotes, deletes or resets the super user's account.
  it("as an admin who is not super, on every route that changes a user, against the super user: 403, and its account unchanged", async () => {
    const superRow = async () =>
      (await ctx.deps.db.select().from(users).where(eq(users.id, superUser.user.id)))[0];
    const before = await superRow();
    const namesUser = (url: string, name: string) =>
      name === "userId" || (name === "id" && url.split("/")[1] === "users");
    const userRoutes = api.filter(
      (r) => r.method !== "GET" && paramNames(r.url).some((name) => namesUser(r.url, name)),
    );
    const calls: Call[] = userRoutes.map((r) => ({
      method: r.method,
      url: pathWith(r.url, (name) => (namesUser(r.url, name) ? superUser.user.id : realParam(r.url, name))),
      who: admin,
      payload: validBody(r),
    }));
    expect(await notForbidden(calls)).toEqual([]);
    expect(userRoutes.map(key)).toEqual(expect.arrayContaining(["PUT /users/:id", "DELETE /users/:id"]));
    expect(await superRow()).toEqual(before);
    const me = await send({ method: "GET", url: "/auth/me", who: superUser });
    expect(me.statusCode).toBe(200);
  });

  it("on a plan without the route's declared flag: ERR_PLAN_FEATURE_DISABLED", async () => {
    const failures: string[] = [];
    const gated = api.filter((r) => r.decl.plan);
    for (const r of gated) {
      const query = r.decl.query ? validSample(r.decl.query) : undefined;
      const call: Call = {
        method: r.method,
        url: realPath(r.url) + queryString(query),
        who: unplanned,
        payload: validBody(r),
      };
      const res = await send(call);
      if (res.statusCode !== 403 || res.json<{ error?: string }>().error !== "ERR_PLAN_FEATURE_DISABLED")
        failures.push(`${describeCall(call)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(gated.length).toBeGreaterThan(5);
  });

  it("each flag, declared on a route, is what refuses it: a plan lacking only that flag hears ERR_PLAN_FEATURE_DISABLED on its routes and on no other's", async () => {
    const failures: string[] = [];
    const gated = api.filter((r) => r.decl.plan);
    const declaredFlags = new Set(gated.map((r) => r.decl.plan));
    for (const flag of PLAN_FLAGS) {
      if (!declaredFlags.has(flag)) continue;
      for (const r of gated) {
        const query = r.decl.query ? validSample(r.decl.query) : undefined;
        const call: Call = {
          method: r.method,
          url: realPath(r.url) + queryString(query),
          who: lacking[flag],
          payload: validBody(r),
        };
        const res = await send(call);
        const refused =
          res.statusCode === 403 && res.json<{ error?: string }>().error === "ERR_PLAN_FEATURE_DISABLED";
        if (refused !== (r.decl.plan === flag))
          failures.push(
            `lacking ${flag}: ${describeCall(call)}: ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
      }
    }
    expect(failures).toEqual([]);
    // Today's gated features; a later route adds its flag by declaring it.
    expect([...declaredFlags].sort()).toEqual(expect.arrayContaining(["useKanban", "useSchedules"]));
  });

  it("with property-based and hostile inputs: a success or a 4xx with an ERR_* code, never a 5xx", async () => {
    const HOSTILE_IDS = ["-1", "0", "1e309", "abc", "..%2F..", "%00", "99999999999999999999", "1.5"];
    const HOSTILE_VALUES = ["-1", "1e309", "abc", "../../etc/passwd", "x".repeat(5_000)];
    const HUGE = "x".repeat(100_000);
    // Deletions last (they take the ids the rest reach deeper with), the super user's changes
    // (which may lock the company out) at the very end.
    const rank = (r: ApiRoute) => (r.decl.access === "super" ? 2 : r.method === "DELETE" ? 1 : 0);
    const ordered = [...api].sort((a, b) => rank(a) - rank(b));
    const failures: string[] = [];
    const undeclared = new Set<string>();

    for (const r of ordered) {
      const who = r.decl.access === "public" ? undefined : r.decl.access === "super" ? superUser : admin;
      const names = paramNames(r.url);
      const body = bodySchema(r.decl);
      const calls: Call[] = [];

      // Property-based: the route's schemas' own values (with real ids half the time), or any JSON.
      const input = fc.record({
        params: fc.record(
          Object.fromEntries(
            names.map((n) => [
              n,
              fc.oneof(
                fc.constant(String(realParam(r.url, n))),
                fc.constantFrom(...HOSTILE_IDS),
                fc.nat().map(String),
              ),
            ]),
          ),
        ),
        query: r.decl.query
          ? fc.oneof(arbitraryOf(r.decl.query), fc.dictionary(fc.string(), fc.string()))
          : fc.constant(undefined),
        body: body
          ? fc.oneof(
              { weight: 3, arbitrary: arbitraryOf(body as ZodType).map((b) => b) },
              { weight: 2, arbitrary: arbitraryOf(body as ZodType).map(withRealIds) },
              { weight: 1, arbitrary: fc.jsonValue() },
            )
          : fc.constant(undefined),
      });
      for (const v of fc.sample(input, { numRuns: 6, seed: seed + api.indexOf(r) }))
        calls.push({
          method: r.method,
          url: pathWith(r.url, (n) => v.params[n]) + queryString(v.query),
          who,
          payload: v.body,
        });

      // Hostile: each path parameter, each query field, each body field, and bodies of the wrong type.
      for (const n of names)
        for (const bad of HOSTILE_IDS)
          calls.push({
            method: r.method,
            url: pathWith(r.url, (m) => (m === n ? decodeURIComponent(bad) : realParam(r.url, m))),
            who,
          });
      const queryShape = r.decl.query && (r.decl.query as unknown as { shape?: object }).shape;
      for (const field of Object.keys(queryShape ?? {}))
        for (const bad of HOSTILE_VALUES)
          calls.push({
            method: r.method,
            url: `${realPath(r.url)}?${field}=${encodeURIComponent(bad)}`,
            who,
          });
      if (body || r.method === "POST" || r.method === "PUT") {
        for (const raw of ["[]", '"text"', "123", "null", "{", '{"__proto__":{"admin":true}}'])
          calls.push({ method: r.method, url: realPath(r.url), who, raw });
        const shape = (body as unknown as { shape?: object } | undefined)?.shape;
        for (const field of Object.keys(shape ?? {}))
          for (const raw of [
            `{"${field}":1e309}`,
            `{"${field}":-1}`,
            `{"${field}":"${HUGE}"}`,
            `{"${field}":{"$gt":""}}`,
            `{"${field}":["../"]}`,
          ])
            calls.push({ method: r.method, url: realPath(r.url), who, raw });
      }

      for (const call of calls) {
        const res = await send(call, true);
        const problem = problemOf(res);
        if (problem) failures.push(`${describeCall(call)}: ${problem}`);
        const code = res.headers[UNDECLARED_HEADER];
        if (typeof code === "string") undeclared.add(`${r.method} ${r.url} ${code}`);
      }
    }
    expect(failures, `GUARD_SEED=${seed}`).toEqual([]);
    // Codes the random inputs reached that their routes do not declare (errors): for the notes.
    if (undeclared.size)
      console.info(`GUARD_SEED=${seed}: codes no declaration lists:\n${[...undeclared].sort().join("\n")}`);
  }, 300_000);

  afterAll(() => {
    // For the notes: how much the suite did.
    console.info(
      `guard suite: ${api.length} routes, ${requests} requests, answers ${JSON.stringify(answered)}`,
    );
  });
});
