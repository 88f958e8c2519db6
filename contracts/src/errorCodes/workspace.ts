import type { ErrorDef } from "./def.js";

/** Atende's own codes of the agent workspace: connections, tickets, messages, tags, queues, schedules. */
export const WORKSPACE_ERRORS = {
  ERR_NO_QUEUE_FOUND: {
    status: 404,
    pt: "Nenhuma fila encontrada com este ID.",
    en: "No queue found with this ID.",
    es: "No se encontró ninguna cola con este ID.",
  },
  ERR_WAPP_24H_WINDOW: {
    status: 409,
    pt: "Passaram-se mais de 24 horas desde a última mensagem do cliente: é preciso enviar um modelo (template) aprovado.",
    en: "More than 24 hours have passed since the customer's last message: an approved template is needed.",
    es: "Pasaron más de 24 horas desde el último mensaje del cliente: se necesita una plantilla aprobada.",
  },
  ERR_WEBHOOK_SIGNATURE: {
    status: 401,
    pt: "Assinatura do webhook inválida.",
    en: "Invalid webhook signature.",
    es: "Firma del webhook inválida.",
  },
  ERR_MEDIA_TOO_LARGE: {
    status: 413,
    pt: "O arquivo é grande demais.",
    en: "The file is too large.",
    es: "El archivo es demasiado grande.",
  },
  ERR_WAPP_NAME_TAKEN: {
    status: 409,
    pt: "Já existe uma conexão com este nome.",
    en: "A connection with this name already exists.",
    es: "Ya existe una conexión con este nombre.",
  },
  ERR_WAPP_TOKEN_TAKEN: {
    status: 409,
    pt: "Este token já está em uso por outra conexão.",
    en: "This token is already used by another connection.",
    es: "Este token ya está en uso por otra conexión.",
  },
  ERR_TICKET_ACCESS_DENIED: {
    status: 403,
    pt: "Acesso não permitido",
    en: "Access not allowed",
    es: "Acceso no permitido",
  },
  ERR_TICKET_NOT_OPEN: {
    status: 409,
    pt: "Aceite o atendimento antes de responder.",
    en: "Accept the ticket before replying.",
    es: "Acepte el ticket antes de responder.",
  },
  ERR_NOT_MESSAGE_AUTHOR: {
    status: 403,
    pt: "Somente quem enviou a mensagem pode editá-la ou apagá-la.",
    en: "Only the sender can edit or delete this message.",
    es: "Solo quien envió el mensaje puede editarlo o borrarlo.",
  },
  ERR_EMPTY_MESSAGE: {
    status: 400,
    pt: "Mensagem vazia não é enviada.",
    en: "An empty message is not sent.",
    es: "Un mensaje vacío no se envía.",
  },
  ERR_NO_TAG_FOUND: {
    status: 404,
    pt: "Nenhuma tag encontrada com este ID.",
    en: "No tag found with this ID.",
    es: "No se encontró ninguna etiqueta con este ID.",
  },
  ERR_TAG_NAME_TAKEN: {
    status: 409,
    pt: "Já existe uma tag com este nome.",
    en: "A tag with this name already exists.",
    es: "Ya existe una etiqueta con este nombre.",
  },
  ERR_IMPORT_INVALID_FILE: {
    status: 400,
    pt: "Não foi possível ler o arquivo. Envie um CSV ou XLSX com as colunas nome e número.",
    en: "The file could not be read. Send a CSV or XLSX file with name and number columns.",
    es: "No se pudo leer el archivo. Envíe un CSV o XLSX con las columnas nombre y número.",
  },
  ERR_IMPORT_TOO_MANY_ROWS: {
    status: 400,
    pt: "O arquivo tem linhas demais: importe no máximo 10.000 contatos por vez.",
    en: "The file has too many rows: import at most 10,000 contacts at a time.",
    es: "El archivo tiene demasiadas filas: importe como máximo 10.000 contactos a la vez.",
  },
  ERR_QUEUE_NAME_ALREADY_EXISTS: {
    status: 409,
    pt: "Já existe uma fila com este nome.",
    en: "A queue with this name already exists.",
    es: "Ya existe una cola con este nombre.",
  },
  ERR_NO_QUEUE_OPTION_FOUND: {
    status: 404,
    pt: "Nenhuma opção de fila encontrada com este ID.",
    en: "No queue option found with this ID.",
    es: "No se encontró ninguna opción de cola con este ID.",
  },
  ERR_QUEUE_OPTION_NUMBER_TAKEN: {
    status: 409,
    pt: "Já existe uma opção com este número neste menu.",
    en: "This menu already has an option with this number.",
    es: "Este menú ya tiene una opción con este número.",
  },
  ERR_QUEUE_OPTIONS_LIMIT: {
    status: 400,
    pt: "O menu desta fila chegou ao limite de opções ou de níveis.",
    en: "This queue's menu has reached its limit of options or levels.",
    es: "El menú de esta cola llegó al límite de opciones o de niveles.",
  },
  ERR_NO_TICKET_NOTE_FOUND: {
    status: 404,
    pt: "Nenhuma observação encontrada com este ID.",
    en: "No note found with this ID.",
    es: "No se encontró ninguna observación con este ID.",
  },
  ERR_NO_QUICK_MESSAGE_FOUND: {
    status: 404,
    pt: "Nenhuma resposta rápida encontrada com este ID.",
    en: "No quick message found with this ID.",
    es: "No se encontró ninguna respuesta rápida con este ID.",
  },
  ERR_NO_SCHEDULE_FOUND: {
    status: 404,
    pt: "Nenhum agendamento encontrado com este ID.",
    en: "No schedule found with this ID.",
    es: "No se encontró ninguna programación con este ID.",
  },
  ERR_SCHEDULE_ALREADY_SENT: {
    status: 409,
    pt: "Este agendamento já foi enviado e não pode mais ser alterado.",
    en: "This schedule has already been sent and can no longer be changed.",
    es: "Esta programación ya fue enviada y no se puede modificar.",
  },
  ERR_SCHEDULE_CONNECTION_DOWN: {
    status: 409,
    pt: "A conexão escolhida não estava conectada na hora do envio.",
    en: "The chosen connection was not connected at sending time.",
    es: "La conexión elegida no estaba conectada a la hora del envío.",
  },
} as const satisfies Record<string, ErrorDef>;
