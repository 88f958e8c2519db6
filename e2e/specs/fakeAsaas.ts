import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";

/**
 * A stand-in for Asaas' API v3 (https://docs.asaas.com) for the billing e2e: the calls the server's
 * Asaas gateway makes (POST /v3/customers, POST /v3/payments with billingType PIX,
 * GET /v3/payments/{id}/pixQrCode, GET /v3/payments/{id}), with the `access_token` header checked as
 * Asaas does (401 without the right key). `receive` plays the payer: the payment becomes RECEIVED
 * and Asaas' PAYMENT_RECEIVED webhook goes to the server with the `asaas-access-token` header.
 */
export interface FakeAsaas {
  /** The base the server is started with (ASAAS_API_URL): http://127.0.0.1:<port>/v3 */
  baseUrl: string;
  /** Every payment made, in order. */
  payments: FakePayment[];
  /** Pays `paymentId` and delivers the webhook to `webhookUrl`; answers the server's status code. */
  receive(paymentId: string, webhookUrl: string, webhookToken: string): Promise<number>;
  close(): Promise<void>;
}

export interface FakePayment {
  id: string;
  customer: string;
  value: number;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
  status: "PENDING" | "RECEIVED";
  /** The BR Code (copia e cola) its QR code carries. */
  payload: string;
}

/** One EMV field: id, two-digit length, value. */
const emv = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;

/** CRC16/CCITT-FALSE over the code and "6304", as the BR Code standard ends every code. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** A dynamic Pix BR Code like Asaas' (its location URL in field 26), for `value` reais. */
function brCode(paymentId: string, value: number): string {
  const account = emv("00", "br.gov.bcb.pix") + emv("25", `pix.asaas.test/qr/cobv/${paymentId}`);
  const body =
    emv("00", "01") +
    emv("01", "12") +
    emv("26", account) +
    emv("52", "0000") +
    emv("53", "986") +
    emv("54", value.toFixed(2)) +
    emv("58", "BR") +
    emv("59", "ATENDE PLATAFORMA") +
    emv("60", "SAO PAULO") +
    emv("62", emv("05", "***")) +
    "6304";
  return body + crc16(body);
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** "2026-11-27 23:59:59": how Asaas writes a date and time (Brasília). */
function asaasDateTime(at: Date): string {
  const local = new Date(at.getTime() - 3 * 3_600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)}`;
}

export async function startFakeAsaas(port: number, apiKey: string): Promise<FakeAsaas> {
  const payments: FakePayment[] = [];
  const customers = new Map<string, Record<string, unknown>>();
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const notFound = () =>
      send(404, { errors: [{ code: "not_found", description: "Recurso não encontrado" }] });
    void (async () => {
      if (req.headers.access_token !== apiKey) {
        return send(401, {
          errors: [
            {
              code: "invalid_access_token",
              description: "A chave de API informada não pertence a este ambiente",
            },
          ],
        });
      }
      const url = new URL(req.url ?? "/", "http://fake");
      const path = url.pathname;
      if (req.method === "POST" && path === "/v3/customers") {
        const body = await bodyOf(req);
        if (!body.name || !body.cpfCnpj) {
          return send(400, {
            errors: [{ code: "invalid_cpfCnpj", description: "O CPF/CNPJ informado é inválido." }],
          });
        }
        const id = `cus_${randomUUID().slice(0, 12)}`;
        customers.set(id, body);
        return send(200, { object: "customer", id, ...body });
      }
      if (req.method === "POST" && path === "/v3/payments") {
        const body = await bodyOf(req);
        if (!customers.has(String(body.customer))) {
          return send(400, {
            errors: [{ code: "invalid_customer", description: "Customer inválido ou não informado." }],
          });
        }
        if (body.billingType !== "PIX") {
          return send(400, {
            errors: [{ code: "invalid_billingType", description: "Forma de pagamento inválida." }],
          });
        }
        const id = `pay_${randomUUID().slice(0, 12)}`;
        const value = Number(body.value);
        const payment: FakePayment = {
          id,
          customer: String(body.customer),
          value,
          dueDate: String(body.dueDate),
          description: typeof body.description === "string" ? body.description : null,
          externalReference: typeof body.externalReference === "string" ? body.externalReference : null,
          status: "PENDING",
          payload: brCode(id, value),
        };
        payments.push(payment);
        return send(200, { object: "payment", ...payment, billingType: "PIX", netValue: value });
      }
      const qr = /^\/v3\/payments\/([^/]+)\/pixQrCode$/.exec(path);
      if (req.method === "GET" && qr) {
        const payment = payments.find((p) => p.id === qr[1]);
        if (!payment) return notFound();
        return send(200, {
          // A 1x1 PNG: the app draws its own QR code from the payload.
          encodedImage:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
          payload: payment.payload,
          expirationDate: asaasDateTime(new Date(Date.now() + 24 * 3_600_000)),
        });
      }
      const one = /^\/v3\/payments\/([^/]+)$/.exec(path);
      if (req.method === "GET" && one) {
        const payment = payments.find((p) => p.id === one[1]);
        return payment ? send(200, { object: "payment", ...payment, billingType: "PIX" }) : notFound();
      }
      notFound();
    })().catch((error: unknown) => send(500, { errors: [{ code: "fake", description: String(error) }] }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });

  return {
    baseUrl: `http://127.0.0.1:${port}/v3`,
    payments,
    async receive(paymentId, webhookUrl, webhookToken) {
      const payment = payments.find((p) => p.id === paymentId);
      if (!payment) throw new Error(`no payment ${paymentId}`);
      payment.status = "RECEIVED";
      const res = await fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "asaas-access-token": webhookToken },
        body: JSON.stringify({
          id: `evt_${randomUUID().replace(/-/g, "").slice(0, 16)}`,
          event: "PAYMENT_RECEIVED",
          dateCreated: asaasDateTime(new Date()),
          payment: {
            object: "payment",
            ...payment,
            billingType: "PIX",
            paymentDate: new Date().toISOString().slice(0, 10),
          },
        }),
      });
      return res.status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
