import type { ErrorDef } from "./def.js";

/**
 * AI help for agents (suggest, rephrase, summarize): the company has no usable prompt, or its AI
 * provider failed. A provider failure is 424 (the call depended on it), never 5xx: nothing changed.
 */
export const ASSIST_ERRORS = {
  ERR_ASSIST_NO_PROMPT: {
    status: 422,
    pt: "A empresa não tem um prompt de IA com chave configurado.",
    en: "The company has no AI prompt with a key set up.",
    es: "La empresa no tiene un prompt de IA con clave configurado.",
  },
  ERR_ASSIST_EMPTY_CONVERSATION: {
    status: 422,
    pt: "Ainda não há mensagens para resumir.",
    en: "There are no messages to summarize yet.",
    es: "Todavía no hay mensajes para resumir.",
  },
  ERR_ASSIST_PROVIDER_KEY: {
    status: 424,
    pt: "O provedor de IA recusou a chave da API do prompt.",
    en: "The AI provider refused the prompt's API key.",
    es: "El proveedor de IA rechazó la clave de la API del prompt.",
  },
  ERR_ASSIST_PROVIDER_BUSY: {
    status: 424,
    pt: "O provedor de IA está sobrecarregado ou sem créditos. Tente novamente em instantes.",
    en: "The AI provider is overloaded or out of credits. Try again in a moment.",
    es: "El proveedor de IA está sobrecargado o sin créditos. Inténtelo de nuevo en un momento.",
  },
  ERR_ASSIST_PROVIDER_FAILED: {
    status: 424,
    pt: "O provedor de IA não respondeu. Tente novamente.",
    en: "The AI provider did not answer. Try again.",
    es: "El proveedor de IA no respondió. Inténtelo de nuevo.",
  },
} as const satisfies Record<string, ErrorDef>;
