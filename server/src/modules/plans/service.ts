import type { PlanCreateInput, PlanRecordDTO, PlanUpdateInput, PublicPlanDTO } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { type AuthContext, requireSuper } from "../../http/auth.js";
import { AppError, uniqueOr } from "../../http/errors.js";
import { dbErrorCode } from "../../db/errors.js";
import { planPolicy } from "./policy.js";
import { presentPlanRecord, presentPublicPlan } from "./present.js";
import * as q from "./queries.js";

export type PlansDeps = Pick<Deps, "db" | "now">;

export function createPlansService({ db, now }: PlansDeps) {
  return {
    /** GET /plans/list and /plans/register: the plans a visitor may choose at sign-up. */
    async publicList(): Promise<PublicPlanDTO[]> {
      return (await q.listPlans(db)).map(presentPublicPlan);
    },

    /** GET /plans/all: every plan with all its fields (the super user). */
    async all(actor: AuthContext): Promise<PlanRecordDTO[]> {
      requireSuper(actor);
      return (await q.listPlans(db)).map(presentPlanRecord);
    },

    async get(actor: AuthContext, id: number): Promise<PlanRecordDTO> {
      const row = await q.findPlan(db, id);
      const own = actor.super ? null : await q.companyPlanId(db, actor.companyId);
      if (!row || !planPolicy.mayRead(actor, id, own)) throw new AppError("ERR_PLAN_NOT_FOUND");
      return presentPlanRecord(row);
    },

    async create(actor: AuthContext, input: PlanCreateInput): Promise<PlanRecordDTO> {
      requireSuper(actor);
      const at = now();
      const row = await uniqueOr("ERR_PLAN_NAME_TAKEN", () =>
        q.insertPlan(db, { ...input, createdAt: at, updatedAt: at }),
      );
      return presentPlanRecord(row);
    },

    async update(actor: AuthContext, id: number, input: PlanUpdateInput): Promise<PlanRecordDTO> {
      requireSuper(actor);
      const row = await uniqueOr("ERR_PLAN_NAME_TAKEN", () =>
        q.updatePlan(db, id, { ...input, updatedAt: now() }),
      );
      if (!row) throw new AppError("ERR_PLAN_NOT_FOUND");
      return presentPlanRecord(row);
    },

    /** A plan companies are on stays: deleting it would leave them without limits or features. */
    async remove(actor: AuthContext, id: number): Promise<void> {
      requireSuper(actor);
      if (!(await q.findPlan(db, id))) throw new AppError("ERR_PLAN_NOT_FOUND");
      if ((await q.companiesOnPlan(db, id)) > 0) throw new AppError("ERR_PLAN_IN_USE");
      try {
        await q.deletePlan(db, id);
      } catch (err) {
        // A company moved onto the plan between the count and the delete: the foreign key decides.
        if (dbErrorCode(err) === "23503") throw new AppError("ERR_PLAN_IN_USE");
        throw err;
      }
    },
  };
}
export type PlansService = ReturnType<typeof createPlansService>;
