import type { ErrorDef } from "./def.js";

/** The codes the agent-workspace spec names (section 8), with its texts. */
export const AGENT_WORKSPACE_SPEC_ERRORS = {
  ERR_NO_OTHER_WHATSAPP: {
    status: 400,
    pt: "Deve haver pelo menos uma conexão de WhatsApp padrão.",
    en: "There must be at least one default WhatsApp connection.",
    es: "Debe haber al menos una conexión de WhatsApp predeterminada.",
  },
  ERR_WAPP_INVALID_CONTACT: {
    status: 400,
    pt: "Este não é um número de WhatsApp válido.",
    en: "This is not a valid WhatsApp number.",
    es: "Este no es un número de WhatsApp válido.",
  },
  ERR_INVALID_CREDENTIALS: {
    status: 401,
    pt: "Erro de autenticação. Por favor, tente novamente.",
    en: "Authentication error. Please try again.",
    es: "Error de autenticación. Por favor, inténtelo de nuevo.",
  },
  ERR_OTHER_OPEN_TICKET: {
    status: 409,
    pt: "Já existe um tíquete aberto para este contato.",
    en: "There is already an open ticket for this contact.",
    es: "Ya existe un ticket abierto para este contacto.",
  },
  ERR_FETCH_WAPP_MSG: {
    status: 400,
    pt: "Erro ao buscar a mensagem no WhatsApp, talvez ela seja muito antiga.",
    en: "Error fetching the message from WhatsApp, maybe it is too old.",
    es: "Error al obtener el mensaje de WhatsApp, tal vez sea demasiado antiguo.",
  },
  ERR_WAPP_GREETING_REQUIRED: {
    status: 400,
    pt: "A mensagem de saudação é obrigatória quando há mais de uma fila.",
    en: "A greeting message is required when there is more than one queue.",
    es: "El mensaje de saludo es obligatorio cuando hay más de una cola.",
  },
  ERR_QUEUE_COLOR_ALREADY_EXISTS: {
    status: 409,
    pt: "Esta cor já está em uso, escolha outra.",
    en: "This color is already in use, pick another one.",
    es: "Este color ya está en uso, elija otro.",
  },
  ERR_NO_DEF_WAPP_FOUND: {
    status: 404,
    pt: "Nenhuma conexão de WhatsApp padrão encontrada. Verifique a página de conexões.",
    en: "No default WhatsApp connection found. Check the connections page.",
    es: "No se encontró una conexión de WhatsApp predeterminada. Revise la página de conexiones.",
  },
  ERR_WAPP_NOT_INITIALIZED: {
    status: 409,
    pt: "Esta sessão de WhatsApp não foi inicializada. Verifique a página de conexões.",
    en: "This WhatsApp session is not initialized. Check the connections page.",
    es: "Esta sesión de WhatsApp no está inicializada. Revise la página de conexiones.",
  },
  ERR_WAPP_CHECK_CONTACT: {
    status: 400,
    pt: "Não foi possível verificar o contato no WhatsApp. Verifique a página de conexões.",
    en: "Could not check the contact on WhatsApp. Check the connections page.",
    es: "No se pudo verificar el contacto en WhatsApp. Revise la página de conexiones.",
  },
  ERR_WAPP_DOWNLOAD_MEDIA: {
    status: 400,
    pt: "Não foi possível baixar a mídia do WhatsApp.",
    en: "Could not download the media from WhatsApp.",
    es: "No se pudo descargar el medio de WhatsApp.",
  },
  ERR_SENDING_WAPP_MSG: {
    status: 400,
    pt: "Erro ao enviar a mensagem pelo WhatsApp.",
    en: "Error sending the WhatsApp message.",
    es: "Error al enviar el mensaje de WhatsApp.",
  },
  ERR_DELETE_WAPP_MSG: {
    status: 400,
    pt: "Não foi possível apagar a mensagem do WhatsApp.",
    en: "Could not delete the WhatsApp message.",
    es: "No se pudo borrar el mensaje de WhatsApp.",
  },
  ERR_SESSION_EXPIRED: {
    status: 403,
    pt: "Sessão expirada. Por favor, entre novamente.",
    en: "Session expired. Please log in again.",
    es: "Sesión expirada. Por favor, inicie sesión de nuevo.",
  },
  ERR_USER_CREATION_DISABLED: {
    status: 403,
    pt: "A criação de usuários foi desabilitada pelo administrador.",
    en: "User creation has been disabled by the administrator.",
    es: "La creación de usuarios fue deshabilitada por el administrador.",
  },
  ERR_NO_PERMISSION: {
    status: 403,
    pt: "Você não tem permissão para acessar este recurso.",
    en: "You do not have permission to access this resource.",
    es: "No tiene permiso para acceder a este recurso.",
  },
  ERR_DUPLICATED_CONTACT: {
    status: 409,
    pt: "Já existe um contato com este número.",
    en: "A contact with this number already exists.",
    es: "Ya existe un contacto con este número.",
  },
  ERR_NO_SETTING_FOUND: {
    status: 404,
    pt: "Nenhuma configuração encontrada com este ID.",
    en: "No setting found with this ID.",
    es: "No se encontró ninguna configuración con este ID.",
  },
  ERR_NO_CONTACT_FOUND: {
    status: 404,
    pt: "Nenhum contato encontrado com este ID.",
    en: "No contact found with this ID.",
    es: "No se encontró ningún contacto con este ID.",
  },
  ERR_NO_TICKET_FOUND: {
    status: 404,
    pt: "Nenhum tíquete encontrado com este ID.",
    en: "No ticket found with this ID.",
    es: "No se encontró ningún ticket con este ID.",
  },
  ERR_NO_USER_FOUND: {
    status: 404,
    pt: "Nenhum usuário encontrado com este ID.",
    en: "No user found with this ID.",
    es: "No se encontró ningún usuario con este ID.",
  },
  ERR_NO_WAPP_FOUND: {
    status: 404,
    pt: "Nenhuma conexão de WhatsApp encontrada com este ID.",
    en: "No WhatsApp connection found with this ID.",
    es: "No se encontró ninguna conexión de WhatsApp con este ID.",
  },
  ERR_CREATING_MESSAGE: {
    status: 400,
    pt: "Erro ao criar a mensagem no banco de dados.",
    en: "Error creating the message in the database.",
    es: "Error al crear el mensaje en la base de datos.",
  },
  ERR_CREATING_TICKET: {
    status: 400,
    pt: "Erro ao criar o tíquete no banco de dados.",
    en: "Error creating the ticket in the database.",
    es: "Error al crear el ticket en la base de datos.",
  },
} as const satisfies Record<string, ErrorDef>;
