import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idOf,
  idParam,
  webhookDeliverySchema,
  webhookSaveSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from "@atende/contracts";
import { routes } from "../../http/route.js";
import { type WebhooksDeps, type WebhooksService, createWebhooksService } from "./service.js";

const deliveryParams = z.object({ id: idOf(), deliveryId: idOf(Number.MAX_SAFE_INTEGER) });

/** Outbound webhooks, for whoever may edit the company's settings (admins). */
export function webhooksRoutes(app: FastifyInstance, webhooks: WebhooksService) {
  const r = routes(app);
  const admin = { access: "settings:edit" } as const;
  r.get(
    "/webhooks",
    { ...admin, response: z.array(webhookSchema), summary: "The company's webhook subscriptions" },
    ({ auth }) => webhooks.list(auth),
  );
  r.post(
    "/webhooks",
    {
      errors: ["ERR_WEBHOOK_URL_FORBIDDEN", "ERR_WEBHOOK_URL_INVALID"],
      ...admin,
      body: webhookSaveSchema,
      status: 201,
      response: webhookWithSecretSchema,
      summary: "Subscribe (answers the signing secret, once)",
      examples: {
        tickets: {
          summary: "Ticket and message events to an HTTPS endpoint",
          value: {
            url: "https://crm.example.com/atende/events",
            events: ["ticket.created", "ticket.closed", "message.created"],
            active: true,
          },
        },
      },
    },
    ({ auth, body }) => webhooks.create(auth, body),
  );
  r.put(
    "/webhooks/:id",
    {
      errors: ["ERR_WEBHOOK_NOT_FOUND", "ERR_WEBHOOK_URL_INVALID"],
      ...admin,
      params: idParam,
      body: webhookSaveSchema,
      response: webhookSchema,
      summary: "Change a subscription's address, events or `active` (the secret stays)",
    },
    ({ auth, params, body }) => webhooks.update(auth, params.id, body),
  );
  r.delete(
    "/webhooks/:id",
    { errors: ["ERR_WEBHOOK_NOT_FOUND"], ...admin, params: idParam, status: 204, summary: "Unsubscribe" },
    ({ auth, params }) => webhooks.remove(auth, params.id),
  );
  r.post(
    "/webhooks/:id/secret",
    {
      errors: ["ERR_WEBHOOK_NOT_FOUND"],
      ...admin,
      params: idParam,
      response: webhookWithSecretSchema,
      operationId: "webhooks.rotateSecret",
      summary: "A new signing secret (answered once)",
    },
    ({ auth, params }) => webhooks.rotateSecret(auth, params.id),
  );
  r.post(
    "/webhooks/:id/test",
    {
      errors: ["ERR_WEBHOOK_NOT_FOUND"],
      ...admin,
      params: idParam,
      status: 204,
      summary: "Deliver a `webhook.test` event to the subscription",
    },
    ({ auth, params }) => webhooks.sendTest(auth, params.id),
  );
  r.get(
    "/webhooks/:id/deliveries",
    {
      errors: ["ERR_WEBHOOK_NOT_FOUND"],
      ...admin,
      params: idParam,
      response: z.array(webhookDeliverySchema),
      summary: "The subscription's latest deliveries and how each went",
    },
    ({ auth, params }) => webhooks.deliveries(auth, params.id),
  );
  r.post(
    "/webhooks/:id/deliveries/:deliveryId/resend",
    {
      errors: ["ERR_NOT_FOUND", "ERR_WEBHOOK_NOT_FOUND"],
      ...admin,
      params: deliveryParams,
      response: webhookDeliverySchema,
      operationId: "webhooks.resendDelivery",
      summary: "Deliver one past delivery's event again",
    },
    ({ auth, params }) => webhooks.resend(auth, params.id, params.deliveryId),
  );
}

export async function webhooksModule(app: FastifyInstance, deps: WebhooksDeps): Promise<WebhooksService> {
  const webhooks = createWebhooksService(deps);
  webhooksRoutes(app, webhooks);
  return webhooks;
}
