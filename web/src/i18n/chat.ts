/** Texts of the chat screens in every language: pt is the shape the others fill. */
const pt = {
  title: "chat",
};
export type ChatTexts = typeof pt;
const en: ChatTexts = { title: "chat" };
const es: ChatTexts = { title: "chat" };

export const chatTexts = { pt, en, es };
