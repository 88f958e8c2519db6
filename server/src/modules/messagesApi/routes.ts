import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { API_SEND_RATE_PER_MINUTE, apiSendSchema, publicSendResultSchema } from "@atende/contracts";
import { bearerToken } from "../../http/auth.js";
import { AppError, parseInput } from "../../http/errors.js";
import { routes } from "../../http/route.js";
import { readMediaForm } from "../../http/upload.js";
import {
  API_TOKEN_FAILURES,
  type MessagesApiDeps,
  type MessagesApiService,
  createMessagesApiService,
} from "./service.js";

const DESCRIPTION = `Sends a WhatsApp message through the connection whose token is sent, into the contact's open ticket on that connection (or a new one, in \`queueId\` when given).

JSON: \`{"number": "5511999999999", "body": "Olá"}\`. Multipart: fields \`number\`, \`body\` (the first file's caption) and one or more files under \`medias\`. Optional: \`queueId\`, \`userId\`, \`closeTicket\`, \`quotedMsgId\` (of the same company).

Header \`Idempotency-Key\` (1-200 visible characters): a retried call with the same key sends nothing again and answers the first call's answer.

Answer 200: \`{"mensagem": "Mensagem enviada", "messageId", "messageIds", "ticketId", "ticketUuid", "contactId"}\`. A number not on WhatsApp: 400 ERR_WAPP_INVALID_CONTACT. On a WhatsApp Cloud API connection, a contact who has not written in the last 24 hours can only be reached by an approved template: 409 ERR_WAPP_24H_WINDOW, and nothing is sent.

The token is the one the server generated for the connection (a new connection has none: POST /whatsapp/{id}/token makes one and shows it once). After ${API_TOKEN_FAILURES.max} calls with a wrong token from one address (an IPv6 one: its /64) within ${API_TOKEN_FAILURES.windowSeconds / 60} minutes, every call from that address answers 429 ERR_TOO_MANY_REQUESTS (Retry-After) until the window ends, except one with a generated token of the connection (43 characters), which still passes.`;

export function messagesApiRoutes(app: FastifyInstance, api: MessagesApiService) {
  const r = routes(app);
  r.post(
    "/api/messages/send",
    {
      // No session: the connection's token is the caller (checked first thing in the handler).
      access: "public",
      connectionToken: true,
      bodyDoc: apiSendSchema,
      errors: [
        "ERR_API_IDEMPOTENCY_KEY_INVALID",
        "ERR_API_QUEUE_NOT_FOUND",
        "ERR_API_QUOTED_NOT_FOUND",
        "ERR_API_USER_NOT_FOUND",
        "ERR_EMPTY_MESSAGE",
        "ERR_WAPP_24H_WINDOW",
        "ERR_WAPP_INVALID_CONTACT",
      ],
      consumes: ["application/json", "multipart/form-data"],
      response: publicSendResultSchema,
      rateLimit: { max: API_SEND_RATE_PER_MINUTE, windowSeconds: 60, by: "token" },
      summary: "Send a message with a connection's token",
      description: DESCRIPTION,
      operationId: "messagesApi.send",
      examples: {
        text: {
          summary: "A text to a number",
          value: { number: "5511987654321", body: "Seu pedido saiu para entrega." },
        },
        queued: {
          summary: "Into a queue, closing the ticket after sending",
          value: {
            number: "5511987654321",
            body: "Pagamento confirmado, obrigado!",
            queueId: 2,
            closeTicket: true,
          },
        },
      },
    },
    async (_input, req, reply) => {
      const caller = await api.authenticate(bearerToken(req), req.ip).catch((err: unknown) => {
        if (err instanceof AppError && typeof err.extra.retryAfter === "number")
          reply.header("retry-after", String(err.extra.retryAfter));
        throw err;
      });
      const key = api.idempotencyKey(req.headers["idempotency-key"]);
      if (req.isMultipart()) {
        const { fields, files } = await readMediaForm(req);
        return api.send(caller, parseInput(apiSendSchema, fields, req), files, key);
      }
      return api.send(caller, parseInput(apiSendSchema, req.body ?? {}, req), [], key);
    },
  );
}

/** The public messages API: POST /api/messages/send with a connection's bearer token. */
export async function messagesApiModule(
  parent: FastifyInstance,
  deps: MessagesApiDeps & { maxFileBytes: number },
): Promise<MessagesApiService> {
  const api = createMessagesApiService(deps);
  parent.addHook("onClose", () => api.close());
  await parent.register(async (app) => {
    await app.register(multipart, {
      limits: { fileSize: deps.maxFileBytes, files: 10, fields: 20 },
      throwFileSizeLimit: true,
    });
    messagesApiRoutes(app, api);
  });
  return api;
}
