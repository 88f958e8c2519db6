import type { Lang, SlaTarget } from "@atende/contracts";

/**
 * What a push says, in the language the app was in on the device that receives it: written on the
 * server, since a closed app has nobody to translate it. The same sentences as the in-app alerts.
 */
const TEXTS = {
  pt: {
    newMessage: "Nova mensagem",
    media: "📎 Mídia",
    waiting: (queue: string) =>
      queue ? `Novo atendimento aguardando em ${queue}` : "Novo atendimento aguardando",
    chat: (sender: string, chat: string) => `${sender} em ${chat}`,
    slaBreached: (target: SlaTarget, queue: string) =>
      `${target === "firstResponse" ? "Prazo de primeira resposta estourado" : "Prazo de resolução estourado"}${queue ? ` em ${queue}` : ""}`,
  },
  en: {
    newMessage: "New message",
    media: "📎 Media",
    waiting: (queue: string) => (queue ? `New ticket waiting in ${queue}` : "New ticket waiting"),
    chat: (sender: string, chat: string) => `${sender} in ${chat}`,
    slaBreached: (target: SlaTarget, queue: string) =>
      `${target === "firstResponse" ? "First response target missed" : "Resolution target missed"}${queue ? ` in ${queue}` : ""}`,
  },
  es: {
    newMessage: "Nuevo mensaje",
    media: "📎 Multimedia",
    waiting: (queue: string) => (queue ? `Nueva atención esperando en ${queue}` : "Nueva atención esperando"),
    chat: (sender: string, chat: string) => `${sender} en ${chat}`,
    slaBreached: (target: SlaTarget, queue: string) =>
      `${target === "firstResponse" ? "Plazo de primera respuesta vencido" : "Plazo de resolución vencido"}${queue ? ` en ${queue}` : ""}`,
  },
} as const;

export type PushTexts = (typeof TEXTS)[Lang];

/** A stored language as one of the app's (Portuguese when unknown). */
export function langOf(language: string): Lang {
  return language === "en" || language === "es" ? language : "pt";
}

export function pushTexts(lang: Lang): PushTexts {
  return TEXTS[lang];
}

/** Cut to `max` characters, with an ellipsis when something was cut. */
export function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
