/** Texts of the tickets screens in every language: pt is the shape the others fill. */
const pt = {
  title: "tickets",
};
export type TicketsTexts = typeof pt;
const en: TicketsTexts = { title: "tickets" };
const es: TicketsTexts = { title: "tickets" };

export const ticketsTexts = { pt, en, es };
