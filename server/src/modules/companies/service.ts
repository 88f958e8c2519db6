import {
  type CompanyDTO,
  type CompanyPlanDTO,
  type CompanySchedulesDTO,
  type CompanyStandingInput,
  PLAN_FLAGS,
  type ScheduleEntry,
} from "@atende/contracts";
import type { companies } from "../../db/schema/index.js";
import type { Deps } from "../../deps.js";
import { inTransaction } from "../../events/bus.js";
import { type AuthContext, authorize, requireSuper } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findCompany, presentPlan, updateCompany } from "./queries.js";

type CompanyRow = typeof companies.$inferSelect;

function presentCompany(row: CompanyRow): CompanyDTO {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    planId: row.planId,
    status: row.status,
    dueDate: row.dueDate,
    recurrence: row.recurrence,
    schedules: row.schedules,
    createdAt: row.createdAt.toISOString(),
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

export function createCompaniesService({ db, bus, now }: Pick<Deps, "db" | "bus" | "now">) {
  async function withPlanOf(actor: AuthContext, id: number) {
    const found = reachable(actor, id) ? await findCompany(db, id) : null;
    if (!found) throw new AppError("ERR_NO_COMPANY_FOUND");
    return found;
  }
  const companyOf = async (actor: AuthContext, id: number): Promise<CompanyRow> =>
    (await withPlanOf(actor, id)).company;

  return {
    async get(actor: AuthContext, id: number): Promise<CompanyDTO> {
      return presentCompany(await companyOf(actor, id));
    },

    /**
     * The super user activates or deactivates a company, or moves its due date. The change's event
     * locks the company's users out (or lets them back in) on every request and socket at once.
     */
    async updateStanding(actor: AuthContext, id: number, input: CompanyStandingInput): Promise<CompanyDTO> {
      requireSuper(actor);
      return inTransaction(db, bus, async (tx, raise) => {
        const row = await updateCompany(tx, id, {
          status: input.status,
          dueDate: input.dueDate,
          updatedAt: now(),
        });
        if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
        raise({ type: "company.saved", companyId: id });
        return presentCompany(row);
      });
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
      await companyOf(actor, id);
      authorize(actor, "settings:edit");
      const row = await updateCompany(db, id, { schedules, updatedAt: now() });
      if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
      return { id: row.id, schedules: row.schedules };
    },
  };
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
