import type { ErrorDef } from "./def.js";

/** The platform and back office: companies, plans and their gates, password reset, logos, helps, announcements, internal chat. */
export const PLATFORM_ERRORS = {
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
  ERR_PLAN_USER_LIMIT: {
    status: 403,
    pt: "O limite de usuários do seu plano foi atingido.",
    en: "Your plan's user limit has been reached.",
    es: "Se alcanzó el límite de usuarios de su plan.",
  },
  ERR_PLAN_CONNECTION_LIMIT: {
    status: 403,
    pt: "O limite de conexões do seu plano foi atingido.",
    en: "Your plan's connection limit has been reached.",
    es: "Se alcanzó el límite de conexiones de su plan.",
  },
  ERR_PLAN_FEATURE_DISABLED: {
    status: 403,
    pt: "Esta empresa não possui permissão para acessar essa página!",
    en: "This company's plan does not include this feature!",
    es: "¡Esta empresa no tiene permiso para acceder a esta página!",
  },
  ERR_PLAN_QUEUE_LIMIT: {
    status: 403,
    pt: "O limite de filas do seu plano foi atingido.",
    en: "Your plan's queue limit has been reached.",
    es: "Se alcanzó el límite de colas de su plan.",
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
  ERR_SETTING_NOT_CLEARABLE: {
    status: 400,
    pt: "Só uma credencial salva (token, chave ou segredo) pode ser removida; escolha outro valor para esta configuração.",
    en: "Only a saved credential (token, key or secret) can be removed; choose another value for this setting.",
    es: "Solo se puede quitar una credencial guardada (token, clave o secreto); elija otro valor para esta configuración.",
  },
} as const satisfies Record<string, ErrorDef>;
