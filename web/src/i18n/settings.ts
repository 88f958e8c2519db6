/** Texts of the settings page in every language: pt is the shape the others fill. */
const pt = {
  title: "Configurações",
  tabs: { options: "Opções", schedules: "Horários" },
  saved: "Operação atualizada com sucesso.",
  schedulesSaved: "Horários atualizados com sucesso.",
  schedulesHint:
    "Horário de atendimento da empresa, usado quando o gerenciamento de expediente é por empresa. Um dia com início igual ao fim (00:00 a 00:00) fica fechado.",
  save: "Salvar",
  sections: {
    service: "Atendimento",
    platform: "Plataforma",
    integrations: "Integrações",
  },
  enabled: "Habilitado",
  disabled: "Desabilitado",
  keys: {
    userRating: {
      label: "Avaliações",
      help: "Pede uma nota de 1 a 3 ao cliente quando o atendimento é finalizado.",
    },
    scheduleType: {
      label: "Gerenciamento de expediente",
      help: "Por fila ou por empresa: fora do horário, o cliente recebe a mensagem de fora de expediente.",
    },
    call: { label: "Chamadas de voz e vídeo", help: "Recusadas com uma mensagem quando não aceitas." },
    CheckMsgIsGroup: {
      label: "Ignorar mensagens de grupos",
      help: "Mensagens de grupos não abrem atendimentos.",
    },
    chatBotType: {
      label: "Tipo do chatbot",
      help: "Como o menu de filas e opções é apresentado ao cliente.",
    },
    sendGreetingAccepted: {
      label: "Saudação ao aceitar o atendimento",
      help: "Envia a saudação da conexão quando um agente aceita o atendimento.",
    },
    sendMsgTransfTicket: {
      label: "Mensagem de transferência de fila ou agente",
      help: "Avisa o cliente quando o atendimento é transferido.",
    },
    sendGreetingMessageOneQueues: {
      label: "Saudação quando houver somente 1 fila",
      help: "Envia a saudação da fila mesmo quando a conexão tem uma só fila.",
    },
    notificationPreview: {
      label: "Texto das mensagens nas notificações",
      help: "Desativado, as notificações (no navegador e no celular) dizem quem escreveu, nunca o quê.",
    },
    historyImportDays: {
      label: "Histórico importado ao conectar o WhatsApp",
      help: "Ao ler o QR code de novo, as mensagens destes últimos dias entram nos atendimentos, sem notificar.",
    },
    timezone: {
      label: "Fuso horário",
      help: "Expediente e datas são contados neste fuso, nunca no do servidor.",
    },
    allowregister: { label: "Registro (inscrição) permitido", help: "Novas empresas podem se cadastrar." },
    viewregister: { label: "Registro (inscrição) visível", help: "Mostra o link de cadastro no login." },
    trial: { label: "Tempo de teste", help: "Dias de teste de uma empresa recém-cadastrada." },
    ipixc: { label: "IP do IXC", help: "" },
    tokenixc: { label: "Token do IXC", help: "" },
    ipmkauth: { label: "IP do MK-AUTH", help: "" },
    clientidmkauth: { label: "Client ID do MK-AUTH", help: "" },
    clientsecretmkauth: { label: "Client Secret do MK-AUTH", help: "" },
    asaas: { label: "Token do ASAAS", help: "" },
  },
  values: {
    userRating: { enabled: "Habilitadas", disabled: "Desabilitadas" },
    scheduleType: { disabled: "Desabilitado", queue: "Por fila", company: "Por empresa" },
    call: { enabled: "Aceitar", disabled: "Não aceitar" },
    chatBotType: { text: "Texto" },
  },
  historyDays_one: "Último {{count}} dia",
  historyDays_other: "Últimos {{count}} dias",
  historyDaysNone: "Não importar",
  trialDays_one: "{{count}} dia",
  trialDays_other: "{{count}} dias",
  noTimezone: "Nenhum fuso encontrado",
  removeSecret: "Remover",
  removeSecretLabel: "Remover {{label}}",
  removeSecretTitle: "Remover {{label}}?",
  removeSecretMessage:
    "O valor salvo será apagado e a integração deixa de usá-lo até que um novo seja salvo.",
  secretRemoved: "Credencial removida.",
};
export type SettingsTexts = typeof pt;

const en: SettingsTexts = {
  title: "Settings",
  tabs: { options: "Options", schedules: "Hours" },
  saved: "Operation updated successfully.",
  schedulesSaved: "Hours updated successfully.",
  schedulesHint:
    "The company's service hours, used when office hours are managed per company. A day whose start equals its end (00:00 to 00:00) is closed.",
  save: "Save",
  sections: {
    service: "Service",
    platform: "Platform",
    integrations: "Integrations",
  },
  enabled: "Enabled",
  disabled: "Disabled",
  keys: {
    userRating: {
      label: "Ratings",
      help: "Asks the customer for a 1 to 3 rating when the ticket is resolved.",
    },
    scheduleType: {
      label: "Office hours management",
      help: "Per queue or per company: out of hours, the customer gets the out-of-hours message.",
    },
    call: { label: "Voice and video calls", help: "Refused with a message when not accepted." },
    CheckMsgIsGroup: { label: "Ignore group messages", help: "Group messages do not open tickets." },
    chatBotType: { label: "Chatbot type", help: "How the queue and option menu is shown to the customer." },
    sendGreetingAccepted: {
      label: "Greeting when a ticket is accepted",
      help: "Sends the connection's greeting when an agent accepts the ticket.",
    },
    sendMsgTransfTicket: {
      label: "Queue or agent transfer message",
      help: "Tells the customer when the ticket is transferred.",
    },
    sendGreetingMessageOneQueues: {
      label: "Greeting when there is only 1 queue",
      help: "Sends the queue's greeting even when the connection has a single queue.",
    },
    notificationPreview: {
      label: "Message text in notifications",
      help: "Off, notifications (in the browser and on phones) say who wrote, never what.",
    },
    historyImportDays: {
      label: "History imported when WhatsApp is linked",
      help: "When the QR code is scanned again, the messages of these last days join the tickets, without notifying.",
    },
    timezone: {
      label: "Time zone",
      help: "Office hours and dates are counted in this zone, never in the server's.",
    },
    allowregister: { label: "Sign-up allowed", help: "New companies may sign up." },
    viewregister: { label: "Sign-up visible", help: "Shows the sign-up link on the login page." },
    trial: { label: "Trial period", help: "Trial days of a newly signed-up company." },
    ipixc: { label: "IXC IP", help: "" },
    tokenixc: { label: "IXC token", help: "" },
    ipmkauth: { label: "MK-AUTH IP", help: "" },
    clientidmkauth: { label: "MK-AUTH client ID", help: "" },
    clientsecretmkauth: { label: "MK-AUTH client secret", help: "" },
    asaas: { label: "ASAAS token", help: "" },
  },
  values: {
    userRating: { enabled: "Enabled", disabled: "Disabled" },
    scheduleType: { disabled: "Disabled", queue: "Per queue", company: "Per company" },
    call: { enabled: "Accept", disabled: "Do not accept" },
    chatBotType: { text: "Text" },
  },
  historyDays_one: "Last {{count}} day",
  historyDays_other: "Last {{count}} days",
  historyDaysNone: "Do not import",
  trialDays_one: "{{count}} day",
  trialDays_other: "{{count}} days",
  noTimezone: "No time zone found",
  removeSecret: "Remove",
  removeSecretLabel: "Remove {{label}}",
  removeSecretTitle: "Remove {{label}}?",
  removeSecretMessage:
    "The saved value is deleted and the integration stops using it until a new one is saved.",
  secretRemoved: "Credential removed.",
};

const es: SettingsTexts = {
  title: "Configuración",
  tabs: { options: "Opciones", schedules: "Horarios" },
  saved: "Operación actualizada con éxito.",
  schedulesSaved: "Horarios actualizados con éxito.",
  schedulesHint:
    "Horario de atención de la empresa, usado cuando el horario se gestiona por empresa. Un día cuyo inicio es igual al fin (00:00 a 00:00) queda cerrado.",
  save: "Guardar",
  sections: {
    service: "Atención",
    platform: "Plataforma",
    integrations: "Integraciones",
  },
  enabled: "Habilitado",
  disabled: "Deshabilitado",
  keys: {
    userRating: {
      label: "Evaluaciones",
      help: "Pide al cliente una nota de 1 a 3 cuando se finaliza la atención.",
    },
    scheduleType: {
      label: "Gestión de horario",
      help: "Por cola o por empresa: fuera de horario, el cliente recibe el mensaje de fuera de horario.",
    },
    call: { label: "Llamadas de voz y video", help: "Se rechazan con un mensaje cuando no se aceptan." },
    CheckMsgIsGroup: {
      label: "Ignorar mensajes de grupos",
      help: "Los mensajes de grupos no abren tickets.",
    },
    chatBotType: {
      label: "Tipo de chatbot",
      help: "Cómo se presenta al cliente el menú de colas y opciones.",
    },
    sendGreetingAccepted: {
      label: "Saludo al aceptar la atención",
      help: "Envía el saludo de la conexión cuando un agente acepta el ticket.",
    },
    sendMsgTransfTicket: {
      label: "Mensaje de transferencia de cola o agente",
      help: "Avisa al cliente cuando el ticket se transfiere.",
    },
    sendGreetingMessageOneQueues: {
      label: "Saludo cuando hay solo 1 cola",
      help: "Envía el saludo de la cola aunque la conexión tenga una sola cola.",
    },
    notificationPreview: {
      label: "Texto de los mensajes en las notificaciones",
      help: "Desactivado, las notificaciones (en el navegador y en el móvil) dicen quién escribió, nunca qué.",
    },
    historyImportDays: {
      label: "Historial importado al vincular WhatsApp",
      help: "Al escanear el código QR de nuevo, los mensajes de estos últimos días entran en los tickets, sin notificar.",
    },
    timezone: {
      label: "Zona horaria",
      help: "El horario y las fechas se cuentan en esta zona, nunca en la del servidor.",
    },
    allowregister: { label: "Registro permitido", help: "Nuevas empresas pueden registrarse." },
    viewregister: {
      label: "Registro visible",
      help: "Muestra el enlace de registro en el inicio de sesión.",
    },
    trial: { label: "Período de prueba", help: "Días de prueba de una empresa recién registrada." },
    ipixc: { label: "IP de IXC", help: "" },
    tokenixc: { label: "Token de IXC", help: "" },
    ipmkauth: { label: "IP de MK-AUTH", help: "" },
    clientidmkauth: { label: "Client ID de MK-AUTH", help: "" },
    clientsecretmkauth: { label: "Client Secret de MK-AUTH", help: "" },
    asaas: { label: "Token de ASAAS", help: "" },
  },
  values: {
    userRating: { enabled: "Habilitadas", disabled: "Deshabilitadas" },
    scheduleType: { disabled: "Deshabilitado", queue: "Por cola", company: "Por empresa" },
    call: { enabled: "Aceptar", disabled: "No aceptar" },
    chatBotType: { text: "Texto" },
  },
  historyDays_one: "Último {{count}} día",
  historyDays_other: "Últimos {{count}} días",
  historyDaysNone: "No importar",
  trialDays_one: "{{count}} día",
  trialDays_other: "{{count}} días",
  noTimezone: "Ninguna zona encontrada",
  removeSecret: "Quitar",
  removeSecretLabel: "Quitar {{label}}",
  removeSecretTitle: "¿Quitar {{label}}?",
  removeSecretMessage:
    "El valor guardado se borra y la integración deja de usarlo hasta que se guarde uno nuevo.",
  secretRemoved: "Credencial quitada.",
};

export const settingsTexts = { pt, en, es };
