import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  companiesPageSchema,
  companyCreateSchema,
  companyListQuerySchema,
  companyPlanSchema,
  companySchedulesAnswerSchema,
  companySchedulesSchema,
  companySchema,
  companySignupAnswerSchema,
  companySignupSchema,
  companyUpdateSchema,
  idParam,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type CompaniesDeps, type CompaniesService, createCompaniesService } from "./service.js";

/** Sign-ups from one address: a few an hour (each one creates a company). */
export const SIGNUP_RATE_LIMIT = { max: 5, windowSeconds: 3600, by: "ip" } as const;

export function companiesRoutes(app: FastifyInstance, companies: CompaniesService) {
  const r = routes(app);
  // The platform's companies: the super user's Empresas and Cadastrar Empresa tabs.
  r.get(
    "/companies",
    { access: "super", query: companyListQuerySchema, response: companiesPageSchema },
    ({ auth, query }) => companies.page(auth, query),
  );
  r.get(
    "/companies/list",
    { access: "super", operationId: "companies.listAll", response: z.array(companySchema) },
    ({ auth }) => companies.list(auth),
  );
  r.post(
    "/companies",
    {
      errors: ["ERR_COMPANY_NAME_TAKEN", "ERR_COMPANY_PLAN_INVALID", "ERR_EMAIL_ALREADY_EXISTS"],
      access: "super",
      body: companyCreateSchema,
      status: 201,
      response: companySchema,
    },
    ({ auth, body }) => companies.create(auth, body),
  );
  // Public sign-up (/signup): only while the platform's `allowregister` is enabled (the service decides).
  r.post(
    "/companies/cadastro",
    {
      errors: [
        "ERR_COMPANY_NAME_TAKEN",
        "ERR_COMPANY_PLAN_INVALID",
        "ERR_EMAIL_ALREADY_EXISTS",
        "ERR_USER_CREATION_DISABLED",
      ],
      access: "public",
      body: companySignupSchema,
      status: 201,
      rateLimit: SIGNUP_RATE_LIMIT,
      response: companySignupAnswerSchema,
    },
    ({ body }) => companies.signup(body),
  );
  // One's own company (any of its users) or any company (the super user): the service decides.
  r.get(
    "/companies/listPlan/:id",
    { errors: ["ERR_NO_COMPANY_FOUND"], access: "user", params: idParam, response: companyPlanSchema },
    ({ auth, params }) => companies.listPlan(auth, params.id),
  );
  r.get(
    "/companies/:id",
    { errors: ["ERR_NO_COMPANY_FOUND"], access: "user", params: idParam, response: companySchema },
    ({ auth, params }) => companies.get(auth, params.id),
  );
  r.put(
    "/companies/:id",
    {
      errors: ["ERR_COMPANY_NAME_TAKEN", "ERR_COMPANY_PLAN_INVALID", "ERR_NO_COMPANY_FOUND"],
      access: "super",
      params: idParam,
      body: companyUpdateSchema,
      response: companySchema,
    },
    ({ auth, params, body }) => companies.update(auth, params.id, body),
  );
  r.delete(
    "/companies/:id",
    {
      errors: ["ERR_CANNOT_DELETE_OWN_COMPANY", "ERR_NO_COMPANY_FOUND"],
      access: "super",
      params: idParam,
      status: 204,
    },
    ({ auth, params }) => companies.remove(auth, params.id),
  );
  r.put(
    "/companies/:id/schedules",
    {
      errors: ["ERR_NO_COMPANY_FOUND"],
      access: "settings:edit",
      params: idParam,
      body: companySchedulesSchema,
      response: companySchedulesAnswerSchema,
    },
    ({ auth, params, body }) => companies.updateSchedules(auth, params.id, body.schedules),
  );
}

/** The companies module: the platform's companies (super user), sign-up, one's company and its plan. */
export async function companiesModule(app: FastifyInstance, deps: CompaniesDeps): Promise<CompaniesService> {
  const companies = createCompaniesService(deps);
  companiesRoutes(app, companies);
  return companies;
}
