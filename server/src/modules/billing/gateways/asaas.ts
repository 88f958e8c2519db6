import {
  GatewayError,
  type ChargeState,
  type PaymentGateway,
  type PixChargeCreated,
  type PixChargeRequest,
  type WebhookNotice,
} from "./types.js";
import { type Outbound, createOutbound } from "../../../lib/outbound.js";
import { headerOf, sameSecret } from "./secrets.js";

/**
 * Asaas (https://docs.asaas.com), API v3: customers (POST /customers), Pix charges (POST /payments
 * with billingType PIX), the charge's QR code (GET /payments/{id}/pixQrCode: encodedImage, payload,
 * expirationDate) and its state (GET /payments/{id}). Authenticated by the `access_token` header
 * (the super user's `asaas` setting). Webhooks carry the token set on the webhook in the
 * `asaas-access-token` header; both PAYMENT_RECEIVED (Pix sends only this one) and PAYMENT_CONFIRMED
 * mean the money came.
 */

/** Payment statuses that mean the charge was paid. */
const PAID_STATUSES = new Set(["RECEIVED", "CONFIRMED", "RECEIVED_IN_CASH"]);
/** Webhook events that settle an invoice. */
export const ASAAS_PAID_EVENTS = new Set(["PAYMENT_RECEIVED", "PAYMENT_CONFIRMED"]);

export interface AsaasOptions {
  /** API base with the version: https://api.asaas.com/v3 (sandbox: https://api-sandbox.asaas.com/v3). */
  baseUrl: string;
  apiKey: string;
  /** The token Asaas sends in `asaas-access-token`; empty: every webhook is refused. */
  webhookToken: string;
  timeoutMs?: number;
  /** The app's one guarded client; default: one shared by the gateways built without it. */
  outbound?: Outbound;
}

interface AsaasErrorBody {
  errors?: { code?: string; description?: string }[];
}

/** "2023-05-31 23:59:59", in Brasília time as Asaas writes it, as an instant; null when unreadable. */
export function asaasDateTime(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(value);
  if (!m) return null;
  const at = new Date(`${m[1]}T${m[2]}-03:00`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * Asaas' base (ASAAS_API_URL) is the operator's, trusted by origin; a
 * redirect elsewhere is judged. The fallback client is made once, on first use.
 */
let fallback: Outbound | null = null;

export function asaasGateway(opts: AsaasOptions): PaymentGateway {
  const base = opts.baseUrl.replace(/\/+$/, "");
  const outbound = opts.outbound ?? (fallback ??= createOutbound());

  async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    let res: Response;
    let text: string;
    try {
      res = await outbound.fetch(`${base}${path}`, {
        method,
        headers: {
          access_token: opts.apiKey,
          "content-type": "application/json",
          "user-agent": "atende",
          accept: "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: opts.timeoutMs ?? 15_000,
        trustedBase: base,
      });
      text = await res.text(); // within 1 MiB: Asaas answers a few KB
    } catch (err) {
      throw new GatewayError(`asaas ${method} ${path}: ${(err as Error).message}`);
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const first = (json as AsaasErrorBody | null)?.errors?.[0];
      throw new GatewayError(
        `asaas ${method} ${path}: ${res.status} ${first?.description ?? text.slice(0, 200)}`,
        res.status,
        first?.code,
      );
    }
    return json as T;
  }

  return {
    name: "asaas",
    requiresCpfCnpj: true,

    async createPixCharge(request: PixChargeRequest): Promise<PixChargeCreated> {
      let customerId = request.customerId;
      if (!customerId) {
        const customer = await call<{ id: string }>("POST", "/customers", {
          name: request.payer.name,
          cpfCnpj: request.payer.cpfCnpj,
          email: request.payer.email ?? undefined,
          postalCode: request.payer.postalCode ?? undefined,
          externalReference: `company-${request.companyId}`,
          notificationDisabled: true,
        });
        customerId = customer.id;
      }
      const madeCustomer = customerId;
      const keepingCustomer = (err: unknown): never => {
        if (err instanceof GatewayError && !err.customerId)
          throw new GatewayError(err.message, err.status, err.gatewayCode, madeCustomer);
        throw err;
      };
      const payment = await call<{ id: string; status: string }>("POST", "/payments", {
        customer: customerId,
        billingType: "PIX",
        value: Number(request.value.toFixed(2)),
        dueDate: request.dueDate,
        description: request.description,
        externalReference: `invoice-${request.invoiceId}`,
      }).catch(keepingCustomer);
      const qr = await call<{ encodedImage?: string; payload?: string; expirationDate?: string }>(
        "GET",
        `/payments/${encodeURIComponent(payment.id)}/pixQrCode`,
      ).catch(keepingCustomer);
      if (!qr.payload)
        return keepingCustomer(new GatewayError(`asaas pixQrCode of ${payment.id}: no payload`));
      return {
        externalId: payment.id,
        txid: payment.id,
        payload: qr.payload,
        imageBase64: qr.encodedImage ?? null,
        expiresAt: asaasDateTime(qr.expirationDate),
        customerId,
      };
    },

    verifyWebhook(headers) {
      return sameSecret(headerOf(headers, "asaas-access-token"), opts.webhookToken);
    },

    readWebhook(body: unknown): WebhookNotice | null {
      if (!body || typeof body !== "object") return null;
      const b = body as { id?: unknown; event?: unknown; payment?: { id?: unknown } };
      if (typeof b.event !== "string") return null;
      const externalId = typeof b.payment?.id === "string" ? b.payment.id : null;
      if (!externalId) return null;
      const eventKey = typeof b.id === "string" && b.id ? b.id : `${b.event}:${externalId}`;
      return { eventKey, eventType: b.event, externalId, paid: ASAAS_PAID_EVENTS.has(b.event) };
    },

    async fetchCharge(externalId: string): Promise<ChargeState | null> {
      try {
        const payment = await call<{ id: string; status: string }>(
          "GET",
          `/payments/${encodeURIComponent(externalId)}`,
        );
        return { externalId: payment.id, status: payment.status, paid: PAID_STATUSES.has(payment.status) };
      } catch (err) {
        if (err instanceof GatewayError && err.status === 404) return null;
        throw err;
      }
    },
  };
}
