import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import QRCode from "qrcode";
import { createDynamicPix, hasError } from "pix-utils";
import { isValidCpfCnpj } from "@atende/contracts";

/**
 * A local stand-in for Asaas' API v3 (https://docs.asaas.com), started by a test on 127.0.0.1 with
 * a random port. It speaks the documented payloads: POST /customers, POST /payments (billingType
 * PIX), GET /payments/{id}, GET /payments/{id}/pixQrCode ({ encodedImage, payload, expirationDate }),
 * authenticated by the `access_token` header, and errors as `{ errors: [{ code, description }] }`
 * (400 invalid_cpfCnpj, invalid_customer, invalid_value, invalid_dueDate; 401 for a bad key; 404).
 * A test marks a payment paid (`pay`), and builds the webhook Asaas would send (`webhookBody`).
 */

export interface AsaasPayment {
  object: "payment";
  id: string;
  dateCreated: string;
  customer: string;
  value: number;
  netValue: number;
  billingType: string;
  status: string;
  dueDate: string;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  description: string | null;
  externalReference: string | null;
  invoiceUrl: string;
  deleted: boolean;
}

export interface RecordedAsaasRequest {
  method: string;
  /** Without the /v3 prefix: "/customers", "/payments/pay_1/pixQrCode". */
  path: string;
  accessToken: string | undefined;
  json?: unknown;
}

export interface FakeAsaas {
  /** As ASAAS_API_URL: http://127.0.0.1:<port>/v3 */
  url: string;
  apiKey: string;
  requests: RecordedAsaasRequest[];
  payments: Map<string, AsaasPayment>;
  /** The BR Code (copia e cola) the fake answers for a payment. */
  pixPayloadOf(paymentId: string): string;
  /** The payment was paid by Pix: status RECEIVED (what Asaas shows for Pix). */
  pay(paymentId: string, status?: "RECEIVED" | "CONFIRMED"): AsaasPayment;
  /** The webhook body Asaas posts for this payment and event, with a fresh event id unless given. */
  webhookBody(paymentId: string, event: string, eventId?: string): Record<string, unknown>;
  /** The next request to a path ending with `pathEndsWith` answers this status and Asaas error. */
  failNext(failure: { status: number; code?: string; description?: string; pathEndsWith?: string }): void;
  close(): Promise<void>;
}

const today = () => new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
const stamp = () => new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 19).replace("T", " ");

export async function startFakeAsaas(opts: { apiKey?: string } = {}): Promise<FakeAsaas> {
  const apiKey = opts.apiKey ?? `$aact_test_${crypto.randomBytes(8).toString("hex")}`;
  const requests: RecordedAsaasRequest[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const payments = new Map<string, AsaasPayment>();
  const pixPayloads = new Map<string, string>();
  const failures: { status: number; code?: string; description?: string; pathEndsWith?: string }[] = [];
  let seq = 0;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, code: string, description: string) =>
    send(res, status, { errors: [{ code, description }] });

  function pixPayloadOf(paymentId: string): string {
    let payload = pixPayloads.get(paymentId);
    if (!payload) {
      const pix = createDynamicPix({
        merchantName: "ASAAS TESTE",
        merchantCity: "JOINVILLE",
        url: `pix.asaas.com/qr/cobv/${crypto.randomUUID()}`,
        oneTime: true,
      });
      if (hasError(pix)) throw new Error("fake asaas: could not build a BR Code");
      payload = pix.toBRCode();
      pixPayloads.set(paymentId, payload);
    }
    return payload;
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let json: unknown;
    try {
      json = raw ? JSON.parse(raw) : undefined;
    } catch {
      return error(res, 400, "invalid_json", "JSON inválido.");
    }
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname.replace(/^\/v3/, "");
    const accessToken = req.headers.access_token as string | undefined;
    requests.push({ method: req.method ?? "GET", path, accessToken, json });

    if (accessToken !== apiKey) {
      return error(res, 401, "invalid_access_token", "A chave de API fornecida é inválida");
    }
    const failure = failures.findIndex((f) => !f.pathEndsWith || path.endsWith(f.pathEndsWith));
    if (failure >= 0) {
      const f = failures.splice(failure, 1)[0]!;
      return error(res, f.status, f.code ?? "internal_error", f.description ?? "Erro interno.");
    }
    const body = (json ?? {}) as Record<string, unknown>;

    if (req.method === "POST" && path === "/customers") {
      if (typeof body.name !== "string" || !body.name.trim())
        return error(res, 400, "invalid_name", "O nome do cliente deve ser informado.");
      if (typeof body.cpfCnpj !== "string" || !isValidCpfCnpj(body.cpfCnpj))
        return error(res, 400, "invalid_cpfCnpj", "O CPF/CNPJ informado é inválido.");
      const id = `cus_${String(++seq).padStart(12, "0")}`;
      const customer = {
        object: "customer",
        id,
        dateCreated: today(),
        name: body.name,
        email: body.email ?? null,
        cpfCnpj: body.cpfCnpj.replace(/\D/g, ""),
        postalCode: body.postalCode ?? null,
        personType: body.cpfCnpj.replace(/\D/g, "").length === 11 ? "FISICA" : "JURIDICA",
        externalReference: body.externalReference ?? null,
        notificationDisabled: body.notificationDisabled ?? false,
        deleted: false,
      };
      customers.set(id, customer);
      return send(res, 200, customer);
    }

    if (req.method === "POST" && path === "/payments") {
      if (typeof body.customer !== "string" || !customers.has(body.customer))
        return error(res, 400, "invalid_customer", "Customer inválido ou não informado.");
      if (!["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"].includes(String(body.billingType)))
        return error(res, 400, "invalid_billingType", "Forma de pagamento inválida.");
      if (typeof body.value !== "number" || body.value < 5)
        return error(res, 400, "invalid_value", "O valor da cobrança deve ser maior ou igual a R$ 5,00.");
      if (
        typeof body.dueDate !== "string" ||
        !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate) ||
        body.dueDate < today()
      )
        return error(res, 400, "invalid_dueDate", "Não é permitido data de vencimento inferior a hoje.");
      const id = `pay_${crypto.randomBytes(6).toString("hex")}`;
      const payment: AsaasPayment = {
        object: "payment",
        id,
        dateCreated: today(),
        customer: body.customer,
        value: body.value,
        netValue: Math.round(body.value * 0.99 * 100) / 100,
        billingType: String(body.billingType),
        status: "PENDING",
        dueDate: body.dueDate,
        paymentDate: null,
        clientPaymentDate: null,
        description: typeof body.description === "string" ? body.description : null,
        externalReference: typeof body.externalReference === "string" ? body.externalReference : null,
        invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`,
        deleted: false,
      };
      payments.set(id, payment);
      return send(res, 200, payment);
    }

    const qr = /^\/payments\/([^/]+)\/pixQrCode$/.exec(path);
    if (req.method === "GET" && qr) {
      const payment = payments.get(decodeURIComponent(qr[1]!));
      if (!payment) return error(res, 404, "not_found", "Cobrança não encontrada.");
      const payload = pixPayloadOf(payment.id);
      const image = await QRCode.toDataURL(payload);
      return send(res, 200, {
        encodedImage: image.replace(/^data:image\/png;base64,/, ""),
        payload,
        expirationDate: `${payment.dueDate} 23:59:59`,
        success: true,
      });
    }

    const one = /^\/payments\/([^/]+)$/.exec(path);
    if (req.method === "GET" && one) {
      const payment = payments.get(decodeURIComponent(one[1]!));
      if (!payment) return error(res, 404, "not_found", "Cobrança não encontrada.");
      return send(res, 200, payment);
    }

    return error(res, 404, "not_found", "Recurso não encontrado.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v3`,
    apiKey,
    requests,
    payments,
    pixPayloadOf,
    pay(paymentId, status = "RECEIVED") {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`fake asaas: no payment ${paymentId}`);
      payment.status = status;
      payment.paymentDate = today();
      payment.clientPaymentDate = today();
      return payment;
    },
    webhookBody(paymentId, event, eventId) {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`fake asaas: no payment ${paymentId}`);
      return {
        id: eventId ?? `evt_${crypto.randomBytes(16).toString("hex")}&${++seq}`,
        event,
        dateCreated: stamp(),
        payment: { ...payment },
      };
    },
    failNext(failure) {
      failures.push(failure);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
