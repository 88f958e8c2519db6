import type { ErrorDef } from "./def.js";

/** WhatsApp sessions: pairing a phone by code instead of the QR. */
export const WHATSAPP_SESSION_ERRORS = {
  ERR_WAPP_PAIRING_NOT_WAITING: {
    status: 409,
    pt: "Esta conexão não está aguardando pareamento. Peça um novo QR code e tente de novo.",
    en: "This connection is not waiting to be paired. Request a new QR code and try again.",
    es: "Esta conexión no está esperando vinculación. Solicite un nuevo código QR e intente de nuevo.",
  },
  ERR_WAPP_PAIRING_UNAVAILABLE: {
    status: 400,
    pt: "Este tipo de conexão não oferece código de pareamento: use o QR code.",
    en: "This kind of connection offers no pairing code: use the QR code.",
    es: "Este tipo de conexión no ofrece código de vinculación: use el código QR.",
  },
  ERR_WAPP_PAIRING_FAILED: {
    status: 400,
    pt: "O WhatsApp não gerou o código. Confira o número (com código do país e DDD) e tente de novo.",
    en: "WhatsApp did not give a code. Check the number (with country and area code) and try again.",
    es: "WhatsApp no generó el código. Revise el número (con código de país y de área) e intente de nuevo.",
  },
} as const satisfies Record<string, ErrorDef>;
