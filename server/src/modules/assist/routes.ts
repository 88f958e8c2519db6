import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { assistAnswerSchema, assistRephraseSchema, assistStatusSchema, idOf } from "@atende/contracts";
import { langOf } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { type AssistDeps, type AssistService, createAssistService } from "./service.js";

const ticketParam = z.object({ ticketId: idOf() });

/** What an AI call may answer besides the ticket's own 404/403. */
const PROVIDER_ERRORS = [
  "ERR_ASSIST_NO_PROMPT",
  "ERR_ASSIST_PROVIDER_KEY",
  "ERR_ASSIST_PROVIDER_BUSY",
  "ERR_ASSIST_PROVIDER_FAILED",
] as const;

export function assistRoutes(app: FastifyInstance, assist: AssistService) {
  const r = routes(app);
  // Any signed-in user of a company whose plan has useOpenAi; the ticket is checked as its messages are.
  const gated = { access: "user", plan: "useOpenAi" } as const;
  // Each call costs the company tokens: 20 a minute per agent is far above a person's pace.
  const onTicket = {
    ...gated,
    params: ticketParam,
    response: assistAnswerSchema,
    rateLimit: { max: 20, windowSeconds: 60, by: "user" },
  } as const;

  r.get(
    "/assist",
    {
      ...gated,
      response: assistStatusSchema,
      operationId: "assist.status",
      summary: "Whether the composer offers AI help: the company has an AI prompt with a key",
    },
    ({ auth }) => assist.status(auth),
  );
  r.post(
    "/tickets/:ticketId/assist/suggest",
    {
      ...onTicket,
      errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED", ...PROVIDER_ERRORS],
      summary:
        "A reply for the agent to edit, from this ticket's last messages, quick messages and queue prompt",
      description:
        "Nothing is sent: the agent edits the text and sends it. Only this ticket's messages go to the " +
        "company's AI provider; the tokens count in GET /prompt/usage.",
    },
    ({ auth, params }) => assist.suggest(auth, params.ticketId),
  );
  r.post(
    "/tickets/:ticketId/assist/rephrase",
    {
      ...onTicket,
      body: assistRephraseSchema,
      errors: ["ERR_NO_TICKET_FOUND", "ERR_TICKET_ACCESS_DENIED", ...PROVIDER_ERRORS],
      summary: "What the agent typed, friendlier, shorter or with its grammar fixed",
      examples: {
        shorter: {
          summary: "A long draft made shorter",
          value: { text: "Olá, tudo bem? Estou verificando aqui o seu pedido e já volto.", style: "shorter" },
        },
      },
    },
    ({ auth, params, body }) => assist.rephrase(auth, params.ticketId, body),
  );
  r.post(
    "/tickets/:ticketId/assist/summarize",
    {
      ...onTicket,
      errors: [
        "ERR_NO_TICKET_FOUND",
        "ERR_TICKET_ACCESS_DENIED",
        "ERR_ASSIST_EMPTY_CONVERSATION",
        ...PROVIDER_ERRORS,
      ],
      summary: "A summary of this ticket's conversation for a note (saved by POST /ticket-notes, not here)",
    },
    ({ auth, params }, req) => assist.summarize(auth, params.ticketId, langOf(req)),
  );
}

/** AI help for agents in the composer (issue 39, item 4). */
export async function assistModule(app: FastifyInstance, deps: AssistDeps): Promise<AssistService> {
  const assist = createAssistService(deps);
  assistRoutes(app, assist);
  return assist;
}
