import type { ErrorDef } from "./def.js";

/**
 * The WhatsApp Cloud API's own failures an agent sees: message templates (Meta's 132000 series),
 * a send whose outcome is not known yet, and the template list of a connection.
 */
export const CLOUD_ERRORS = {
  ERR_WAPP_SEND_UNKNOWN: {
    status: 409,
    pt: "Não sabemos se a mensagem saiu (o WhatsApp não respondeu a tempo). Ela não será reenviada sozinha: aguarde a confirmação do WhatsApp.",
    en: "We do not know whether the message went out (WhatsApp did not answer in time). It will not be sent again by itself: wait for WhatsApp's confirmation.",
    es: "No sabemos si el mensaje salió (WhatsApp no respondió a tiempo). No se reenviará solo: espere la confirmación de WhatsApp.",
  },
  ERR_WAPP_TEMPLATE: {
    status: 422,
    pt: "O WhatsApp recusou o modelo (template) de mensagem.",
    en: "WhatsApp refused the message template.",
    es: "WhatsApp rechazó la plantilla de mensaje.",
  },
  ERR_WAPP_TEMPLATE_PARAMS: {
    status: 422,
    pt: "As variáveis não combinam com o modelo: confira quantas são, o formato e o tamanho do texto.",
    en: "The variables do not match the template: check how many there are, their format and the text's length.",
    es: "Las variables no coinciden con la plantilla: revise cuántas son, su formato y el largo del texto.",
  },
  ERR_WAPP_TEMPLATE_MISSING: {
    status: 404,
    pt: "Este modelo não existe (ou não existe neste idioma) na conta do WhatsApp Business.",
    en: "This template does not exist (or not in this language) in the WhatsApp Business account.",
    es: "Esta plantilla no existe (o no en este idioma) en la cuenta de WhatsApp Business.",
  },
  ERR_WAPP_TEMPLATE_PAUSED: {
    status: 409,
    pt: "O WhatsApp pausou ou desativou este modelo por baixa qualidade: escolha outro.",
    en: "WhatsApp paused or disabled this template for low quality: choose another one.",
    es: "WhatsApp pausó o desactivó esta plantilla por baja calidad: elija otra.",
  },
  ERR_WAPP_TEMPLATES: {
    status: 424,
    pt: "Não foi possível carregar os modelos aprovados do WhatsApp. Tente novamente.",
    en: "The approved WhatsApp templates could not be loaded. Try again.",
    es: "No se pudieron cargar las plantillas aprobadas de WhatsApp. Inténtelo de nuevo.",
  },
  // Why a Cloud API connection needs a person (its status and the admins' mail say it).
  ERR_WAPP_TOKEN_EXPIRED: {
    status: 424,
    pt: "A Meta recusou o token de acesso desta conexão (expirado ou revogado): gere um novo token no Meta for Developers e salve-o na conexão.",
    en: "Meta refused this connection's access token (expired or revoked): generate a new token in Meta for Developers and save it on the connection.",
    es: "Meta rechazó el token de acceso de esta conexión (vencido o revocado): genere un nuevo token en Meta for Developers y guárdelo en la conexión.",
  },
  ERR_WAPP_ACCOUNT_DISABLED: {
    status: 409,
    pt: "A Meta desativou ou removeu a conta do WhatsApp Business desta conexão: veja o motivo no Gerenciador do WhatsApp.",
    en: "Meta disabled or removed this connection's WhatsApp Business account: see why in WhatsApp Manager.",
    es: "Meta desactivó o eliminó la cuenta de WhatsApp Business de esta conexión: vea el motivo en el Administrador de WhatsApp.",
  },
  ERR_WAPP_ACCOUNT_RESTRICTED: {
    status: 409,
    pt: "A Meta restringiu a conta do WhatsApp Business desta conexão (envios limitados ou desativação agendada): veja o motivo no Gerenciador do WhatsApp.",
    en: "Meta restricted this connection's WhatsApp Business account (sends limited or a disabling scheduled): see why in WhatsApp Manager.",
    es: "Meta restringió la cuenta de WhatsApp Business de esta conexión (envíos limitados o desactivación programada): vea el motivo en el Administrador de WhatsApp.",
  },
  ERR_WAPP_NO_WABA: {
    status: 400,
    pt: "Esta conexão não é da API oficial (Cloud) ou não tem o ID da conta do WhatsApp Business (WABA) configurado.",
    en: "This connection is not a Cloud API one, or has no WhatsApp Business Account (WABA) id set.",
    es: "Esta conexión no es de la API oficial (Cloud) o no tiene configurado el ID de la cuenta de WhatsApp Business (WABA).",
  },
} as const satisfies Record<string, ErrorDef>;
