/** Texts of the contacts screens in every language: pt is the shape the others fill. */
const pt = {
  title: "contacts",
};
export type ContactsTexts = typeof pt;
const en: ContactsTexts = { title: "contacts" };
const es: ContactsTexts = { title: "contacts" };

export const contactsTexts = { pt, en, es };
