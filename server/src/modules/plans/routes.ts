import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  planCreateSchema,
  planRecordSchema,
  planUpdateSchema,
  publicPlanSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type PlansDeps, type PlansService, createPlansService } from "./service.js";

export function plansRoutes(app: FastifyInstance, plans: PlansService) {
  const r = routes(app);
  // The sign-up page's choice, for visitors: only what the form shows.
  const choices = { access: "public", response: z.array(publicPlanSchema) } as const;
  r.get("/plans/list", choices, () => plans.publicList());
  r.get("/plans/register", choices, () => plans.publicList());
  r.get("/plans/all", { access: "super", response: z.array(planRecordSchema) }, ({ auth }) =>
    plans.all(auth),
  );
  r.post(
    "/plans",
    {
      errors: ["ERR_PLAN_NAME_TAKEN"],
      access: "super",
      body: planCreateSchema,
      status: 201,
      response: planRecordSchema,
    },
    ({ auth, body }) => plans.create(auth, body),
  );
  // The super user reads any plan; a company's user only the one their company is on (the service decides).
  r.get(
    "/plans/:id",
    { errors: ["ERR_PLAN_NOT_FOUND"], access: "user", params: idParam, response: planRecordSchema },
    ({ auth, params }) => plans.get(auth, params.id),
  );
  r.put(
    "/plans/:id",
    {
      errors: ["ERR_PLAN_NAME_TAKEN", "ERR_PLAN_NOT_FOUND"],
      access: "super",
      params: idParam,
      body: planUpdateSchema,
      response: planRecordSchema,
    },
    ({ auth, params, body }) => plans.update(auth, params.id, body),
  );
  r.delete(
    "/plans/:id",
    { errors: ["ERR_PLAN_IN_USE", "ERR_PLAN_NOT_FOUND"], access: "super", params: idParam, status: 204 },
    ({ auth, params }) => plans.remove(auth, params.id),
  );
}

/** The plans module: the platform's plans, managed by the super user, listed for sign-up. */
export async function plansModule(app: FastifyInstance, deps: PlansDeps): Promise<PlansService> {
  const plans = createPlansService(deps);
  plansRoutes(app, plans);
  return plans;
}
