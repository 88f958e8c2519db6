import type { ErrorDef } from "./def.js";

/** Atende's own codes that any route can answer: validation, sessions, limits, the database. */
export const GENERAL_ERRORS = {
  ERR_VALIDATION: {
    status: 400,
    pt: "Alguns campos são inválidos.",
    en: "Some fields are invalid.",
    es: "Algunos campos no son válidos.",
  },
  ERR_NOT_FOUND: {
    status: 404,
    pt: "Registro não encontrado.",
    en: "Record not found.",
    es: "Registro no encontrado.",
  },
  ERR_TOO_MANY_LOGIN_ATTEMPTS: {
    status: 429,
    pt: "Muitas tentativas de login. Aguarde alguns minutos e tente novamente.",
    en: "Too many login attempts. Wait a few minutes and try again.",
    es: "Demasiados intentos de inicio de sesión. Espere unos minutos e inténtelo de nuevo.",
  },
  ERR_TOO_MANY_REQUESTS: {
    status: 429,
    pt: "Muitas requisições. Aguarde um pouco e tente novamente.",
    en: "Too many requests. Wait a moment and try again.",
    es: "Demasiadas solicitudes. Espere un momento e inténtelo de nuevo.",
  },
  ERR_NO_SESSION: {
    status: 401,
    pt: "Sessão não encontrada. Por favor, entre novamente.",
    en: "No session. Please log in.",
    es: "No hay sesión. Por favor, inicie sesión.",
  },
  ERR_EMAIL_ALREADY_EXISTS: {
    status: 409,
    pt: "Já existe um usuário com este e-mail.",
    en: "A user with this email already exists.",
    es: "Ya existe un usuario con este correo.",
  },
  ERR_CANNOT_DELETE_SELF: {
    status: 400,
    pt: "Você não pode excluir o seu próprio usuário.",
    en: "You cannot delete your own user.",
    es: "No puede eliminar su propio usuario.",
  },
  ERR_LAST_ADMIN: {
    status: 400,
    pt: "A empresa precisa de pelo menos um administrador.",
    en: "The company needs at least one administrator.",
    es: "La empresa necesita al menos un administrador.",
  },
  ERR_PAYLOAD_TOO_LARGE: {
    status: 413,
    pt: "O conteúdo enviado é grande demais.",
    en: "The request is too large.",
    es: "El contenido enviado es demasiado grande.",
  },
  ERR_ROUTE_NOT_FOUND: {
    status: 404,
    pt: "Rota não encontrada.",
    en: "Route not found.",
    es: "Ruta no encontrada.",
  },
  ERR_DATABASE_UNAVAILABLE: {
    status: 503,
    pt: "O banco de dados está indisponível no momento. Tente novamente em alguns segundos.",
    en: "The database is unavailable right now. Try again in a few seconds.",
    es: "La base de datos no está disponible en este momento. Inténtelo de nuevo en unos segundos.",
  },
  ERR_INTERNAL: {
    status: 500,
    pt: "Erro interno do servidor.",
    en: "Internal server error.",
    es: "Error interno del servidor.",
  },
} as const satisfies Record<string, ErrorDef>;
