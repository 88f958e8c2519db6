import crypto from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { DEFAULT_COMPANY_SETTINGS, DEFAULT_PLATFORM_SETTINGS } from "@atende/contracts";
import type { Executor } from "../db/client.js";
import { companies, plans, queues, userQueues, users, whatsappQueues } from "../db/schema/index.js";
import type { Deps } from "../deps.js";
import { hashPassword } from "../lib/passwords.js";
import { insertSettings } from "../modules/settings/queries.js";
import { insertPairedSimulator } from "../modules/simulator/queries.js";

export const PLATFORM_COMPANY = "Atende Plataforma";
export const DEMO_COMPANY = "Empresa Demo";
export const DEMO_SIMULATOR = "Simulador";

export const DEMO_LOGINS = [
  { role: "super user", email: "super@atende.demo", password: "Super123" },
  { role: "admin", email: "admin@atende.demo", password: "Admin123" },
  { role: "agent Vendas", email: "ana@atende.demo", password: "Agente123" },
  { role: "agent Suporte", email: "bruno@atende.demo", password: "Agente123" },
] as const;

export interface SeedResult {
  logins: { role: string; email: string; password: string }[];
  generatedPassword?: { email: string; password: string };
  /** No demo and no ADMIN_EMAIL on an empty database: nobody was created, and the start says how. */
  needsSuperUser?: boolean;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

async function createUser(
  db: Executor,
  v: {
    companyId: number;
    name: string;
    email: string;
    password: string;
    profile: "admin" | "user";
    super?: boolean;
  },
) {
  const [row] = await db
    .insert(users)
    .values({
      companyId: v.companyId,
      name: v.name,
      email: v.email,
      passwordHash: await hashPassword(v.password),
      profile: v.profile,
      super: v.super ?? false,
    })
    .returning();
  return row!;
}

/** Demo data for a first start outside production: a plan, the platform, Empresa Demo and its team. */
export async function seedDemo(db: Executor, now: Date): Promise<void> {
  const [plan] = await db
    .insert(plans)
    .values({
      name: "Plano 1",
      users: 50,
      connections: 10,
      queues: 20,
      campaigns: 100,
      schedules: 1000,
      value: 199.9,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useInternal: true,
    })
    .returning();
  const [platform] = await db
    .insert(companies)
    .values({ name: PLATFORM_COMPANY, planId: plan!.id, dueDate: "2099-12-31", email: "super@atende.demo" })
    .returning();
  await insertSettings(db, platform!.id, { ...DEFAULT_COMPANY_SETTINGS, ...DEFAULT_PLATFORM_SETTINGS });
  await createUser(db, {
    companyId: platform!.id,
    name: "Super",
    email: "super@atende.demo",
    password: "Super123",
    profile: "admin",
    super: true,
  });

  const due = new Date(now);
  due.setUTCFullYear(due.getUTCFullYear() + 1);
  const [demo] = await db
    .insert(companies)
    .values({ name: DEMO_COMPANY, planId: plan!.id, dueDate: isoDate(due), email: "admin@atende.demo" })
    .returning();
  const companyId = demo!.id;
  await insertSettings(db, companyId, DEFAULT_COMPANY_SETTINGS);
  const [vendas, suporte] = await db
    .insert(queues)
    .values([
      { companyId, name: "Vendas", color: "#2e7d32" },
      { companyId, name: "Suporte", color: "#1565c0" },
    ])
    .returning();
  await createUser(db, {
    companyId,
    name: "Admin Demo",
    email: "admin@atende.demo",
    password: "Admin123",
    profile: "admin",
  });
  const ana = await createUser(db, {
    companyId,
    name: "Ana",
    email: "ana@atende.demo",
    password: "Agente123",
    profile: "user",
  });
  const bruno = await createUser(db, {
    companyId,
    name: "Bruno",
    email: "bruno@atende.demo",
    password: "Agente123",
    profile: "user",
  });
  await db.insert(userQueues).values([
    { userId: ana.id, queueId: vendas!.id, companyId },
    { userId: bruno.id, queueId: suporte!.id, companyId },
  ]);
  // A connection anyone can use without a phone: already paired, so it is CONNECTED at first start.
  const simulator = await insertPairedSimulator(db, companyId, {
    name: DEMO_SIMULATOR,
    greetingMessage: "Olá! Bem-vindo à Empresa Demo.",
  });
  await db.insert(whatsappQueues).values([
    { whatsappId: simulator.id, queueId: vendas!.id, companyId },
    { whatsappId: simulator.id, queueId: suporte!.id, companyId },
  ]);
}

/**
 * Production first start: the platform company and its super user from ADMIN_EMAIL/ADMIN_PASSWORD,
 * or with a generated password that is printed once.
 */
export async function seedProduction(db: Executor, email: string, password?: string) {
  const [platform] = await db.insert(companies).values({ name: PLATFORM_COMPANY, email }).returning();
  await insertSettings(db, platform!.id, { ...DEFAULT_COMPANY_SETTINGS, ...DEFAULT_PLATFORM_SETTINGS });
  const chosen = password ?? crypto.randomBytes(12).toString("base64url");
  await createUser(db, {
    companyId: platform!.id,
    name: "Super",
    email: email.toLowerCase(),
    password: chosen,
    profile: "admin",
    super: true,
  });
  return password ? undefined : { email, password: chosen };
}

/** Seed data's advisory lock: several instances starting at once on an empty database seed it once. */
const SEED_LOCK = 727275;

/**
 * Runs `work` when the database has no company yet, under a transaction-wide advisory lock: an
 * instance starting beside another waits for its seed, then finds the database seeded.
 */
async function whenEmpty<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(companies);
    return (existing?.n ?? 0) === 0 ? work(tx) : null;
  });
}

/** Seeds an empty database once; a database that has companies is left as it is. */
export async function seed(
  deps: Pick<Deps, "db" | "config" | "now">,
  log: FastifyBaseLogger,
): Promise<SeedResult> {
  const { db, config } = deps;
  if (config.demo) {
    const created = await whenEmpty(db, async (tx) => {
      await seedDemo(tx, deps.now());
      return true;
    });
    if (created) log.info("demo data created");
    const [demoCompany] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.name, DEMO_COMPANY));
    return { logins: demoCompany ? DEMO_LOGINS.map((l) => ({ ...l })) : [] };
  }
  const email = config.ADMIN_EMAIL;
  if (!email) {
    const [existing] = await db.select({ n: count() }).from(companies);
    return { logins: [], needsSuperUser: (existing?.n ?? 0) === 0 };
  }
  const generatedPassword = await whenEmpty(db, (tx) => seedProduction(tx, email, config.ADMIN_PASSWORD));
  if (generatedPassword === null) return { logins: [] };
  log.info({ email }, "super user created");
  return { logins: [], generatedPassword };
}
