import type { ErrorDef } from "./def.js";

/** Web Push subscriptions (server/src/modules/push). */
export const PUSH_ERRORS = {
  ERR_PUSH_ENDPOINT_INVALID: {
    status: 400,
    pt: "Este navegador informou um endereço de notificações inválido. Recarregue a página e ative de novo.",
    en: "This browser gave an invalid notification address. Reload the page and turn them on again.",
    es: "Este navegador indicó una dirección de notificaciones no válida. Recargue la página y actívelas de nuevo.",
  },
  ERR_PUSH_ENDPOINT_FORBIDDEN: {
    status: 400,
    pt: "O endereço de notificações deste navegador aponta para uma rede privada ou local e não é permitido.",
    en: "This browser's notification address points to a private or local network and is not allowed.",
    es: "La dirección de notificaciones de este navegador apunta a una red privada o local y no está permitida.",
  },
} as const satisfies Record<string, ErrorDef>;
