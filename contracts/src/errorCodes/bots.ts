import type { ErrorDef } from "./def.js";

/** Bots and AI: queue integrations (Typebot, N8N, webhook, Dialogflow) and AI prompts. */
export const BOT_ERRORS = {
  ERR_NO_QUEUE_INTEGRATION_FOUND: {
    status: 404,
    pt: "Nenhuma integração encontrada com este ID.",
    en: "No integration found with this ID.",
    es: "No se encontró ninguna integración con este ID.",
  },
  ERR_QUEUE_INTEGRATION_NAME_TAKEN: {
    status: 409,
    pt: "Já existe uma integração com este nome.",
    en: "An integration with this name already exists.",
    es: "Ya existe una integración con este nombre.",
  },
  ERR_DIALOGFLOW_JSON_REQUIRED: {
    status: 400,
    pt: "Informe o JSON da conta de serviço do Dialogflow.",
    en: "Enter the Dialogflow service account JSON.",
    es: "Informe el JSON de la cuenta de servicio de Dialogflow.",
  },
  ERR_DIALOGFLOW_JSON_INVALID: {
    status: 400,
    pt: "O JSON da conta de serviço é inválido (faltam client_email ou private_key).",
    en: "The service account JSON is invalid (client_email or private_key missing).",
    es: "El JSON de la cuenta de servicio no es válido (faltan client_email o private_key).",
  },
  ERR_INTEGRATION_URL_FORBIDDEN: {
    status: 400,
    pt: "Esta URL aponta para uma rede privada ou local e não é permitida.",
    en: "This URL points to a private or local network and is not allowed.",
    es: "Esta URL apunta a una red privada o local y no está permitida.",
  },
  ERR_DIALOGFLOW_TEST_FAILED: {
    status: 400,
    pt: "O Dialogflow recusou o teste.",
    en: "Dialogflow refused the test.",
    es: "Dialogflow rechazó la prueba.",
  },
  ERR_NO_PROMPT_FOUND: {
    status: 404,
    pt: "Nenhum prompt encontrado com este ID.",
    en: "No prompt found with this ID.",
    es: "No se encontró ningún prompt con este ID.",
  },
  ERR_PROMPT_NAME_TAKEN: {
    status: 409,
    pt: "Já existe um prompt com este nome.",
    en: "A prompt with this name already exists.",
    es: "Ya existe un prompt con este nombre.",
  },
  ERR_PROMPT_QUEUE_REQUIRED: {
    status: 400,
    pt: "Informe o setor",
    en: "Choose the queue",
    es: "Informe el sector",
  },
  ERR_PROMPT_API_KEY_REQUIRED: {
    status: 400,
    pt: "Informe a chave da API.",
    en: "Enter the API key.",
    es: "Informe la clave de la API.",
  },
} as const satisfies Record<string, ErrorDef>;
