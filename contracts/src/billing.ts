import { z } from "zod";
import { pageOf, rowId, timestamp } from "./answers.js";
import { listQuerySchema } from "./lists.js";
import { idValue, noNul } from "./validation.js";

/**
 * Billing (back-office §2 Invoices page and /financeiro, Subscription page, Checkout dialog; §3
 * Invoice and Pix payment; §7 GET /invoices/all and POST /subscription). The server opens one
 * invoice per company and billing period; the company admin pays it by Pix through the gateway the
 * super user chose; the confirmation moves the company's due date once by its recurrence.
 */

export const INVOICE_STATUSES = ["open", "paid"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The payment gateways the super user chooses from (super setting `paymentGateway`). */
export const PAYMENT_GATEWAYS = ["asaas", "pixKey"] as const;
export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number];

/** Defaults of the super user's billing settings (`invoiceDaysBefore`, `billingGraceDays`). */
export const INVOICE_DAYS_BEFORE_DEFAULT = 10;
export const BILLING_GRACE_DAYS_DEFAULT = 0;
/** How long a Pix charge's QR code is valid, in seconds (the answer's `calendario.expiracao`). */
export const PIX_EXPIRATION_SECONDS = 24 * 60 * 60;
/** Checkout: after the payment event the page goes to / after this many ms (back-office §9). */
export const CHECKOUT_REDIRECT_MS = 4000;

/** Someone an invoice names (its company, who marked it paid): id and name. */
const namedRef = z.object({ id: rowId, name: z.string() });

/** An invoice as the /financeiro table reads it. */
export const invoiceSchema = z
  .object({
    id: rowId,
    companyId: rowId,
    detail: z.string(),
    /** In BRL, e.g. 59.9. */
    value: z.number().nonnegative(),
    /** YYYY-MM-DD. */
    dueDate: z.iso.date(),
    status: z.enum(INVOICE_STATUSES),
    /** ISO timestamp, or null while open. */
    paidAt: timestamp.nullable(),
    /** "asaas", "pixKey", "manual", or null while open. */
    paidVia: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    /** Only in the super user's answers: whose invoice it is. */
    company: namedRef.optional(),
    /** Only in the super user's answers: who marked it paid by hand. */
    paidBy: namedRef.nullable().optional(),
  })
  .meta({
    id: "Invoice",
    description: "An invoice of a company's subscription, as the /financeiro table reads it",
  });
export type InvoiceDTO = z.infer<typeof invoiceSchema>;

/** GET /invoices (searchParam, pageNumber): a page with its count, the Whaticket SaaS shape. */
export const invoicesPageSchema = pageOf("invoices", invoiceSchema).meta({ id: "InvoicesPage" });
export type InvoicesPage = z.infer<typeof invoicesPageSchema>;

/**
 * GET /invoices/all (searchParam, pageNumber): the same page's rows as a plain array, as the
 * Whaticket SaaS front end's /financeiro reads them.
 */
export type InvoicesList = InvoiceDTO[];

/** The page size of GET /invoices and GET /invoices/all. */
export const INVOICES_PAGE_SIZE = 20;

/** searchParam matches the detail (and, for the super user, the company's name); a number also the id. */
export const invoiceListQuerySchema = listQuerySchema;
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

/** PUT /invoices/{id}: the super user marks an invoice paid by hand (who and when are recorded). */
export const invoiceUpdateSchema = z.object({ status: z.literal("paid", "validation.invalid") });
export type InvoiceUpdateInput = z.infer<typeof invoiceUpdateSchema>;

/** How a row shows: 'Pago', 'Vencido' (due date before today, not paid; red row) or 'Em Aberto' (§4). */
export type InvoiceDisplayStatus = "paid" | "overdue" | "open";

export function invoiceDisplayStatus(
  invoice: Pick<InvoiceDTO, "status" | "dueDate">,
  today: string,
): InvoiceDisplayStatus {
  if (invoice.status === "paid") return "paid";
  return invoice.dueDate.slice(0, 10) < today ? "overdue" : "open";
}

/** Only unpaid invoices can be paid (§4): the PAGAR button. */
export function mayPayInvoice(invoice: Pick<InvoiceDTO, "status">): boolean {
  return invoice.status !== "paid";
}

// ---------------------------------------------------------------- CPF / CNPJ

function checkDigit(digits: number[], weights: number[]): number {
  const sum = digits.reduce((acc, d, i) => acc + d * weights[i]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A CPF (11 digits) with both check digits right; punctuation ignored; 000.000.000-00 and the like refused. */
export function isValidCpf(value: string): boolean {
  const s = value.replace(/\D/g, "");
  if (s.length !== 11 || /^(\d)\1{10}$/.test(s)) return false;
  const d = [...s].map(Number);
  const first = checkDigit(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[9] === first && d[10] === second;
}

/** A CNPJ (14 digits) with both check digits right; punctuation ignored. */
export function isValidCnpj(value: string): boolean {
  const s = value.replace(/\D/g, "");
  if (s.length !== 14 || /^(\d)\1{13}$/.test(s)) return false;
  const d = [...s].map(Number);
  const first = checkDigit(d.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(d.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[12] === first && d[13] === second;
}

export function isValidCpfCnpj(value: string): boolean {
  return isValidCpf(value) || isValidCnpj(value);
}

// ---------------------------------------------------------------- checkout

/** The countries the checkout offers (§9): value sent, label shown. */
export const CHECKOUT_COUNTRIES = [
  { value: "BR", label: "Brasil" },
  { value: "US", label: "United States" },
] as const;

const required = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .min(1, { error: key, abort: true })
    .max(200, "validation.tooLong")
    .refine(noNul, "validation.invalid");
const optionalText = z
  .string()
  .trim()
  .max(200, "validation.tooLong")
  .refine(noNul, "validation.invalid")
  .optional()
  .nullable();
const optionalNumber = z.coerce.number().finite().optional().nullable();

/**
 * POST /subscription: the checkout's Dados step, as Whaticket SaaS clients send it (firstName,
 * address2, city, zipcode, country required with the spec's messages; card fields accepted and
 * ignored; price/users/connections are shown to the user but the server bills the invoice's value).
 * `cpfCnpj` is required, and checked by its digits, when the gateway is Asaas (the server decides:
 * GET /subscription says `requiresCpfCnpj`). Without `invoiceId` the company's current open
 * invoice is paid (one is opened for the next period when there is none).
 */
export const subscriptionCheckoutSchema = z.object({
  firstName: required("validation.checkoutName"),
  lastName: optionalText,
  address2: required("validation.checkoutAddress"),
  city: required("validation.checkoutCity"),
  state: optionalText,
  zipcode: required("validation.checkoutZip"),
  country: required("validation.checkoutCountry"),
  email: optionalText,
  cpfCnpj: z
    .string()
    .trim()
    .max(20, "validation.tooLong")
    .refine((v) => v === "" || isValidCpfCnpj(v), "validation.invalidCpfCnpj")
    .optional()
    .nullable(),
  useAddressForPaymentDetails: z.unknown().optional(),
  nameOnCard: z.unknown().optional(),
  cardNumber: z.unknown().optional(),
  cvv: z.unknown().optional(),
  /** The plan picked in Personalizar (a JSON string in Whaticket clients, or an object); display only. */
  plan: z.unknown().optional(),
  price: optionalNumber,
  users: optionalNumber,
  connections: optionalNumber,
  invoiceId: idValue.optional().nullable(),
});
export type SubscriptionCheckoutInput = z.infer<typeof subscriptionCheckoutSchema>;

/**
 * POST /subscription's answer: the Pix charge, in the shape of the Pix API (`valor.original`,
 * `calendario`) that Whaticket SaaS clients read (`qrcode.qrcode`, `valor.original`).
 */
export const pixChargeSchema = z
  .object({
    invoiceId: rowId,
    gateway: z.enum(PAYMENT_GATEWAYS),
    /** The charge's transaction id (the invoice's txid for a plain Pix key). */
    txid: z.string(),
    status: z.enum(["ATIVA", "CONCLUIDA"]),
    /** When the charge was created (ISO timestamp) and how many seconds its QR code has left. */
    calendario: z.object({ criacao: timestamp, expiracao: z.number().int().nonnegative() }),
    /** ISO timestamp: when the QR code stops being valid. */
    expiresAt: timestamp.nullable(),
    /** The amount in BRL with two decimals, e.g. "59.90". */
    valor: z.object({ original: z.string() }),
    qrcode: z.object({
      /** The EMV BR Code: copia e cola. */
      qrcode: z.string(),
      /** The same as a PNG data URL (data:image/png;base64,...). */
      imagemQrcode: z.string(),
    }),
  })
  .meta({
    id: "PixCharge",
    description: "A Pix charge for an invoice: its QR code and amount, as the Pix API shapes it",
  });
export type PixChargeDTO = z.infer<typeof pixChargeSchema>;

/** GET /subscription: what the Subscription page and the checkout need. */
export const subscriptionInfoSchema = z
  .object({
    /** null: the super user set no gateway up, checkout answers ERR_PAYMENT_GATEWAY_NOT_CONFIGURED. */
    gateway: z.enum(PAYMENT_GATEWAYS).nullable(),
    /** The Dados step asks for the payer's CPF or CNPJ (Asaas needs one). */
    requiresCpfCnpj: z.boolean(),
    company: z.object({
      id: rowId,
      name: z.string(),
      email: z.string().nullable(),
      /** YYYY-MM-DD; null: none. */
      dueDate: z.iso.date().nullable(),
      trialExpiration: z.iso.date().nullable(),
      recurrence: z.string(),
    }),
    plan: z
      .object({
        id: rowId,
        name: z.string(),
        value: z.number().nonnegative(),
        users: z.number().int().nonnegative(),
        connections: z.number().int().nonnegative(),
        queues: z.number().int().nonnegative(),
      })
      .nullable(),
    /** The invoice the checkout pays when no invoiceId is sent (oldest open one), or null. */
    openInvoice: invoiceSchema.nullable(),
  })
  .meta({
    id: "SubscriptionInfo",
    description: "The company's subscription: its plan, gateway and open invoice",
  });
export type SubscriptionInfoDTO = z.infer<typeof subscriptionInfoSchema>;

/**
 * `company-{id}-payment`, heard by the company's users: a payment settled an invoice; the toast says
 * the licence is renewed until `company.dueDate` and the checkout goes to / after 4 s.
 */
export interface PaymentEventPayload {
  action: "CONCLUIDA";
  company: { id: number; name: string; dueDate: string | null; recurrence: string; status: boolean };
  invoice: InvoiceDTO;
}
