import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  helpCreateSchema,
  helpSchema,
  helpUpdateSchema,
  helpsPageSchema,
  idParam,
  listQuerySchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type HelpsDeps, type HelpsService, createHelpsService } from "./service.js";

export function helpsRoutes(app: FastifyInstance, helps: HelpsService) {
  const r = routes(app);
  // Every company reads the platform's one list; only the super user writes it.
  r.get("/helps", { access: "user", query: listQuerySchema, response: helpsPageSchema }, ({ auth, query }) =>
    helps.page(auth, query),
  );
  r.get(
    "/helps/list",
    { access: "user", operationId: "helps.listAll", response: z.array(helpSchema) },
    ({ auth }) => helps.list(auth),
  );
  r.post(
    "/helps",
    { access: "super", body: helpCreateSchema, status: 201, response: helpSchema },
    ({ auth, body }) => helps.create(auth, body),
  );
  // The guard leaves routes with an id to the service, which checks the super user before the lookup.
  r.put(
    "/helps/:id",
    {
      errors: ["ERR_NO_HELP_FOUND"],
      access: "super",
      params: idParam,
      body: helpUpdateSchema,
      response: helpSchema,
    },
    ({ auth, params, body }) => helps.update(auth, params.id, body),
  );
  r.delete(
    "/helps/:id",
    { errors: ["ERR_NO_HELP_FOUND"], access: "super", params: idParam, status: 204 },
    ({ auth, params }) => helps.remove(auth, params.id),
  );
}

/** The helps module: the platform's help videos (the /helps page and the super user's Ajuda tab). */
export async function helpsModule(app: FastifyInstance, deps: HelpsDeps): Promise<HelpsService> {
  const helps = createHelpsService(deps);
  helpsRoutes(app, helps);
  return helps;
}
