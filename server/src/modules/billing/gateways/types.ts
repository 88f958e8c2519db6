import type { PaymentGatewayName } from "@atende/contracts";

/** What a checkout asks a gateway for: a Pix charge of `value` for one invoice. */
export interface PixChargeRequest {
  invoiceId: number;
  companyId: number;
  /** BRL. */
  value: number;
  /** YYYY-MM-DD: the charge's due date (today or later). */
  dueDate: string;
  description: string;
  payer: { name: string; email: string | null; cpfCnpj: string | null; postalCode: string | null };
  /** The gateway's customer already made for this company and payer, if any. */
  customerId: string | null;
}

export interface PixChargeCreated {
  /** The gateway's id of the charge (Asaas `pay_...`; the txid for a plain Pix key). */
  externalId: string;
  txid: string;
  /** The EMV BR Code (copia e cola). */
  payload: string;
  /** A PNG of the QR code, base64 without the data: prefix, when the gateway makes one. */
  imageBase64: string | null;
  expiresAt: Date | null;
  /** The gateway's customer made for this charge, to keep for the next one. */
  customerId: string | null;
}

/** A charge as the gateway sees it now. */
export interface ChargeState {
  externalId: string;
  /** Money received (Asaas RECEIVED, CONFIRMED, RECEIVED_IN_CASH). */
  paid: boolean;
  /** The gateway's own status word, kept in the event. */
  status: string;
}

/** A webhook delivery read by its gateway: the charge it is about and whether it says "paid". */
export interface WebhookNotice {
  /** Unique per event: the gateway's event id, else `<event>:<charge id>`. */
  eventKey: string;
  eventType: string;
  externalId: string | null;
  paid: boolean;
}

/**
 * One payment gateway (DESIGN: one interface, chosen by the super user's `paymentGateway` setting).
 * `fetchCharge` answers null where the gateway cannot be asked (a plain Pix key: the super user
 * confirms by hand).
 */
export interface PaymentGateway {
  readonly name: PaymentGatewayName;
  /** The payer's CPF or CNPJ is required at checkout. */
  readonly requiresCpfCnpj: boolean;
  createPixCharge(request: PixChargeRequest): Promise<PixChargeCreated>;
  /** Whether a webhook delivery's headers carry the right secret (constant-time). */
  verifyWebhook(headers: Record<string, string | string[] | undefined>): boolean;
  /** Reads a verified delivery's body; null when it is not about a charge. */
  readWebhook(body: unknown): WebhookNotice | null;
  fetchCharge(externalId: string): Promise<ChargeState | null>;
}

/** A gateway call that failed (network, 4xx/5xx): the checkout answers ERR_PAYMENT_GATEWAY_FAILED. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly gatewayCode?: string,
    /** A customer the gateway made before the failure: kept, so trying again does not make another. */
    readonly customerId?: string,
  ) {
    super(message);
  }
}
