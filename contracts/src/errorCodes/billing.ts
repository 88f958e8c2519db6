import type { ErrorDef } from "./def.js";

/** Billing: invoices, the subscription checkout, payment gateways and their webhooks. */
export const BILLING_ERRORS = {
  ERR_NO_INVOICE_FOUND: {
    status: 404,
    pt: "Fatura não encontrada.",
    en: "Invoice not found.",
    es: "Factura no encontrada.",
  },
  ERR_INVOICE_ALREADY_PAID: {
    status: 409,
    pt: "Esta fatura já foi paga.",
    en: "This invoice has already been paid.",
    es: "Esta factura ya fue pagada.",
  },
  ERR_COMPANY_WITHOUT_PLAN: {
    status: 409,
    pt: "A empresa não possui um plano para ser cobrado.",
    en: "The company has no plan to bill.",
    es: "La empresa no tiene un plan para cobrar.",
  },
  ERR_PAYMENT_GATEWAY_NOT_CONFIGURED: {
    status: 409,
    pt: "Os pagamentos ainda não foram configurados. Entre em contato com o Suporte.",
    en: "Payments are not set up yet. Contact Support.",
    es: "Los pagos aún no fueron configurados. Contacte al Soporte.",
  },
  ERR_PAYMENT_GATEWAY_FAILED: {
    status: 424,
    pt: "Não foi possível gerar a cobrança Pix agora. Tente novamente em instantes.",
    en: "The Pix charge could not be created now. Try again in a moment.",
    es: "No fue posible generar el cobro Pix ahora. Intente de nuevo en un momento.",
  },
  ERR_PAYMENT_WEBHOOK_UNAUTHORIZED: {
    status: 401,
    pt: "Token do webhook de pagamento inválido.",
    en: "Invalid payment webhook token.",
    es: "Token del webhook de pago inválido.",
  },
} as const satisfies Record<string, ErrorDef>;
