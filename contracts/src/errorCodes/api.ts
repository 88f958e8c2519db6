import type { ErrorDef } from "./def.js";

/** The public API (POST /api/messages/send), outbound webhooks and the metrics endpoint. */
export const API_ERRORS = {
  ERR_API_TOKEN_INVALID: {
    status: 401,
    pt: "Token inválido: use o token de uma conexão desta empresa (Conexões → editar → Token).",
    en: "Invalid token: use the token of one of the company's connections (Connections → edit → Token).",
    es: "Token inválido: use el token de una conexión de esta empresa (Conexiones → editar → Token).",
  },
  ERR_API_IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    pt: "O cabeçalho Idempotency-Key deve ter de 1 a 200 caracteres visíveis.",
    en: "The Idempotency-Key header must be 1 to 200 visible characters.",
    es: "El encabezado Idempotency-Key debe tener de 1 a 200 caracteres visibles.",
  },
  ERR_API_QUEUE_NOT_FOUND: {
    status: 400,
    pt: "A fila informada (queueId) não existe nesta empresa.",
    en: "The queue given (queueId) does not exist in this company.",
    es: "La cola indicada (queueId) no existe en esta empresa.",
  },
  ERR_API_USER_NOT_FOUND: {
    status: 400,
    pt: "O usuário informado (userId) não existe nesta empresa.",
    en: "The user given (userId) does not exist in this company.",
    es: "El usuario indicado (userId) no existe en esta empresa.",
  },
  ERR_API_QUOTED_NOT_FOUND: {
    status: 400,
    pt: "A mensagem citada (quotedMsgId) não existe nesta conversa.",
    en: "The quoted message (quotedMsgId) does not exist in this conversation.",
    es: "El mensaje citado (quotedMsgId) no existe en esta conversación.",
  },
  ERR_WEBHOOK_URL_INVALID: {
    status: 400,
    pt: "Informe uma URL http ou https válida.",
    en: "Enter a valid http or https URL.",
    es: "Indique una URL http o https válida.",
  },
  ERR_WEBHOOK_URL_FORBIDDEN: {
    status: 400,
    pt: "Esta URL aponta para uma rede privada ou local e não é permitida.",
    en: "This URL points to a private or local network and is not allowed.",
    es: "Esta URL apunta a una red privada o local y no está permitida.",
  },
  ERR_WEBHOOK_NOT_FOUND: {
    status: 404,
    pt: "Webhook não encontrado.",
    en: "Webhook not found.",
    es: "Webhook no encontrado.",
  },
  ERR_METRICS_TOKEN_INVALID: {
    status: 401,
    pt: "Token de métricas inválido.",
    en: "Invalid metrics token.",
    es: "Token de métricas inválido.",
  },
} as const satisfies Record<string, ErrorDef>;
