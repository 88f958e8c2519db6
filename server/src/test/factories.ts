import crypto from "node:crypto";
import type { LoginAnswer } from "@atende/contracts";
import { DEFAULT_COMPANY_SETTINGS } from "@atende/contracts";
import type { Executor } from "../db/client.js";
import { companies, plans, queues, settings, userQueues, users } from "../db/schema/index.js";
import { hashPassword } from "../lib/passwords.js";
import type { TestContext } from "./harness.js";

const uid = () => crypto.randomBytes(4).toString("hex");

/** Factories build rows straight in the database, with sensible defaults a test can override. */
export async function buildPlan(db: Executor, v: Partial<typeof plans.$inferInsert> = {}) {
  const [row] = await db
    .insert(plans)
    .values({
      name: `Plan ${uid()}`,
      users: 10,
      connections: 3,
      queues: 10,
      useKanban: true,
      useSchedules: true,
      ...v,
    })
    .returning();
  return row!;
}

export async function buildCompany(
  db: Executor,
  v: Partial<typeof companies.$inferInsert> & { planUsers?: number } = {},
) {
  const { planUsers, ...values } = v;
  const plan = values.planId
    ? null
    : await buildPlan(db, planUsers !== undefined ? { users: planUsers } : {});
  const [row] = await db
    .insert(companies)
    .values({ name: `Company ${uid()}`, dueDate: "2099-01-01", planId: plan?.id, ...values })
    .returning();
  await db
    .insert(settings)
    .values(
      Object.entries(DEFAULT_COMPANY_SETTINGS).map(([key, value]) => ({ companyId: row!.id, key, value })),
    );
  return row!;
}

export const TEST_PASSWORD = "Secret123";
let cachedHash: Promise<string> | null = null;

export async function buildUser(
  db: Executor,
  companyId: number,
  v: Partial<Omit<typeof users.$inferInsert, "companyId">> & { password?: string; queueIds?: number[] } = {},
) {
  const { password, queueIds, ...values } = v;
  cachedHash ??= hashPassword(TEST_PASSWORD);
  const [row] = await db
    .insert(users)
    .values({
      companyId,
      name: `User ${uid()}`,
      email: `user-${uid()}@test.local`,
      passwordHash: password ? await hashPassword(password) : await cachedHash,
      profile: "user",
      ...values,
    })
    .returning();
  if (queueIds?.length)
    await db.insert(userQueues).values(queueIds.map((queueId) => ({ userId: row!.id, queueId, companyId })));
  return row!;
}

export async function buildQueue(
  db: Executor,
  companyId: number,
  v: Partial<typeof queues.$inferInsert> = {},
) {
  const [row] = await db
    .insert(queues)
    .values({ companyId, name: `Queue ${uid()}`, color: `#${crypto.randomBytes(3).toString("hex")}`, ...v })
    .returning();
  return row!;
}

export interface LoggedIn extends LoginAnswer {
  cookie: string;
  auth: { authorization: string };
}

/** Logs in through the real route; answers the access token, the refresh cookie and a ready auth header. */
export async function login(
  ctx: TestContext,
  email: string,
  password = TEST_PASSWORD,
  ip = "10.0.0.1",
): Promise<LoggedIn> {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email, password },
    remoteAddress: ip,
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json<LoginAnswer>();
  const setCookie = res.cookies.find((c) => c.name === "jrt");
  return { ...body, cookie: `jrt=${setCookie?.value}`, auth: { authorization: `Bearer ${body.token}` } };
}

/** A company with an admin and a plain user, both logged in. */
export async function buildTeam(ctx: TestContext, opts: { planUsers?: number } = {}) {
  const db = ctx.deps.db;
  const company = await buildCompany(db, { planUsers: opts.planUsers });
  const queue = await buildQueue(db, company.id);
  const admin = await buildUser(db, company.id, { profile: "admin", name: "Admin" });
  const agent = await buildUser(db, company.id, { profile: "user", name: "Agent", queueIds: [queue.id] });
  return {
    company,
    queue,
    admin,
    agent,
    adminLogin: await login(ctx, admin.email),
    agentLogin: await login(ctx, agent.email),
  };
}
