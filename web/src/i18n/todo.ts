/** Texts of the todo list in every language: pt is the shape the others fill. */
const pt = {
  title: "Tarefas",
  newTask: "Nova tarefa",
  add: "Adicionar",
  save: "Salvar",
  cancelEdit: "Cancelar edição",
  edit: "Editar tarefa",
  delete: "Excluir tarefa",
  empty: "Nenhuma tarefa. Anote aqui o que você precisa fazer.",
  createdAt: "Criada em {{date}} às {{time}}",
  updatedAt: "Atualizada em {{date}} às {{time}}",
  localOnly: "As tarefas ficam salvas apenas neste navegador.",
};
export type TodoTexts = typeof pt;

const en: TodoTexts = {
  title: "Tasks",
  newTask: "New task",
  add: "Add",
  save: "Save",
  cancelEdit: "Cancel editing",
  edit: "Edit task",
  delete: "Delete task",
  empty: "No tasks. Write down here what you need to do.",
  createdAt: "Created on {{date}} at {{time}}",
  updatedAt: "Updated on {{date}} at {{time}}",
  localOnly: "Tasks are kept in this browser only.",
};

const es: TodoTexts = {
  title: "Tareas",
  newTask: "Nueva tarea",
  add: "Agregar",
  save: "Guardar",
  cancelEdit: "Cancelar edición",
  edit: "Editar tarea",
  delete: "Eliminar tarea",
  empty: "No hay tareas. Anote aquí lo que necesita hacer.",
  createdAt: "Creada el {{date}} a las {{time}}",
  updatedAt: "Actualizada el {{date}} a las {{time}}",
  localOnly: "Las tareas se guardan solo en este navegador.",
};

export const todoTexts = { pt, en, es };
