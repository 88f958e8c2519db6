import crypto from "node:crypto";
import type { LoginAnswer } from "@atende/contracts";
import { DEFAULT_COMPANY_SETTINGS } from "@atende/contracts";
import type { Executor } from "../db/client.js";
import {
  companies,
  contacts,
  messages,
  plans,
  prompts,
  queueIntegrations,
  queues,
  settings,
  tickets,
  userQueues,
  users,
  whatsapps,
} from "../db/schema/index.js";
import { hashPassword } from "../lib/passwords.js";
import type { AnyTestContext as TestContext } from "./harness.js";

/** A short random hex string, for names that must not clash. */
export const uid = () => crypto.randomBytes(4).toString("hex");

let numberSeq = 0;
/**
 * A Brazilian mobile number no other call in this test file answers. A file with numbers of its own
 * (a fixture, a second prefix) passes `first`, the start of a range the file keeps for itself.
 */
export const newNumber = (first = 70_000_000) => `55119${String(first + ++numberSeq).padStart(8, "0")}`;

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
      useInternalChat: true,
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

export async function buildContact(
  db: Executor,
  companyId: number,
  v: Partial<Omit<typeof contacts.$inferInsert, "companyId">> = {},
) {
  const [row] = await db
    .insert(contacts)
    .values({ companyId, name: `Contato ${uid()}`, number: newNumber(), ...v })
    .returning();
  return row!;
}

/** A ticket straight in the database (pending, no queue), for a new contact unless `contactId` is given. */
export async function buildTicket(
  db: Executor,
  companyId: number,
  v: Partial<Omit<typeof tickets.$inferInsert, "companyId">> = {},
) {
  const contactId = v.contactId ?? (await buildContact(db, companyId)).id;
  const [row] = await db
    .insert(tickets)
    .values({ companyId, status: "pending", ...v, contactId })
    .returning();
  return row!;
}

/**
 * A connection row (a simulator one by default) with no live session: tests that need one connected
 * use `buildSimulatorCompany`/`connectSimulator` (test/channels.ts).
 */
export async function buildConnection(
  db: Executor,
  companyId: number,
  v: Partial<Omit<typeof whatsapps.$inferInsert, "companyId">> = {},
) {
  const provider = v.provider ?? "simulator";
  const [row] = await db
    .insert(whatsapps)
    .values({
      companyId,
      name: `${provider} ${uid()}`,
      provider,
      ...v,
    })
    .returning();
  return row!;
}

/** A message on a ticket, straight in the database (from the customer, unless `fromMe`). */
export async function buildMessage(
  db: Executor,
  companyId: number,
  v: Partial<Omit<typeof messages.$inferInsert, "companyId">> & { ticketId: number },
) {
  const [row] = await db
    .insert(messages)
    .values({ companyId, ...v })
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

export type Member = Awaited<ReturnType<typeof buildUser>> & { login: LoggedIn };

/** A user of the company, logged in. */
export async function buildMember(
  ctx: TestContext,
  companyId: number,
  values: Parameters<typeof buildUser>[2] = {},
): Promise<Member> {
  const row = await buildUser(ctx.deps.db, companyId, values);
  return { ...row, login: await login(ctx, row.email) };
}

/** The platform's operator: a super user (logged in) in a company of its own, as the seed makes one. */
export async function buildPlatformOperator(ctx: TestContext): Promise<Member & { companyId: number }> {
  const platform = await buildCompany(ctx.deps.db);
  return {
    ...(await buildMember(ctx, platform.id, { profile: "admin", super: true })),
    companyId: platform.id,
  };
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

/**
 * A bot integration (a Typebot by default). Its secrets are not sealed: a test that needs them
 * creates the integration over HTTP.
 */
export async function buildIntegration(
  db: Executor,
  companyId: number,
  v: Partial<typeof queueIntegrations.$inferInsert> = {},
) {
  const name = v.name ?? `Bot ${uid()}`;
  const [row] = await db
    .insert(queueIntegrations)
    .values({
      companyId,
      type: "typebot",
      name,
      projectName: name,
      urlN8N: "http://127.0.0.1:9",
      typebotSlug: "bot",
      ...v,
    })
    .returning();
  return row!;
}

/** An AI prompt answering for `queueId` (its key is not sealed: see buildIntegration). */
export async function buildPrompt(
  db: Executor,
  companyId: number,
  queueId: number | null,
  v: Partial<typeof prompts.$inferInsert> = {},
) {
  const [row] = await db
    .insert(prompts)
    .values({ companyId, queueId, name: `Prompt ${uid()}`, prompt: "Be brief.", apiKeyEnc: "unsealed", ...v })
    .returning();
  return row!;
}
