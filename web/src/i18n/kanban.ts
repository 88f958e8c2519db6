/** Texts of the kanban screens in every language: pt is the shape the others fill. */
const pt = {
  title: "kanban",
};
export type KanbanTexts = typeof pt;
const en: KanbanTexts = { title: "kanban" };
const es: KanbanTexts = { title: "kanban" };

export const kanbanTexts = { pt, en, es };
