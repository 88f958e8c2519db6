/** Texts of the tags screens in every language: pt is the shape the others fill. */
const pt = {
  title: "tags",
};
export type TagsTexts = typeof pt;
const en: TagsTexts = { title: "tags" };
const es: TagsTexts = { title: "tags" };

export const tagsTexts = { pt, en, es };
