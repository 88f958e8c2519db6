/** Texts of the composer's AI help and the summary in the transfer and resolve dialogs: pt is the shape the others fill. */
const pt = {
  menu: "Ajuda da IA",
  working: "A IA está escrevendo…",
  suggest: "Sugerir resposta",
  friendlier: "Reescrever mais cordial",
  shorter: "Reescrever mais curto",
  grammar: "Corrigir gramática",
  typeFirst: "Digite uma mensagem para reescrever",
  undo: "Desfazer",
  undoHint: "Texto da IA: revise antes de enviar.",
  summarize: "Resumir",
  note: "Observação",
  noteHint: "Salva nas observações do atendimento. Revise o resumo antes de salvar.",
  resolveTitle: "Resolver atendimento",
  resolve: "Resolver",
};
export type AssistTexts = typeof pt;

const en: AssistTexts = {
  menu: "AI help",
  working: "The AI is writing…",
  suggest: "Suggest a reply",
  friendlier: "Rephrase friendlier",
  shorter: "Make it shorter",
  grammar: "Fix grammar",
  typeFirst: "Type a message to rephrase",
  undo: "Undo",
  undoHint: "AI text: review it before sending.",
  summarize: "Summarize",
  note: "Note",
  noteHint: "Saved in the ticket's notes. Review the summary before saving.",
  resolveTitle: "Resolve ticket",
  resolve: "Resolve",
};

const es: AssistTexts = {
  menu: "Ayuda de la IA",
  working: "La IA está escribiendo…",
  suggest: "Sugerir respuesta",
  friendlier: "Reescribir más cordial",
  shorter: "Reescribir más corto",
  grammar: "Corregir gramática",
  typeFirst: "Escriba un mensaje para reescribir",
  undo: "Deshacer",
  undoHint: "Texto de la IA: revíselo antes de enviar.",
  summarize: "Resumir",
  note: "Observación",
  noteHint: "Se guarda en las observaciones del ticket. Revise el resumen antes de guardar.",
  resolveTitle: "Resolver ticket",
  resolve: "Resolver",
};

export const assistTexts = { pt, en, es };
