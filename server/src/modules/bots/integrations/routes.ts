import type { FastifyInstance } from "fastify";
import {
  dialogflowTestAnswerSchema,
  dialogflowTestSchema,
  idParam,
  listQuerySchema,
  queueIntegrationBodySchema,
  queueIntegrationSchema,
  queueIntegrationsPageSchema,
} from "@atende/contracts";
import { routes } from "../../../http/route.js";
import {
  type QueueIntegrationsDeps,
  type QueueIntegrationsService,
  createQueueIntegrationsService,
} from "./service.js";

export function queueIntegrationsRoutes(app: FastifyInstance, integrations: QueueIntegrationsService) {
  const r = routes(app);
  // Admins of a company whose plan has useIntegrations (refused by the guard before the handler).
  const gated = { access: "bots:manage", plan: "useIntegrations" } as const;
  const byId = { ...gated, params: idParam } as const;

  r.get(
    "/queueIntegration",
    { ...gated, query: listQuerySchema, response: queueIntegrationsPageSchema },
    ({ auth, query }) => integrations.page(auth, query),
  );
  r.post(
    "/queueIntegration",
    {
      errors: [
        "ERR_DIALOGFLOW_JSON_INVALID",
        "ERR_DIALOGFLOW_JSON_REQUIRED",
        "ERR_INTEGRATION_URL_FORBIDDEN",
        "ERR_QUEUE_INTEGRATION_NAME_TAKEN",
      ],
      ...gated,
      body: queueIntegrationBodySchema,
      status: 201,
      response: queueIntegrationSchema,
    },
    ({ auth, body }) => integrations.create(auth, body),
  );
  r.post(
    "/queueIntegration/testSession",
    {
      errors: [
        "ERR_DIALOGFLOW_JSON_INVALID",
        "ERR_DIALOGFLOW_JSON_REQUIRED",
        "ERR_DIALOGFLOW_TEST_FAILED",
        "ERR_NO_QUEUE_INTEGRATION_FOUND",
      ],
      ...gated,
      body: dialogflowTestSchema,
      response: dialogflowTestAnswerSchema,
    },
    ({ auth, body }) => integrations.testSession(auth, body),
  );
  r.get(
    "/queueIntegration/:id",
    { errors: ["ERR_NO_QUEUE_INTEGRATION_FOUND"], ...byId, response: queueIntegrationSchema },
    ({ auth, params }) => integrations.get(auth, params.id),
  );
  r.put(
    "/queueIntegration/:id",
    {
      errors: ["ERR_INTEGRATION_URL_FORBIDDEN", "ERR_NO_QUEUE_INTEGRATION_FOUND"],
      ...byId,
      body: queueIntegrationBodySchema,
      response: queueIntegrationSchema,
    },
    ({ auth, params, body }) => integrations.update(auth, params.id, body),
  );
  r.delete(
    "/queueIntegration/:id",
    { errors: ["ERR_NO_QUEUE_INTEGRATION_FOUND"], ...byId, status: 204 },
    ({ auth, params }) => integrations.remove(auth, params.id),
  );
}

/** Bot integrations (Typebot, N8N, webhook, Dialogflow): the /queue-integration page's calls. */
export async function queueIntegrationsModule(
  app: FastifyInstance,
  deps: QueueIntegrationsDeps,
): Promise<QueueIntegrationsService> {
  const integrations = createQueueIntegrationsService(deps);
  queueIntegrationsRoutes(app, integrations);
  return integrations;
}
