import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  idParam,
  invoiceListQuerySchema,
  invoiceSchema,
  invoiceUpdateSchema,
  invoicesPageSchema,
  pixChargeSchema,
  subscriptionCheckoutSchema,
  subscriptionInfoSchema,
} from "@atende/contracts";
import { langOf } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import type { FastifyBaseLogger } from "fastify";
import type { Deps } from "../../deps.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { type InvoicesService, createInvoicesService } from "./invoices.js";
import { type SubscriptionService, createSubscriptionService } from "./subscription.js";
import { type WebhookService, createWebhookService } from "./webhook.js";

/**
 * Billing's routes. The payment pages stay open to a past-due company's admin
 * (`reachableWhenPastDue`): they are how the company pays its way back in.
 */
export function billingRoutes(
  app: FastifyInstance,
  s: { invoices: InvoicesService; subscription: SubscriptionService; webhook: WebhookService },
) {
  const r = routes(app);
  const paying = { access: "invoices:view", reachableWhenPastDue: true } as const;
  // The Whaticket SaaS shapes: /invoices/all answers a page's rows as a plain array (what that
  // family's /financeiro reads), /invoices the same page in { invoices, count, hasMore }. The super
  // user reads every company's.
  r.get(
    "/invoices/all",
    { ...paying, query: invoiceListQuerySchema, response: z.array(invoiceSchema) },
    async ({ auth, query }) => (await s.invoices.page(auth, query)).invoices,
  );
  r.get(
    "/invoices",
    { ...paying, query: invoiceListQuerySchema, response: invoicesPageSchema },
    ({ auth, query }) => s.invoices.page(auth, query),
  );
  r.get(
    "/invoices/:id",
    { errors: ["ERR_NO_INVOICE_FOUND"], ...paying, params: idParam, response: invoiceSchema },
    ({ auth, params }) => s.invoices.get(auth, params.id),
  );
  // The super user marks an invoice paid by hand (a plain Pix key's payment): who and when are kept.
  r.put(
    "/invoices/:id",
    {
      errors: ["ERR_INVOICE_ALREADY_PAID", "ERR_NO_INVOICE_FOUND"],
      access: "super",
      params: idParam,
      body: invoiceUpdateSchema,
      response: invoiceSchema,
    },
    ({ auth, params }) => s.invoices.markPaid(auth, params.id),
  );
  r.get(
    "/subscription",
    { ...paying, operationId: "subscription.get", response: subscriptionInfoSchema },
    ({ auth }) => s.subscription.info(auth),
  );
  r.post(
    "/subscription",
    {
      errors: [
        "ERR_INVOICE_ALREADY_PAID",
        "ERR_NO_INVOICE_FOUND",
        "ERR_PAYMENT_GATEWAY_FAILED",
        "ERR_PAYMENT_GATEWAY_NOT_CONFIGURED",
      ],
      ...paying,
      body: subscriptionCheckoutSchema,
      response: pixChargeSchema,
    },
    ({ auth, body }, req) => s.subscription.checkout(auth, body, langOf(req)),
  );
  // Asaas calls it; authenticated by the asaas-access-token header (the service checks it).
  r.post(
    "/webhooks/asaas",
    {
      errors: ["ERR_PAYMENT_WEBHOOK_UNAUTHORIZED"],
      access: "public",
      rateLimit: { max: 600, windowSeconds: 60 },
      response: z.object({ received: z.literal(true) }),
    },
    (_input, req) => s.webhook.asaas(req.headers, req.body),
  );
}

export async function billingModule(
  app: FastifyInstance,
  deps: Pick<Deps, "db" | "bus" | "now" | "config"> & { log: FastifyBaseLogger; secrets: SecretBox },
) {
  const services = {
    invoices: createInvoicesService(deps),
    subscription: createSubscriptionService(deps),
    webhook: createWebhookService(deps),
  };
  billingRoutes(app, services);
  return services;
}
