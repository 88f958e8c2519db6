import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_FLAGS, type PlanFlag, type QueueDetailDTO, type TagDTO } from "@atende/contracts";
import { plans, queues, tags, tickets, users, whatsapps } from "../../db/schema/index.js";
import { type Caller, caller, expectError, expectOk } from "../../test/calls.js";
import {
  buildCompany,
  buildConnection,
  buildIntegration,
  buildMember,
  buildPlan,
  buildPrompt,
  buildQueue,
  buildTicket,
  buildUser,
  uid,
} from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * Plan gates and limits as a company's users meet them: body fields gated by a flag (a tag's kanban
 * switch, a prompt or an integration named by a queue, a connection or a ticket), the plan's limits
 * of users, connections and queues (two creations at once at the limit's edge: exactly one
 * passes), and a downgrade, which keeps every row and refuses only what goes past the new plan.
 * (Every route declaring a flag is refused without it by the generated guard suite.)
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
});
afterAll(() => ctx.close());

const call = caller(() => ctx);
const allFlags = (on: boolean) =>
  Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, on])) as Record<PlanFlag, boolean>;

/** A prompt and an integration of the company, for the links. */
async function botsOf(companyId: number) {
  const queue = await buildQueue(ctx.deps.db, companyId);
  const prompt = await buildPrompt(ctx.deps.db, companyId, queue.id);
  const integration = await buildIntegration(ctx.deps.db, companyId);
  return { promptId: prompt.id, integrationId: integration.id };
}

/** A company on a plan of its own (every flag on, unless `plan` says), and its admin, logged in. */
async function companyOn(plan: Parameters<typeof buildPlan>[1] = {}) {
  const row = await buildPlan(ctx.deps.db, { ...allFlags(true), ...plan });
  const company = await buildCompany(ctx.deps.db, { planId: row.id });
  const admin = await buildMember(ctx, company.id, { profile: "admin" });
  return { plan: row, company, admin: admin.login };
}

async function changePlan(planId: number, values: Parameters<typeof buildPlan>[1]) {
  await ctx.deps.db.update(plans).set(values!).where(eq(plans.id, planId));
}

const refused = (res: { statusCode: number; body: string }) =>
  expectError(res, 403, "ERR_PLAN_FEATURE_DISABLED");

async function rowsOf(table: typeof users | typeof whatsapps | typeof queues, companyId: number) {
  const [row] = await ctx.deps.db.select({ n: count() }).from(table).where(eq(table.companyId, companyId));
  return row!.n;
}

describe("the kanban switch of a tag needs useKanban", () => {
  it("a plan without kanban: no lanes read or made; plain tags still work", async () => {
    const { company, admin } = await companyOn({ useKanban: false });
    refused(await call("GET", "/tags/kanban", admin));
    refused(await call("POST", "/tags", admin, { name: `Lane ${uid()}`, kanban: 1 }));
    refused(await call("POST", "/tags", admin, { name: `Lane ${uid()}`, kanban: true }));
    const plain = expectOk<TagDTO>(await call("POST", "/tags", admin, { name: `Plain ${uid()}` }), 201);
    expect(plain.kanban).toBe(0);
    refused(await call("PUT", `/tags/${plain.id}`, admin, { kanban: 1 }));
    const [row] = await ctx.deps.db
      .select({ n: count() })
      .from(tags)
      .where(and(eq(tags.companyId, company.id), eq(tags.kanban, 1)));
    expect(row!.n).toBe(0);
  });

  it("after a downgrade the lanes stay and can be renamed or switched off, not switched on again", async () => {
    const { plan, admin } = await companyOn();
    const lane = expectOk<TagDTO>(
      await call("POST", "/tags", admin, { name: `Lane ${uid()}`, kanban: 1 }),
      201,
    );
    await changePlan(plan.id, { useKanban: false });
    const renamed = expectOk<TagDTO>(
      await call("PUT", `/tags/${lane.id}`, admin, { name: `${lane.name} 2`, kanban: 1 }),
    );
    expect(renamed).toMatchObject({ name: `${lane.name} 2`, kanban: 1 });
    expect(expectOk<TagDTO>(await call("PUT", `/tags/${lane.id}`, admin, { kanban: 0 })).kanban).toBe(0);
    refused(await call("PUT", `/tags/${lane.id}`, admin, { kanban: 1 }));
    // Back on a plan with kanban, it may be a lane again.
    await changePlan(plan.id, { useKanban: true });
    expect(expectOk<TagDTO>(await call("PUT", `/tags/${lane.id}`, admin, { kanban: 1 })).kanban).toBe(1);
    expect(expectOk<{ lista: TagDTO[] }>(await call("GET", "/tags/kanban", admin)).lista).toHaveLength(1);
  });
});

describe("a prompt needs useOpenAi, an integration useIntegrations", () => {
  const queueBody = (extra: object = {}) => ({ name: `Fila ${uid()}`, color: randomColor(), ...extra });

  it("a queue: refused without the flag, saved with it", async () => {
    const bare = await companyOn({ useOpenAi: false, useIntegrations: false });
    refused(await call("POST", "/queue", bare.admin, queueBody({ promptId: 5 })));
    refused(await call("POST", "/queue", bare.admin, queueBody({ integrationId: 5 })));
    expect(await rowsOf(queues, bare.company.id)).toBe(0);
    const plain = expectOk<QueueDetailDTO>(await call("POST", "/queue", bare.admin, queueBody()), 201);
    refused(await call("PUT", `/queue/${plain.id}`, bare.admin, queueBody({ promptId: 5 })));
    refused(await call("PUT", `/queue/${plain.id}`, bare.admin, queueBody({ integrationId: 5 })));
    expect(
      expectOk<QueueDetailDTO>(
        await call("PUT", `/queue/${plain.id}`, bare.admin, queueBody({ promptId: null })),
      ),
    ).toMatchObject({ promptId: null, integrationId: null });

    const full = await companyOn();
    const links = await botsOf(full.company.id);
    const linked = expectOk<QueueDetailDTO>(await call("POST", "/queue", full.admin, queueBody(links)), 201);
    expect(linked).toMatchObject(links);
  });

  it("a queue after a downgrade keeps its links, saves them as they are, refuses new ones, and may drop them", async () => {
    const { plan, company, admin } = await companyOn();
    const links = await botsOf(company.id);
    const body = queueBody(links);
    const queue = expectOk<QueueDetailDTO>(await call("POST", "/queue", admin, body), 201);
    await changePlan(plan.id, { useOpenAi: false, useIntegrations: false });
    expect(expectOk<QueueDetailDTO>(await call("GET", `/queue/${queue.id}`, admin))).toMatchObject(links);
    expectOk(await call("PUT", `/queue/${queue.id}`, admin, { ...body, greetingMessage: "Olá" }));
    refused(await call("PUT", `/queue/${queue.id}`, admin, { ...body, promptId: 7 }));
    refused(await call("PUT", `/queue/${queue.id}`, admin, { ...body, integrationId: 7 }));
    expect(
      expectOk<QueueDetailDTO>(
        await call("PUT", `/queue/${queue.id}`, admin, { ...body, promptId: null, integrationId: null }),
      ),
    ).toMatchObject({ promptId: null, integrationId: null });
  });

  it("a connection: refused without the flag on create and edit; kept through a downgrade", async () => {
    const bare = await companyOn({ useOpenAi: false, useIntegrations: false });
    const name = () => `Conexão ${uid()}`;
    refused(
      await call("POST", "/whatsapp", bare.admin, { name: name(), provider: "simulator", promptId: 3 }),
    );
    refused(
      await call("POST", "/whatsapp", bare.admin, { name: name(), provider: "simulator", integrationId: 3 }),
    );
    expect(await rowsOf(whatsapps, bare.company.id)).toBe(0);

    const { plan, company, admin } = await companyOn();
    const links = await botsOf(company.id);
    const body = { name: name(), provider: "simulator", isDefault: true, ...links };
    const made = expectOk<{ id: number; promptId: number; integrationId: number }>(
      await call("POST", "/whatsapp", admin, body),
      201,
    );
    expect(made).toMatchObject(links);
    await changePlan(plan.id, { useOpenAi: false, useIntegrations: false });
    expectOk(await call("PUT", `/whatsapp/${made.id}`, admin, { ...body, greetingMessage: "Oi" }));
    refused(await call("PUT", `/whatsapp/${made.id}`, admin, { ...body, promptId: 9 }));
    refused(await call("PUT", `/whatsapp/${made.id}`, admin, { ...body, integrationId: 9 }));
    expectOk(
      await call("PUT", `/whatsapp/${made.id}`, admin, { ...body, promptId: null, integrationId: null }),
    );
    const [row] = await ctx.deps.db.select().from(whatsapps).where(eq(whatsapps.companyId, company.id));
    expect(row).toMatchObject({ promptId: null, integrationId: null });
  });

  it("a ticket: pointing it at a prompt or an integration, or switching useIntegration on, needs the flag", async () => {
    const bare = await companyOn({ useOpenAi: false, useIntegrations: false });
    const ticket = await buildTicket(ctx.deps.db, bare.company.id);
    refused(await call("PUT", `/tickets/${ticket.id}`, bare.admin, { promptId: 2 }));
    refused(await call("PUT", `/tickets/${ticket.id}`, bare.admin, { integrationId: 2 }));
    refused(await call("PUT", `/tickets/${ticket.id}`, bare.admin, { useIntegration: true }));
    refused(await call("PUT", `/tickets/${ticket.id}`, bare.admin, { status: "open", promptId: 2 }));
    const [row] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row).toMatchObject({
      status: "pending",
      promptId: null,
      integrationId: null,
      useIntegration: false,
    });
    // Clearing them ("none" arrives as false) is always allowed.
    expectOk(
      await call("PUT", `/tickets/${ticket.id}`, bare.admin, { promptId: false, integrationId: null }),
    );

    const full = await companyOn();
    const other = await buildTicket(ctx.deps.db, full.company.id);
    expectOk(
      await call("PUT", `/tickets/${other.id}`, full.admin, {
        promptId: 2,
        integrationId: 3,
        useIntegration: true,
      }),
    );
    const [saved] = await ctx.deps.db.select().from(tickets).where(eq(tickets.id, other.id));
    expect(saved).toMatchObject({ promptId: 2, integrationId: 3, useIntegration: true });
  });
});

function randomColor() {
  return `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
}

interface Limited {
  /** The plan's field. */
  limit: "users" | "connections" | "queues";
  code: string;
  table: typeof users | typeof whatsapps | typeof queues;
  /** One more of them, created through the API. */
  create: (who: Caller) => ReturnType<ReturnType<typeof caller>>;
  /** One more of them, straight in the database. */
  seed: (companyId: number) => Promise<unknown>;
}

const LIMITED: Limited[] = [
  {
    limit: "users",
    code: "ERR_PLAN_USER_LIMIT",
    table: users,
    create: (who) =>
      call("POST", "/users", who, {
        name: "Nova Pessoa",
        email: `${uid()}@test.local`,
        password: "Passw0rd",
      }),
    seed: (companyId) => buildUser(ctx.deps.db, companyId),
  },
  {
    limit: "connections",
    code: "ERR_PLAN_CONNECTION_LIMIT",
    table: whatsapps,
    create: (who) => call("POST", "/whatsapp", who, { name: `Conexão ${uid()}`, provider: "simulator" }),
    seed: (companyId) => buildConnection(ctx.deps.db, companyId),
  },
  {
    limit: "queues",
    code: "ERR_PLAN_QUEUE_LIMIT",
    table: queues,
    create: (who) => call("POST", "/queue", who, { name: `Fila ${uid()}`, color: randomColor() }),
    seed: (companyId) => buildQueue(ctx.deps.db, companyId),
  },
];

describe.each(LIMITED)("the plan's $limit limit", ({ limit, code, table, create, seed }) => {
  /** A company on a plan allowing `max`, holding `have` (its admin counts as a user). */
  async function companyHolding(max: number, have: number) {
    const made = await companyOn({ [limit]: max });
    while ((await rowsOf(table, made.company.id)) < have) await seed(made.company.id);
    return made;
  }

  it(`creating past it answers 403 ${code} and creates nothing`, async () => {
    const { company, admin } = await companyHolding(3, 3);
    expectError(await create(admin), 403, code);
    expect(await rowsOf(table, company.id)).toBe(3);
  });

  it("two creations at once one short of it: exactly one passes", async () => {
    for (let round = 0; round < 3; round++) {
      const { company, admin } = await companyHolding(4, 3);
      const answers = await Promise.all([create(admin), create(admin)]);
      expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join(" | ")).toEqual([
        201, 403,
      ]);
      expectError(
        answers.find((r) => r.statusCode === 403)!,
        403,
        code,
      );
      expect(await rowsOf(table, company.id)).toBe(4);
    }
  });

  it("a downgrade keeps what exists and refuses more until the company is under the new limit", async () => {
    const { plan, company, admin } = await companyHolding(5, 4);
    await changePlan(plan.id, { [limit]: 2 });
    expect(await rowsOf(table, company.id)).toBe(4);
    expectError(await create(admin), 403, code);
    expect(await rowsOf(table, company.id)).toBe(4);
    // 0 is no limit.
    await changePlan(plan.id, { [limit]: 0 });
    expectOk(await create(admin), 201);
    expect(await rowsOf(table, company.id)).toBe(5);
  });
});

describe("a downgrade keeps the company working", () => {
  it("its users, connections and queues are still listed and its admin still works", async () => {
    const { plan, company, admin } = await companyOn({ users: 5, connections: 5, queues: 5 });
    for (let i = 0; i < 3; i++) {
      await buildUser(ctx.deps.db, company.id);
      await buildConnection(ctx.deps.db, company.id);
      await buildQueue(ctx.deps.db, company.id);
    }
    await changePlan(plan.id, { users: 1, connections: 1, queues: 1, ...allFlags(false) });
    expect(expectOk<unknown[]>(await call("GET", "/users/list", admin))).toHaveLength(4);
    expect(expectOk<unknown[]>(await call("GET", "/whatsapp", admin))).toHaveLength(3);
    const listed = expectOk<QueueDetailDTO[]>(await call("GET", "/queue", admin));
    expect(listed).toHaveLength(3);
    expectOk(
      await call("PUT", `/queue/${listed[0]!.id}`, admin, { name: "Renomeada", color: listed[0]!.color }),
    );
  });
});
