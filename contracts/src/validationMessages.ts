import type { Lang } from "./errors.js";

/**
 * Validation messages are keys, so one schema serves the server (which answers the field errors
 * in the caller's language) and the web forms (which show them in the user's language). The
 * Portuguese texts are the spec's own wording.
 */
export const VALIDATION_MESSAGES = {
  "validation.required": { pt: "Required", en: "Required", es: "Obligatorio" },
  "validation.obrigatorio": { pt: "Obrigatório", en: "Required", es: "Obligatorio" },
  "validation.tooShort": { pt: "Too Short!", en: "Too Short!", es: "¡Demasiado corto!" },
  "validation.tooLong": { pt: "Too Long!", en: "Too Long!", es: "¡Demasiado largo!" },
  "validation.invalidEmail": { pt: "Invalid email", en: "Invalid email", es: "Correo inválido" },
  "validation.invalid": { pt: "Valor inválido", en: "Invalid value", es: "Valor inválido" },
  "validation.phoneWithCountry": {
    pt: "Informe o número completo, com código do país e DDD",
    en: "Enter the full number, with country and area code",
    es: "Escriba el número completo, con código de país y de área",
  },
  "validation.messageTooShort": {
    pt: "Mensagem muito curta",
    en: "Message too short",
    es: "Mensaje demasiado corto",
  },
  "validation.pngJpgOnly": {
    pt: "Envie uma imagem png, jpg ou jpeg",
    en: "Send a png, jpg or jpeg image",
    es: "Envíe una imagen png, jpg o jpeg",
  },
  "validation.invalidTime": {
    pt: "Use o formato HH:MM",
    en: "Use the HH:MM format",
    es: "Use el formato HH:MM",
  },
  "validation.endBeforeStart": {
    pt: "O fim deve ser depois do início",
    en: "The end must be after the start",
    es: "El fin debe ser después del inicio",
  },
  "validation.invalidTimeZone": {
    pt: "Fuso horário inválido",
    en: "Invalid time zone",
    es: "Zona horaria inválida",
  },
  "validation.invalidText": {
    pt: "Texto inválido: contém caracteres que não são Unicode válido",
    en: "Invalid text: it holds characters that are not valid Unicode",
    es: "Texto inválido: contiene caracteres que no son Unicode válido",
  },
  "validation.invalidYoutubeVideo": {
    pt: "Informe o código ou o link de um vídeo do YouTube",
    en: "Enter a YouTube video code or link",
    es: "Ingrese el código o el enlace de un video de YouTube",
  },
  "validation.invalidUrl": {
    pt: "Informe um endereço http:// ou https://",
    en: "Enter an http:// or https:// address",
    es: "Ingrese una dirección http:// o https://",
  },
  // Spec: back-office section 5 (password reset).
  "validation.campoObrigatorio": { pt: "Campo obrigatório", en: "Required field", es: "Campo obligatorio" },
  "validation.weakPassword": {
    pt: "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.",
    en: "Your password needs at least 8 characters, with an uppercase letter, a lowercase letter and a digit.",
    es: "Su contraseña necesita al menos 8 caracteres, con una letra mayúscula, una minúscula y un número.",
  },
  "validation.passwordsDiffer": {
    pt: "As senhas não correspondem",
    en: "The passwords do not match",
    es: "Las contraseñas no coinciden",
  },
  // Spec: back-office section 5 (file list name).
  "validation.nomeMuitoCurto": { pt: "nome muito curto", en: "name too short", es: "nombre demasiado corto" },
  // Spec: back-office section 5 (checkout step 1).
  "validation.checkoutName": {
    pt: "O nome completo e obrigatorio",
    en: "The full name is required",
    es: "El nombre completo es obligatorio",
  },
  "validation.checkoutAddress": {
    pt: "O Endereco e obrigatorio",
    en: "The address is required",
    es: "La dirección es obligatoria",
  },
  "validation.checkoutCity": {
    pt: "Cidade e obrigatoria",
    en: "The city is required",
    es: "La ciudad es obligatoria",
  },
  "validation.checkoutZip": {
    pt: "CEP e obrigatorio",
    en: "The zip code is required",
    es: "El código postal es obligatorio",
  },
  "validation.checkoutCountry": {
    pt: "Pais e obrigatorio",
    en: "The country is required",
    es: "El país es obligatorio",
  },
  "validation.invalidCpfCnpj": {
    pt: "CPF ou CNPJ inválido",
    en: "Invalid CPF or CNPJ",
    es: "CPF o CNPJ inválido",
  },
  "validation.cpfCnpjRequired": {
    pt: "Informe o CPF ou CNPJ do pagador",
    en: "Enter the payer's CPF or CNPJ",
    es: "Ingrese el CPF o CNPJ del pagador",
  },
} as const satisfies Record<string, Record<Lang, string>>;

export type ValidationKey = keyof typeof VALIDATION_MESSAGES;

export function validationMessage(key: string, lang: Lang): string {
  const entry = (VALIDATION_MESSAGES as Record<string, Record<Lang, string>>)[key];
  return entry ? entry[lang] : key;
}
