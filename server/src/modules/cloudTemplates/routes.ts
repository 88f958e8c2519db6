import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  cloudTemplateSchema,
  conversationWindowSchema,
  idOf,
  messageSchema,
  templateSendSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import {
  type CloudTemplatesDeps,
  type CloudTemplatesService,
  createCloudTemplatesService,
} from "./service.js";

const whatsappParam = z.object({ whatsappId: idOf() });
const ticketParam = z.object({ ticketId: idOf() });
const refreshQuery = z.object({ refresh: z.enum(["true", "false"]).optional() });

export function cloudTemplatesRoutes(app: FastifyInstance, service: CloudTemplatesService) {
  const r = routes(app);
  r.get(
    "/whatsapp/:whatsappId/templates",
    {
      errors: ["ERR_NO_WAPP_FOUND", "ERR_WAPP_NO_WABA", "ERR_WAPP_TEMPLATES", "ERR_WAPP_TOKEN_EXPIRED"],
      access: "user",
      params: whatsappParam,
      query: refreshQuery,
      response: z.array(cloudTemplateSchema),
    },
    ({ auth, params, query }) => service.templates(auth, params.whatsappId, query.refresh === "true"),
  );
  r.get(
    "/tickets/:ticketId/window",
    {
      errors: ["ERR_NO_TICKET_FOUND"],
      access: "user",
      params: ticketParam,
      response: conversationWindowSchema,
    },
    ({ auth, params }) => service.window(auth, params.ticketId),
  );
  r.post(
    "/messages/:ticketId/template",
    {
      errors: [
        "ERR_NO_TICKET_FOUND",
        "ERR_TICKET_NOT_OPEN",
        "ERR_WAPP_NO_WABA",
        "ERR_WAPP_TEMPLATE_MISSING",
        "ERR_WAPP_TEMPLATE_PARAMS",
        "ERR_WAPP_TEMPLATE_PAUSED",
        "ERR_WAPP_TEMPLATES",
        "ERR_WAPP_TOKEN_EXPIRED",
      ],
      summary: "Send an approved Cloud API template on a ticket",
      description:
        "The template's values by part: `header` (a text header's values) or `headerMedia` (an IMAGE, VIDEO or DOCUMENT header's file: `link` or an uploaded media `id`), `body` (in the order of the template's `bodyParams`, named in a NAMED template), and `buttons` (`index` and `value`: a URL button's {{1}}, or a quick reply's payload).",
      access: "user",
      params: ticketParam,
      body: templateSendSchema,
      status: 201,
      response: messageSchema,
    },
    ({ auth, params, body }) => service.send(auth, params.ticketId, body),
  );
}

/** The Cloud API's 24-hour window and message templates (the composer's way back to a silent customer). */
export async function cloudTemplatesModule(app: FastifyInstance, deps: CloudTemplatesDeps) {
  const service = createCloudTemplatesService(deps);
  cloudTemplatesRoutes(app, service);
  return service;
}
