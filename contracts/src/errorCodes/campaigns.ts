import type { ErrorDef } from "./def.js";

/** Campaigns, their settings and their sender (back-office: Campaigns, /campaigns-config, the report). */
export const CAMPAIGN_ERRORS = {
  ERR_CAMPAIGN_NOT_FOUND: {
    status: 404,
    pt: "Campanha não encontrada.",
    en: "Campaign not found.",
    es: "Campaña no encontrada.",
  },
  ERR_CAMPAIGN_NOT_EDITABLE: {
    status: 409,
    pt: "Esta campanha não pode mais ser alterada: só inativas, programadas para daqui a mais de 1 hora ou canceladas.",
    en: "This campaign can no longer be changed: only inactive ones, ones scheduled more than 1 hour ahead, or cancelled ones.",
    es: "Esta campaña ya no se puede modificar: solo las inactivas, las programadas para dentro de más de 1 hora o las canceladas.",
  },
  ERR_CAMPAIGN_NO_MESSAGE: {
    status: 400,
    pt: "Escreva ao menos uma mensagem para a campanha.",
    en: "Write at least one message for the campaign.",
    es: "Escriba al menos un mensaje para la campaña.",
  },
  ERR_CAMPAIGN_NO_CONFIRMATION_MESSAGE: {
    status: 400,
    pt: "Com confirmação ativada, escreva ao menos uma mensagem de confirmação.",
    en: "With confirmation on, write at least one confirmation message.",
    es: "Con la confirmación activada, escriba al menos un mensaje de confirmación.",
  },
  ERR_CAMPAIGN_NO_AUDIENCE: {
    status: 400,
    pt: "Escolha uma lista de contatos ou uma tag para a campanha.",
    en: "Choose a contact list or a tag for the campaign.",
    es: "Elija una lista de contactos o una etiqueta para la campaña.",
  },
  ERR_CAMPAIGN_NO_CONNECTION: {
    status: 400,
    pt: "Escolha a conexão que enviará a campanha.",
    en: "Choose the connection that will send the campaign.",
    es: "Elija la conexión que enviará la campaña.",
  },
  ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND: {
    status: 404,
    pt: "Lista de contatos não encontrada.",
    en: "Contact list not found.",
    es: "Lista de contactos no encontrada.",
  },
  ERR_CAMPAIGN_FILE_LIST_NOT_FOUND: {
    status: 404,
    pt: "Lista de arquivos não encontrada.",
    en: "File list not found.",
    es: "Lista de archivos no encontrada.",
  },
  ERR_CAMPAIGN_CANNOT_CANCEL: {
    status: 409,
    pt: "Só campanhas em andamento ou programadas podem ser canceladas.",
    en: "Only running or scheduled campaigns can be cancelled.",
    es: "Solo las campañas en curso o programadas pueden cancelarse.",
  },
  ERR_CAMPAIGN_CANNOT_RESTART: {
    status: 409,
    pt: "Só campanhas canceladas podem ser reiniciadas.",
    en: "Only cancelled campaigns can be restarted.",
    es: "Solo las campañas canceladas pueden reiniciarse.",
  },
  ERR_CAMPAIGN_NO_MEDIA: {
    status: 400,
    pt: "Envie um arquivo.",
    en: "Send a file.",
    es: "Envíe un archivo.",
  },
  ERR_CAMPAIGN_BAD_SETTINGS: {
    status: 400,
    pt: "Configurações de campanha inválidas.",
    en: "Invalid campaign settings.",
    es: "Configuración de campaña inválida.",
  },
  /** Reasons stored on a recipient that was not sent (the report translates them). */
  ERR_CAMPAIGN_NOT_ON_WHATSAPP: {
    status: 400,
    pt: "Número não está no WhatsApp.",
    en: "Number is not on WhatsApp.",
    es: "El número no está en WhatsApp.",
  },
  ERR_CAMPAIGN_OUTSIDE_WINDOW: {
    status: 409,
    pt: "Fora da janela de 24 horas da API oficial: o contato não escreveu nas últimas 24 horas e a campanha não tem modelo (template) para enviar.",
    en: "Outside the Cloud API's 24-hour window: the contact has not written in the last 24 hours and the campaign has no template to send.",
    es: "Fuera de la ventana de 24 horas de la API oficial: el contacto no escribió en las últimas 24 horas y la campaña no tiene plantilla para enviar.",
  },
  ERR_CAMPAIGN_OPTED_OUT: {
    status: 400,
    pt: "Contato pediu para não receber campanhas.",
    en: "Contact asked not to receive campaigns.",
    es: "El contacto pidió no recibir campañas.",
  },
  ERR_CAMPAIGN_NO_NUMBER: {
    status: 400,
    pt: "Contato sem número válido.",
    en: "Contact without a valid number.",
    es: "Contacto sin número válido.",
  },
  // A recipient's reason on the report, never an HTTP answer; 424 if it ever is one (the provider failed).
  ERR_CAMPAIGN_SEND_FAILED: {
    status: 424,
    pt: "Falha ao enviar a mensagem.",
    en: "Failed to send the message.",
    es: "Error al enviar el mensaje.",
  },
  /** Why a running campaign waits (the list shows it). */
  ERR_CAMPAIGN_PAUSED_DISCONNECTED: {
    status: 409,
    pt: "Pausada: a conexão está desconectada. Continua quando ela reconectar.",
    en: "Paused: the connection is disconnected. It goes on when it reconnects.",
    es: "En pausa: la conexión está desconectada. Continúa cuando se reconecte.",
  },
  ERR_CAMPAIGN_PAUSED_WINDOW: {
    status: 409,
    pt: "Pausada: fora do horário de envio. Continua quando o horário abrir.",
    en: "Paused: outside the sending window. It goes on when the window opens.",
    es: "En pausa: fuera del horario de envío. Continúa cuando abra el horario.",
  },
  ERR_CAMPAIGN_PAUSED_DAILY_CAP: {
    status: 409,
    pt: "Pausada: limite diário de envios da conexão atingido. Continua amanhã.",
    en: "Paused: the connection's daily sending cap was reached. It goes on tomorrow.",
    es: "En pausa: se alcanzó el límite diario de envíos de la conexión. Continúa mañana.",
  },
} as const satisfies Record<string, ErrorDef>;
