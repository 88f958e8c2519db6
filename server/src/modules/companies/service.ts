import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import {
  type CompaniesPage,
  type CompanyCreateInput,
  type CompanyDTO,
  type CompanyPlanDTO,
  type CompanySchedulesDTO,
  type CompanySignupAnswer,
  type CompanySignupInput,
  type CompanyUpdateInput,
  DEFAULT_COMPANY_SETTINGS,
  DEFAULT_TIMEZONE,
  LIMITS,
  type ListQuery,
  PLAN_FLAGS,
  RECURRENCES,
  type Recurrence,
  type ScheduleEntry,
  TRIAL_DAYS,
  todayInZone,
} from "@atende/contracts";
import type { SessionManager } from "../../channels/sessions.js";
import type { Executor } from "../../db/client.js";
import type { companies } from "../../db/schema/index.js";
import type { Deps } from "../../deps.js";
import { type DomainEvent, inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize, requireSuper } from "../../http/auth.js";
import { AppError, uniqueOr } from "../../http/errors.js";
import { hashPassword } from "../../lib/passwords.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { presentStoredSettings } from "../settings/sealing.js";
import { insertSettings, platformSetting, saveSetting, storedSettings } from "../settings/queries.js";
import { insertPairedSimulator } from "../simulator/queries.js";
import { insertUser } from "../users/queries.js";
import { presentPlan } from "../plans/present.js";
import {
  type CompanyRow,
  type CompanyWithPlan,
  allCompanies,
  companyNameTaken,
  companyUserIds,
  companyWhatsappIds,
  companyWithPlan,
  deleteCompanyRows,
  findCompany,
  hasSuperUser,
  insertCompany,
  pageCompanies,
  planExists,
  settingsOfCompanies,
  updateCompany,
} from "./queries.js";

/** The name of the simulator connection every new company starts with. */
export const STARTER_SIMULATOR = "Simulador";

/** `campaignsEnabled` is kept as a company setting ("true"/"false"; "enabled" read as on too). */
const isOn = (value: string | undefined) => value === undefined || value === "true" || value === "enabled";

function presentCompany(
  { company, plan }: CompanyWithPlan,
  settings: { key: string; value: string }[],
  secrets: SecretBox,
): CompanyDTO {
  return {
    id: company.id,
    name: company.name,
    email: company.email,
    phone: company.phone,
    planId: company.planId,
    plan,
    status: company.status,
    campaignsEnabled: isOn(settings.find((s) => s.key === "campaignsEnabled")?.value),
    dueDate: company.dueDate,
    recurrence: (RECURRENCES as readonly string[]).includes(company.recurrence)
      ? (company.recurrence as Recurrence)
      : "MENSAL",
    trialExpiration: company.trialExpiration,
    schedules: company.schedules,
    settings: presentStoredSettings(secrets, settings),
    createdAt: company.createdAt.toISOString(),
  };
}

/** What the server enforces for a company with no plan: no limits, every feature off. */
const NO_PLAN: CompanyPlanDTO["plan"] = {
  id: null,
  name: null,
  users: 0,
  connections: 0,
  queues: 0,
  value: 0,
  ...(Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false])) as Record<
    (typeof PLAN_FLAGS)[number],
    false
  >),
};

/** A company's own users reach it; the super user reaches every company; anyone else hears 404. */
function reachable(actor: AuthContext, companyId: number): boolean {
  return actor.super || actor.companyId === companyId;
}

/** The calendar day `days` after `day` (YYYY-MM-DD). */
function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The platform's `trial` setting as days (1 to 7); anything else: 3, as the spec's default. */
function trialDays(value: string | undefined): number {
  return value && (TRIAL_DAYS as readonly string[]).includes(value) ? Number(value) : 3;
}

export type CompaniesDeps = Pick<Deps, "db" | "bus" | "now" | "media"> & {
  sessions: Pick<SessionManager, "disconnect" | "tick">;
  log: Pick<FastifyBaseLogger, "warn">;
  /** Opens the platform's secret settings, for their hints. */
  secrets: SecretBox;
};

export function createCompaniesService({ db, bus, now, media, sessions, log, secrets }: CompaniesDeps) {
  async function withPlanOf(actor: AuthContext, id: number) {
    const found = reachable(actor, id) ? await findCompany(db, id) : null;
    if (!found) throw new AppError("ERR_NO_COMPANY_FOUND");
    return found;
  }

  async function detail(db: Executor, id: number): Promise<CompanyDTO> {
    const row = await companyWithPlan(db, id);
    if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
    return presentCompany(row, await storedSettings(db, id), secrets);
  }

  async function requirePlan(planId: number) {
    if (!(await planExists(db, planId))) throw new AppError("ERR_COMPANY_PLAN_INVALID", { field: "planId" });
  }

  /**
   * A new company, usable at once, in the caller's transaction: its row, its default settings, a
   * paired simulator connection, and its first admin. The name and the admin's e-mail are unique
   * (the company's name among companies, the e-mail across the platform's users).
   */
  async function createUsable(
    tx: Executor,
    raise: (event: DomainEvent) => void,
    v: {
      company: Omit<typeof companies.$inferInsert, "id">;
      campaignsEnabled: boolean;
      admin: { name: string; email: string; passwordHash: string };
    },
  ): Promise<{ company: CompanyRow; adminId: number }> {
    const company = await uniqueOr("ERR_COMPANY_NAME_TAKEN", () => insertCompany(tx, v.company));
    await insertSettings(tx, company.id, {
      ...DEFAULT_COMPANY_SETTINGS,
      campaignsEnabled: String(v.campaignsEnabled),
    });
    await insertPairedSimulator(tx, company.id, { name: STARTER_SIMULATOR });
    const admin = await uniqueOr("ERR_EMAIL_ALREADY_EXISTS", () =>
      insertUser(tx, company.id, { ...v.admin, profile: "admin", allTicket: "enabled" }),
    );
    raise({ type: "company.saved", companyId: company.id });
    return { company, adminId: admin!.id };
  }

  async function refuseTakenName(name: string, exceptId?: number) {
    if (await companyNameTaken(db, name, exceptId)) throw new AppError("ERR_COMPANY_NAME_TAKEN");
  }

  return {
    /** GET /companies/{id}: the super user any company; its own users their company; else 404. */
    async get(actor: AuthContext, id: number): Promise<CompanyDTO> {
      if (!reachable(actor, id)) throw new AppError("ERR_NO_COMPANY_FOUND");
      return detail(db, id);
    },

    /** GET /companies: a page of the Empresas table (the super user). */
    async page(actor: AuthContext, query: ListQuery): Promise<CompaniesPage> {
      requireSuper(actor);
      const { rows, count } = await pageCompanies(db, { ...query, pageSize: LIMITS.pageSize });
      const settings = await settingsFor(rows);
      return {
        companies: rows.map((r) => presentCompany(r, settings.get(r.company.id) ?? [], secrets)),
        count,
        hasMore: query.pageNumber * LIMITS.pageSize < count,
      };
    },

    /** GET /companies/list: every company (the super user). */
    async list(actor: AuthContext): Promise<CompanyDTO[]> {
      requireSuper(actor);
      const rows = await allCompanies(db);
      const settings = await settingsFor(rows);
      return rows.map((r) => presentCompany(r, settings.get(r.company.id) ?? [], secrets));
    },

    /**
     * POST /companies (the super user): the company with its first admin, who has no password
     * anyone knows and is e-mailed a code to set one (`user.invited`).
     */
    async create(actor: AuthContext, input: CompanyCreateInput): Promise<CompanyDTO> {
      requireSuper(actor);
      await requirePlan(input.planId);
      await refuseTakenName(input.name);
      // Random bytes nobody ever sees: the admin sets a password through the invitation's code.
      const passwordHash = await hashPassword(crypto.randomBytes(32).toString("base64url"));
      const id = await inTransaction(db, bus, async (tx, raise) => {
        const { company, adminId } = await createUsable(tx, raise, {
          company: {
            name: input.name,
            email: input.email,
            phone: input.phone ?? null,
            planId: input.planId,
            status: input.status,
            dueDate: input.dueDate,
            recurrence: input.recurrence,
          },
          campaignsEnabled: input.campaignsEnabled,
          admin: {
            name: input.adminName ?? input.name.slice(0, LIMITS.userName.max),
            email: input.email,
            passwordHash,
          },
        });
        raise({ type: "user.invited", companyId: company.id, userId: adminId });
        return company.id;
      });
      await startSessions();
      return detail(db, id);
    },

    /** PUT /companies/{id} (the super user, the Empresas form): the fields sent change. */
    async update(actor: AuthContext, id: number, input: CompanyUpdateInput): Promise<CompanyDTO> {
      requireSuper(actor);
      if (!(await findCompany(db, id))) throw new AppError("ERR_NO_COMPANY_FOUND");
      if (input.planId !== undefined) await requirePlan(input.planId);
      if (input.name !== undefined) await refuseTakenName(input.name, id);
      return inTransaction(db, bus, async (tx, raise) => {
        const row = await uniqueOr("ERR_COMPANY_NAME_TAKEN", () =>
          updateCompany(tx, id, {
            name: input.name,
            email: input.email,
            phone: input.phone,
            planId: input.planId,
            status: input.status,
            dueDate: input.dueDate,
            recurrence: input.recurrence,
            updatedAt: now(),
          }),
        );
        if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
        if (input.campaignsEnabled !== undefined)
          await saveSetting(tx, id, "campaignsEnabled", String(input.campaignsEnabled), now());
        raise({ type: "company.saved", companyId: id });
        return detail(tx, id);
      });
    },

    /**
     * DELETE /companies/{id} (the super user; never the platform's own company): its connections'
     * live sessions stop, every row of it goes in one transaction, its users' sessions are revoked
     * and their sockets cut, then its media files are removed.
     */
    async remove(actor: AuthContext, id: number): Promise<void> {
      requireSuper(actor);
      if (!(await findCompany(db, id))) throw new AppError("ERR_NO_COMPANY_FOUND");
      if (id === actor.companyId || (await hasSuperUser(db, id)))
        throw new AppError("ERR_CANNOT_DELETE_OWN_COMPANY");
      // As a connection's deletion does: its live session stops (logged out) before its rows go.
      for (const whatsappId of await companyWhatsappIds(db, id))
        await sessions
          .disconnect(id, whatsappId)
          .catch((err: unknown) =>
            log.warn({ err, whatsappId }, "stopping a deleted company's session failed"),
          );
      const deleted = await inTransaction(db, bus, async (tx, raise) => {
        const userIds = await companyUserIds(tx, id);
        if (!(await deleteCompanyRows(tx, id))) return false;
        for (const userId of userIds) raise({ type: "user.sessionsRevoked", companyId: id, userId });
        raise({ type: "company.saved", companyId: id });
        return true;
      });
      if (!deleted) throw new AppError("ERR_NO_COMPANY_FOUND");
      await media.removeCompany(id);
    },

    /**
     * POST /companies/cadastro (public sign-up), only while the platform allows it: the server sets
     * the trial (dueDate and trialExpiration from the `trial` setting), MENSAL, status and campaigns
     * on; the first admin has the password given.
     */
    async signup(input: CompanySignupInput): Promise<CompanySignupAnswer> {
      if ((await platformSetting(db, "allowregister")) !== "enabled")
        throw new AppError("ERR_USER_CREATION_DISABLED");
      await requirePlan(input.planId);
      await refuseTakenName(input.name);
      const days = trialDays(await platformSetting(db, "trial"));
      const lastDay = addDays(todayInZone(now(), DEFAULT_TIMEZONE), days);
      const passwordHash = await hashPassword(input.password);
      const company = await inTransaction(db, bus, async (tx, raise) => {
        const made = await createUsable(tx, raise, {
          company: {
            name: input.name,
            email: input.email,
            phone: input.phone ?? null,
            planId: input.planId,
            status: true,
            dueDate: lastDay,
            trialExpiration: lastDay,
            recurrence: "MENSAL",
          },
          campaignsEnabled: true,
          admin: { name: input.name, email: input.email, passwordHash },
        });
        return made.company;
      });
      await startSessions();
      return { id: company.id, name: company.name };
    },

    /** The company and its plan (GET /companies/listPlan/{id}): any of its users, or the super user. */
    async listPlan(actor: AuthContext, id: number): Promise<CompanyPlanDTO> {
      const { company, plan } = await withPlanOf(actor, id);
      return {
        id: company.id,
        name: company.name,
        email: company.email,
        phone: company.phone,
        status: company.status,
        dueDate: company.dueDate,
        createdAt: company.createdAt.toISOString(),
        plan: plan ? presentPlan(plan) : NO_PLAN,
      };
    },

    /** The company's opening hours (the settings page's Horarios tab): its admins only. */
    async updateSchedules(
      actor: AuthContext,
      id: number,
      schedules: ScheduleEntry[],
    ): Promise<CompanySchedulesDTO> {
      await withPlanOf(actor, id);
      authorize(actor, "settings:edit");
      const row = await updateCompany(db, id, { schedules, updatedAt: now() });
      if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
      return { id: row.id, schedules: row.schedules };
    },
  };

  function settingsFor(rows: CompanyWithPlan[]) {
    return settingsOfCompanies(
      db,
      rows.map((r) => r.company.id),
    );
  }

  /** The new company's simulator session starts now rather than at the next lease round. */
  async function startSessions() {
    await sessions
      .tick()
      .catch((err: unknown) => log.warn({ err }, "starting the new company's sessions failed"));
  }
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
