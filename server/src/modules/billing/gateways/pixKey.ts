import { createStaticPix, hasError } from "pix-utils";
import { GatewayError, type PaymentGateway, type PixChargeCreated, type PixChargeRequest } from "./types.js";

/**
 * A plain Pix key, for a platform without a gateway account: an EMV BR Code (static Pix with the
 * amount and the invoice as txid) built by pix-utils. No one tells us it was paid: the super user
 * sees the money arrive and marks the invoice paid by hand; webhooks and polling do not apply.
 */
export interface PixKeyOptions {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  /** How long the checkout shows the code as valid. */
  expirationSeconds: number;
  now: () => Date;
}

/** The txid of an invoice: letters and digits only, at most 25 (BR Code field 62-05). */
export function invoiceTxid(invoiceId: number): string {
  return `FATURA${invoiceId}`;
}

/** The BR Code's receiver name (max 25) and city (max 15), without accents as the standard asks. */
function emvText(value: string, max: number): string {
  return value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9 .-]/g, "")
    .trim()
    .slice(0, max)
    .toUpperCase();
}

export function buildBrCode(opts: {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  amount: number;
  txid: string;
  info?: string;
}): string {
  const pix = createStaticPix({
    pixKey: opts.pixKey.trim(),
    merchantName: emvText(opts.merchantName, 25) || "ATENDE",
    merchantCity: emvText(opts.merchantCity, 15) || "SAO PAULO",
    transactionAmount: Number(opts.amount.toFixed(2)),
    txid: opts.txid,
    infoAdicional: opts.info ? emvText(opts.info, 40) : undefined,
  });
  if (hasError(pix))
    throw new GatewayError(`pix key BR Code: ${(pix as { message?: string }).message ?? "invalid"}`);
  return pix.toBRCode();
}

export function pixKeyGateway(opts: PixKeyOptions): PaymentGateway {
  return {
    name: "pixKey",
    requiresCpfCnpj: false,
    async createPixCharge(request: PixChargeRequest): Promise<PixChargeCreated> {
      if (!opts.pixKey.trim()) throw new GatewayError("pix key gateway without a key");
      const txid = invoiceTxid(request.invoiceId);
      const payload = buildBrCode({
        pixKey: opts.pixKey,
        merchantName: opts.merchantName,
        merchantCity: opts.merchantCity,
        amount: request.value,
        txid,
        info: `Fatura ${request.invoiceId}`,
      });
      return {
        externalId: txid,
        txid,
        payload,
        imageBase64: null,
        expiresAt: new Date(opts.now().getTime() + opts.expirationSeconds * 1000),
        customerId: null,
      };
    },
    // No webhook: a plain Pix key has nobody to call us.
    verifyWebhook: () => false,
    readWebhook: () => null,
    fetchCharge: async () => null,
  };
}
