/**
 * The ERR_* catalogue: every error a user can cause, with its HTTP status and its text in the
 * three languages. The server answers `{ error, message }` with the message in the caller's
 * language; the web app translates the code again in the user's chosen language.
 */
export type Lang = "pt" | "en" | "es";
export const LANGS: readonly Lang[] = ["pt", "en", "es"];

interface ErrorDef {
  status: number;
  pt: string;
  en: string;
  es: string;
}

export const ERRORS = {
  // Spec: agent-workspace section 8
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

  // Atende's own codes, for the rules the spec states without naming a code.
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
  ERR_NO_QUEUE_FOUND: {
    status: 404,
    pt: "Nenhuma fila encontrada com este ID.",
    en: "No queue found with this ID.",
    es: "No se encontró ninguna cola con este ID.",
  },
  ERR_SUBSCRIPTION_EXPIRED: {
    status: 402,
    pt: "Opss! Sua assinatura venceu. Entre em contato com o Suporte para mais informações!",
    en: "Oops! Your subscription has expired. Contact Support for more information!",
    es: "¡Ups! Su suscripción venció. ¡Contacte al Soporte para más información!",
  },
  ERR_COMPANY_INACTIVE: {
    status: 403,
    pt: "Esta empresa está inativa. Entre em contato com o Suporte.",
    en: "This company is inactive. Contact Support.",
    es: "Esta empresa está inactiva. Contacte al Soporte.",
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
  ERR_PLAN_USER_LIMIT: {
    status: 403,
    pt: "O limite de usuários do seu plano foi atingido.",
    en: "Your plan's user limit has been reached.",
    es: "Se alcanzó el límite de usuarios de su plan.",
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
  ERR_PLAN_CONNECTION_LIMIT: {
    status: 403,
    pt: "O limite de conexões do seu plano foi atingido.",
    en: "Your plan's connection limit has been reached.",
    es: "Se alcanzó el límite de conexiones de su plan.",
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
  ERR_PLAN_FEATURE_DISABLED: {
    status: 403,
    pt: "Esta empresa não possui permissão para acessar essa página!",
    en: "This company's plan does not include this feature!",
    es: "¡Esta empresa no tiene permiso para acceder a esta página!",
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
  ERR_PLAN_QUEUE_LIMIT: {
    status: 403,
    pt: "O limite de filas do seu plano foi atingido.",
    en: "Your plan's queue limit has been reached.",
    es: "Se alcanzó el límite de colas de su plan.",
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
  ERR_NO_COMPANY_FOUND: {
    status: 404,
    pt: "Nenhuma empresa encontrada com este ID.",
    en: "No company found with this ID.",
    es: "No se encontró ninguna empresa con este ID.",
  },
  ERR_NO_CHAT_FOUND: {
    status: 404,
    pt: "Conversa não encontrada.",
    en: "Chat not found.",
    es: "Conversación no encontrada.",
  },
  ERR_CHAT_OWNER_ONLY: {
    status: 403,
    pt: "Só quem criou a conversa pode editá-la ou excluí-la.",
    en: "Only the chat's creator may edit or delete it.",
    es: "Solo quien creó la conversación puede editarla o eliminarla.",
  },
  ERR_CHAT_NO_USERS: {
    status: 400,
    pt: "Por favor, selecione pelo menos um usuário.",
    en: "Please select at least one user.",
    es: "Por favor, seleccione al menos un usuario.",
  },
  ERR_NO_TICKET_NOTE_FOUND: {
    status: 404,
    pt: "Nenhuma observação encontrada com este ID.",
    en: "No note found with this ID.",
    es: "No se encontró ninguna observación con este ID.",
  },
  ERR_NO_HELP_FOUND: {
    status: 404,
    pt: "Nenhuma ajuda encontrada com este ID.",
    en: "No help video found with this ID.",
    es: "No se encontró ninguna ayuda con este ID.",
  },
  ERR_NO_ANNOUNCEMENT_FOUND: {
    status: 404,
    pt: "Nenhum informativo encontrado com este ID.",
    en: "No announcement found with this ID.",
    es: "No se encontró ningún aviso con este ID.",
  },
  ERR_ANNOUNCEMENT_MEDIA_TYPE: {
    status: 400,
    pt: "Use somente imagens PNG ou JPG.",
    en: "Use only PNG or JPG images.",
    es: "Usa solo imágenes PNG o JPG.",
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
  ERR_PLAN_SCHEDULE_LIMIT: {
    status: 403,
    pt: "O limite de agendamentos do seu plano foi atingido.",
    en: "Your plan's schedule limit has been reached.",
    es: "Se alcanzó el límite de programaciones de su plan.",
  },
  ERR_PLAN_CAMPAIGN_LIMIT: {
    status: 403,
    pt: "O limite de campanhas do seu plano foi atingido.",
    en: "Your plan's campaign limit has been reached.",
    es: "Se alcanzó el límite de campañas de su plan.",
  },
  ERR_PLAN_NOT_FOUND: {
    status: 404,
    pt: "Nenhum plano encontrado com este ID.",
    en: "No plan found with this ID.",
    es: "No se encontró ningún plan con este ID.",
  },
  // Back-office spec, messages: 'Nao foi possivel realizar a operacao' with the duplicate-name hint.
  ERR_PLAN_NAME_TAKEN: {
    status: 409,
    pt: "Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome ou se os campos foram preenchidos corretamente.",
    en: "The operation could not be completed. Check whether a plan with the same name already exists or whether the fields are filled in correctly.",
    es: "No se pudo realizar la operación. Verifique si ya existe un plan con el mismo nombre o si los campos se completaron correctamente.",
  },
  ERR_PLAN_IN_USE: {
    status: 409,
    pt: "Este plano não pode ser excluído: há empresas usando-o. Mude o plano dessas empresas antes.",
    en: "This plan cannot be deleted: companies use it. Move those companies to another plan first.",
    es: "Este plan no se puede eliminar: hay empresas que lo usan. Cambie primero el plan de esas empresas.",
  },
  ERR_SCHEDULE_CONNECTION_DOWN: {
    status: 409,
    pt: "A conexão escolhida não estava conectada na hora do envio.",
    en: "The chosen connection was not connected at sending time.",
    es: "La conexión elegida no estaba conectada a la hora del envío.",
  },
  // Password reset (back-office section 8): one answer for a wrong, expired, used or exhausted code,
  // and for an e-mail without an account, so the reset never tells who has one.
  ERR_INVALID_RESET_CODE: {
    status: 400,
    pt: "Código inválido ou expirado. Confira o código do e-mail ou peça um novo.",
    en: "Invalid or expired code. Check the code in the e-mail or ask for a new one.",
    es: "Código inválido o vencido. Revise el código del correo o pida uno nuevo.",
  },
  // Spec: back-office sections 5 and 8 (Logo upload)
  ERR_LOGO_INVALID_TYPE: {
    status: 400,
    pt: "Use somente arquivos em formato PNG, ICO ou SVG!",
    en: "Use only PNG, ICO or SVG files!",
    es: "¡Use solamente archivos en formato PNG, ICO o SVG!",
  },
  ERR_LOGO_FILE_REQUIRED: {
    status: 400,
    pt: "Escolha um arquivo!",
    en: "Choose a file!",
    es: "¡Elija un archivo!",
  },
  ERR_LOGO_TARGET_REQUIRED: {
    status: 400,
    pt: "Escolha um destino!",
    en: "Choose a target!",
    es: "¡Elija un destino!",
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
  // Back-office spec, messages: 'Nao foi possivel realizar a operacao' with the duplicate-name hint.
  ERR_COMPANY_NAME_TAKEN: {
    status: 409,
    pt: "Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente.",
    en: "The operation could not be completed. Check whether a company with the same name already exists or whether the fields are filled in correctly.",
    es: "No se pudo realizar la operación. Verifique si ya existe una empresa con el mismo nombre o si los campos se completaron correctamente.",
  },
  ERR_COMPANY_PLAN_INVALID: {
    status: 400,
    pt: "Escolha um plano existente.",
    en: "Choose an existing plan.",
    es: "Elija un plan existente.",
  },
  ERR_CANNOT_DELETE_OWN_COMPANY: {
    status: 400,
    pt: "A empresa da plataforma não pode ser excluída.",
    en: "The platform's own company cannot be deleted.",
    es: "La empresa de la plataforma no se puede eliminar.",
  },
} as const satisfies Record<string, ErrorDef>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(ERRORS, code);
}

export function errorMessage(code: ErrorCode, lang: Lang = "pt"): string {
  return ERRORS[code][lang];
}

/** The body of every error answer. `fields` maps a field path to its translated problem. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  fields?: Record<string, string>;
  requestId?: string;
  /** ERR_SUBSCRIPTION_EXPIRED: the due date that passed (YYYY-MM-DD). */
  dueDate?: string;
  [extra: string]: unknown;
}

/** Picks pt, en or es from an Accept-Language header or a stored language tag. */
export function pickLang(tag: string | undefined | null): Lang {
  if (!tag) return "pt";
  for (const part of tag.split(",")) {
    const base = part.trim().slice(0, 2).toLowerCase();
    if (base === "pt" || base === "en" || base === "es") return base;
  }
  return "pt";
}
