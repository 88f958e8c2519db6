import type { FastifyInstance } from "fastify";
import {
  idParam,
  listQuerySchema,
  promptBodySchema,
  promptSchema,
  promptsPageSchema,
  tokenUsageSchema,
} from "@atende/contracts";
import { routes } from "../../../http/route.js";
import { type PromptsDeps, type PromptsService, createPromptsService } from "./service.js";

export function promptsRoutes(app: FastifyInstance, prompts: PromptsService) {
  const r = routes(app);
  // Admins of a company whose plan has useOpenAi (refused by the guard before the handler).
  const gated = { access: "bots:manage", plan: "useOpenAi" } as const;
  const byId = { ...gated, params: idParam } as const;

  r.get("/prompt", { ...gated, query: listQuerySchema, response: promptsPageSchema }, ({ auth, query }) =>
    prompts.page(auth, query),
  );
  r.get("/prompt/usage", { ...gated, response: tokenUsageSchema }, ({ auth }) => prompts.usage(auth));
  r.post(
    "/prompt",
    {
      errors: ["ERR_NO_QUEUE_FOUND", "ERR_PROMPT_API_KEY_REQUIRED", "ERR_PROMPT_QUEUE_REQUIRED"],
      ...gated,
      body: promptBodySchema,
      status: 201,
      response: promptSchema,
    },
    ({ auth, body }) => prompts.create(auth, body),
  );
  r.get(
    "/prompt/:id",
    { errors: ["ERR_NO_PROMPT_FOUND"], ...byId, response: promptSchema },
    ({ auth, params }) => prompts.get(auth, params.id),
  );
  r.put(
    "/prompt/:id",
    {
      errors: ["ERR_NO_PROMPT_FOUND", "ERR_PROMPT_QUEUE_REQUIRED"],
      ...byId,
      body: promptBodySchema,
      response: promptSchema,
    },
    ({ auth, params, body }) => prompts.update(auth, params.id, body),
  );
  r.delete("/prompt/:id", { errors: ["ERR_NO_PROMPT_FOUND"], ...byId, status: 204 }, ({ auth, params }) =>
    prompts.remove(auth, params.id),
  );
}

/** AI prompts: the /prompts page's calls. */
export async function promptsModule(app: FastifyInstance, deps: PromptsDeps): Promise<PromptsService> {
  const prompts = createPromptsService(deps);
  promptsRoutes(app, prompts);
  return prompts;
}
