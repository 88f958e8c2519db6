import type { FastifyInstance } from "fastify";
import { companySchedulesSchema, companyStandingSchema, idParam } from "@atende/contracts";
import type { Deps } from "../../deps.js";
import { routes } from "../../http/route.js";
import { type CompaniesService, createCompaniesService } from "./service.js";

export function companiesRoutes(app: FastifyInstance, companies: CompaniesService) {
  const r = routes(app);
  // One's own company (any of its users) or any company (the super user): the service decides.
  r.get("/companies/listPlan/:id", { access: "user", params: idParam }, ({ auth, params }) =>
    companies.listPlan(auth, params.id),
  );
  r.get("/companies/:id", { access: "user", params: idParam }, ({ auth, params }) =>
    companies.get(auth, params.id),
  );
  r.put(
    "/companies/:id",
    { access: "super", params: idParam, body: companyStandingSchema },
    ({ auth, params, body }) => companies.updateStanding(auth, params.id, body),
  );
  r.put(
    "/companies/:id/schedules",
    { access: "settings:edit", params: idParam, body: companySchedulesSchema },
    ({ auth, params, body }) => companies.updateSchedules(auth, params.id, body.schedules),
  );
}

/** The companies module: one's company, its plan, standing and opening hours. */
export async function companiesModule(
  app: FastifyInstance,
  deps: Pick<Deps, "db" | "bus" | "now">,
): Promise<CompaniesService> {
  const companies = createCompaniesService(deps);
  companiesRoutes(app, companies);
  return companies;
}
