/** Texts of the WhatsApp Cloud API's 24-hour window and message templates (the composer's banner and dialog). */
const pt = {
  windowClosed:
    "Passaram-se mais de 24 horas desde a última mensagem do cliente: o WhatsApp só permite enviar um modelo aprovado.",
  windowNever: "O cliente ainda não escreveu nesta conexão: o WhatsApp só permite enviar um modelo aprovado.",
  chooseTemplate: "Escolher modelo",
  sendTemplate: "Enviar modelo",
  dialogTitle: "Enviar um modelo aprovado",
  template: "Modelo",
  loading: "Carregando modelos…",
  none: "Nenhum modelo aprovado nesta conta do WhatsApp Business.",
  headerVariable: "Cabeçalho: variável {{n}}",
  bodyVariable: "Variável {{n}}",
  namedVariable: "Variável {{name}}",
  headerMedia: "Cabeçalho ({{kind}}): link https do arquivo ou ID de mídia enviada",
  headerFilename: "Nome do arquivo (opcional)",
  urlButton: "Botão “{{text}}”: final do link",
  quickReply: "Botão “{{text}}”: payload (opcional)",
  preview: "Como o cliente verá",
  required: "Preencha este campo",
  cancel: "Cancelar",
  send: "Enviar",
  sent: "Modelo enviado.",
  unknown: "Envio incerto: aguardando o WhatsApp",
};
export type CloudTexts = typeof pt;

const en: CloudTexts = {
  windowClosed:
    "More than 24 hours have passed since the customer's last message: WhatsApp only allows an approved template.",
  windowNever:
    "The customer has not written on this connection yet: WhatsApp only allows an approved template.",
  chooseTemplate: "Choose template",
  sendTemplate: "Send template",
  dialogTitle: "Send an approved template",
  template: "Template",
  loading: "Loading templates…",
  none: "No approved template in this WhatsApp Business account.",
  headerVariable: "Header: variable {{n}}",
  bodyVariable: "Variable {{n}}",
  namedVariable: "Variable {{name}}",
  headerMedia: "Header ({{kind}}): the file's https link or an uploaded media ID",
  headerFilename: "File name (optional)",
  urlButton: "Button “{{text}}”: end of the link",
  quickReply: "Button “{{text}}”: payload (optional)",
  preview: "What the customer will see",
  required: "Fill in this field",
  cancel: "Cancel",
  send: "Send",
  sent: "Template sent.",
  unknown: "Outcome unknown: waiting for WhatsApp",
};

const es: CloudTexts = {
  windowClosed:
    "Pasaron más de 24 horas desde el último mensaje del cliente: WhatsApp solo permite enviar una plantilla aprobada.",
  windowNever:
    "El cliente aún no escribió en esta conexión: WhatsApp solo permite enviar una plantilla aprobada.",
  chooseTemplate: "Elegir plantilla",
  sendTemplate: "Enviar plantilla",
  dialogTitle: "Enviar una plantilla aprobada",
  template: "Plantilla",
  loading: "Cargando plantillas…",
  none: "No hay plantillas aprobadas en esta cuenta de WhatsApp Business.",
  headerVariable: "Encabezado: variable {{n}}",
  bodyVariable: "Variable {{n}}",
  namedVariable: "Variable {{name}}",
  headerMedia: "Encabezado ({{kind}}): enlace https del archivo o ID de medio subido",
  headerFilename: "Nombre del archivo (opcional)",
  urlButton: "Botón “{{text}}”: final del enlace",
  quickReply: "Botón “{{text}}”: payload (opcional)",
  preview: "Cómo lo verá el cliente",
  required: "Complete este campo",
  cancel: "Cancelar",
  send: "Enviar",
  sent: "Plantilla enviada.",
  unknown: "Envío incierto: esperando a WhatsApp",
};

export const cloudTexts = { pt, en, es };
