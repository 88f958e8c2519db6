import QRCode from "qrcode";
import {
  type Lang,
  type PixChargeDTO,
  type SubscriptionCheckoutInput,
  type SubscriptionInfoDTO,
  todayInZone,
  validationMessage,
} from "@atende/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Deps } from "../../deps.js";
import type { AuthContext } from "../../http/auth.js";
import { AppError } from "../../http/errors.js";
import { findCompany } from "../companies/queries.js";
import type { SecretBox } from "../../lib/secretBox.js";
import { billingSettings, currentGateway } from "./gateways/registry.js";
import { GatewayError } from "./gateways/types.js";
import { openPeriodInvoice } from "./invoices.js";
import { presentInvoice } from "./present.js";
import * as q from "./queries.js";

export type SubscriptionDeps = Pick<Deps, "db" | "now" | "config"> & {
  log: FastifyBaseLogger;
  secrets: SecretBox;
};

/** A charge still valid this long is shown again instead of making a new one. */
const REUSE_MARGIN_MS = 10 * 60_000;

function fieldError(field: string, key: string, lang: Lang): AppError {
  return new AppError("ERR_VALIDATION", { fields: { [field]: validationMessage(key, lang) } });
}

async function answer(
  charge: q.ChargeRow,
  imageBase64: string | null,
  gateway: PixChargeDTO["gateway"],
  at: Date,
): Promise<PixChargeDTO> {
  const image = imageBase64
    ? `data:image/png;base64,${imageBase64}`
    : await QRCode.toDataURL(charge.payload, { errorCorrectionLevel: "M", margin: 1, width: 320 });
  const expiresAt = charge.expiresAt;
  return {
    invoiceId: charge.invoiceId,
    gateway,
    txid: charge.txid,
    status: charge.status === "paid" ? "CONCLUIDA" : "ATIVA",
    calendario: {
      criacao: charge.createdAt.toISOString(),
      expiracao: expiresAt ? Math.max(0, Math.round((expiresAt.getTime() - at.getTime()) / 1000)) : 0,
    },
    expiresAt: expiresAt ? expiresAt.toISOString() : null,
    valor: { original: Number(charge.value).toFixed(2) },
    qrcode: { qrcode: charge.payload, imagemQrcode: image },
  };
}

/**
 * The Subscription page and its checkout (POST /subscription): the company's admin pays an invoice
 * by Pix through the gateway the super user chose. The amount is the invoice's, never the body's.
 */
export function createSubscriptionService({ db, now, config, log, secrets }: SubscriptionDeps) {
  const env = () => ({ asaasUrl: config.ASAAS_API_URL, now, secrets });

  return {
    async info(actor: AuthContext): Promise<SubscriptionInfoDTO> {
      const settings = await billingSettings(db);
      const gateway = currentGateway(settings, env());
      const row = await findCompany(db, actor.companyId);
      if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
      const open = await q.oldestOpenInvoice(db, actor.companyId);
      const { company, plan } = row;
      return {
        gateway: gateway?.name ?? null,
        requiresCpfCnpj: gateway?.requiresCpfCnpj ?? false,
        company: {
          id: company.id,
          name: company.name,
          email: company.email,
          dueDate: company.dueDate,
          trialExpiration: company.trialExpiration,
          recurrence: company.recurrence,
        },
        plan: plan
          ? {
              id: plan.id,
              name: plan.name,
              value: Number(plan.value),
              users: plan.users,
              connections: plan.connections,
              queues: plan.queues,
            }
          : null,
        openInvoice: open ? presentInvoice(open) : null,
      };
    },

    async checkout(actor: AuthContext, input: SubscriptionCheckoutInput, lang: Lang): Promise<PixChargeDTO> {
      const at = now();
      const settings = await billingSettings(db);
      const gateway = currentGateway(settings, env());
      if (!gateway) throw new AppError("ERR_PAYMENT_GATEWAY_NOT_CONFIGURED");
      const cpfCnpj = (input.cpfCnpj ?? "").replace(/\D/g, "");
      if (gateway.requiresCpfCnpj && !cpfCnpj)
        throw fieldError("cpfCnpj", "validation.cpfCnpjRequired", lang);

      let invoice: q.InvoiceRow | null;
      if (input.invoiceId) {
        invoice = await q.findInvoice(db, actor.companyId, input.invoiceId);
        if (!invoice) throw new AppError("ERR_NO_INVOICE_FOUND");
      } else {
        invoice = await q.oldestOpenInvoice(db, actor.companyId);
        if (!invoice) {
          const row = await findCompany(db, actor.companyId);
          if (!row) throw new AppError("ERR_NO_COMPANY_FOUND");
          invoice = (await openPeriodInvoice(db, row, at)).row;
        }
      }
      if (invoice.status === "paid") throw new AppError("ERR_INVOICE_ALREADY_PAID");
      const value = Number(invoice.value);

      const reusable = await q.reusableCharge(
        db,
        actor.companyId,
        invoice.id,
        gateway.name,
        new Date(at.getTime() + REUSE_MARGIN_MS),
      );
      if (reusable && Number(reusable.value) === value) return answer(reusable, null, gateway.name, at);

      const known = cpfCnpj ? await q.findCustomer(db, actor.companyId, gateway.name, cpfCnpj) : null;
      const today = todayInZone(at);
      const name = [input.firstName, input.lastName].filter(Boolean).join(" ").trim();
      let created;
      try {
        created = await gateway.createPixCharge({
          invoiceId: invoice.id,
          companyId: actor.companyId,
          value,
          dueDate: invoice.dueDate > today ? invoice.dueDate : today,
          description: invoice.detail,
          payer: {
            name,
            email: input.email?.trim() || null,
            cpfCnpj: cpfCnpj || null,
            postalCode: input.zipcode.replace(/\D/g, "") || null,
          },
          customerId: known?.externalId ?? null,
        });
      } catch (err) {
        if (err instanceof GatewayError && err.customerId && cpfCnpj && !known)
          await q.saveCustomer(db, {
            companyId: actor.companyId,
            gateway: gateway.name,
            cpfCnpj,
            externalId: err.customerId,
          });
        if (err instanceof GatewayError && err.gatewayCode === "invalid_cpfCnpj")
          throw fieldError("cpfCnpj", "validation.invalidCpfCnpj", lang);
        log.error({ err, invoiceId: invoice.id, gateway: gateway.name }, "billing: Pix charge failed");
        throw new AppError("ERR_PAYMENT_GATEWAY_FAILED");
      }
      if (created.customerId && cpfCnpj && !known)
        await q.saveCustomer(db, {
          companyId: actor.companyId,
          gateway: gateway.name,
          cpfCnpj,
          externalId: created.customerId,
        });
      const charge = await q.saveCharge(db, {
        companyId: actor.companyId,
        invoiceId: invoice.id,
        gateway: gateway.name,
        externalId: created.externalId,
        txid: created.txid,
        payload: created.payload,
        value,
        status: "pending",
        expiresAt: created.expiresAt,
        createdAt: at,
        updatedAt: at,
      });
      return answer(charge, created.imageBase64, gateway.name, at);
    },
  };
}
export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
