import type { FastifyInstance } from "fastify";
import { companySchedulesSchema, companyStandingSchema, idParam } from "@atende/contracts";
import { authOf } from "../../http/auth.js";
import { parseInput } from "../../http/errors.js";
import type { CompaniesService } from "./service.js";

export function companiesRoutes(app: FastifyInstance, companies: CompaniesService) {
  app.get("/companies/listPlan/:id", async (req) =>
    companies.listPlan(authOf(req), parseInput(idParam, req.params, req).id),
  );
  app.get("/companies/:id", async (req) =>
    companies.get(authOf(req), parseInput(idParam, req.params, req).id),
  );
  app.put("/companies/:id", async (req) =>
    companies.updateStanding(
      authOf(req),
      parseInput(idParam, req.params, req).id,
      parseInput(companyStandingSchema, req.body, req),
    ),
  );
  app.put("/companies/:id/schedules", async (req) =>
    companies.updateSchedules(
      authOf(req),
      parseInput(idParam, req.params, req).id,
      parseInput(companySchedulesSchema, req.body, req).schedules,
    ),
  );
}
