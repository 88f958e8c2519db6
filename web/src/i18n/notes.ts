/** Texts of the ticket notes panel (contact drawer) in every language: pt is the shape the others fill. */
const pt = {
  title: "Observações",
  placeholder: "Adicionar uma observação",
  add: "Adicionar",
  added: "Observação adicionada com sucesso!",
  deleted: "Observação excluída com sucesso!",
  delete: "Excluir observação",
  deleteTitle: "Excluir esta observação?",
  deleteConfirm: "Deseja realmente excluir esse registro?",
  empty: "Nenhuma observação neste atendimento.",
  byOn: "{{name}} · {{date}} {{time}}",
  unknownAuthor: "Usuário removido",
};
export type NotesTexts = typeof pt;

const en: NotesTexts = {
  title: "Notes",
  placeholder: "Add a note",
  add: "Add",
  added: "Note added successfully!",
  deleted: "Note deleted successfully!",
  delete: "Delete note",
  deleteTitle: "Delete this note?",
  deleteConfirm: "Do you really want to delete this record?",
  empty: "No notes on this ticket.",
  byOn: "{{name}} · {{date}} {{time}}",
  unknownAuthor: "Removed user",
};

const es: NotesTexts = {
  title: "Observaciones",
  placeholder: "Agregar una observación",
  add: "Agregar",
  added: "¡Observación agregada con éxito!",
  deleted: "¡Observación eliminada con éxito!",
  delete: "Eliminar observación",
  deleteTitle: "¿Eliminar esta observación?",
  deleteConfirm: "¿Realmente desea eliminar este registro?",
  empty: "No hay observaciones en este ticket.",
  byOn: "{{name}} · {{date}} {{time}}",
  unknownAuthor: "Usuario eliminado",
};

export const notesTexts = { pt, en, es };
