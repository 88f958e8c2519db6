/** Texts of the command palette (Ctrl/Cmd+K, the top bar's search button) in every language: pt is the shape. */
const pt = {
  open: "Buscar e ir para… (Ctrl+K)",
  title: "Buscar e ir para",
  close: "Fechar a busca",
  input: "Buscar atendimentos, contatos, páginas e ações",
  hint: "↑↓ para escolher, Enter para abrir, Esc para fechar",
  searching: "Buscando…",
  nothing: "Nada encontrado.",
  groups: { tickets: "Atendimentos", contacts: "Contatos", actions: "Ações", pages: "Páginas" },
  status: { pending: "Aguardando", open: "Em atendimento", closed: "Resolvido" },
  ticket: "Atendimento #{{id}}",
  noQueue: "Sem fila",
  actions: {
    newTicket: "Novo atendimento",
    queue: "Ir para a fila {{name}}",
    darkMode: "Ativar o tema escuro",
    lightMode: "Ativar o tema claro",
  },
};

type Texts = typeof pt;

const en: Texts = {
  open: "Search and go to… (Ctrl+K)",
  title: "Search and go to",
  close: "Close the search",
  input: "Search tickets, contacts, pages and actions",
  hint: "↑↓ to choose, Enter to open, Esc to close",
  searching: "Searching…",
  nothing: "Nothing found.",
  groups: { tickets: "Tickets", contacts: "Contacts", actions: "Actions", pages: "Pages" },
  status: { pending: "Waiting", open: "In service", closed: "Resolved" },
  ticket: "Ticket #{{id}}",
  noQueue: "No queue",
  actions: {
    newTicket: "New ticket",
    queue: "Go to the {{name}} queue",
    darkMode: "Turn on the dark theme",
    lightMode: "Turn on the light theme",
  },
};

const es: Texts = {
  open: "Buscar e ir a… (Ctrl+K)",
  title: "Buscar e ir a",
  close: "Cerrar la búsqueda",
  input: "Buscar atenciones, contactos, páginas y acciones",
  hint: "↑↓ para elegir, Enter para abrir, Esc para cerrar",
  searching: "Buscando…",
  nothing: "No se encontró nada.",
  groups: { tickets: "Atenciones", contacts: "Contactos", actions: "Acciones", pages: "Páginas" },
  status: { pending: "En espera", open: "En atención", closed: "Resuelta" },
  ticket: "Atención #{{id}}",
  noQueue: "Sin cola",
  actions: {
    newTicket: "Nueva atención",
    queue: "Ir a la cola {{name}}",
    darkMode: "Activar el tema oscuro",
    lightMode: "Activar el tema claro",
  },
};

export const paletteTexts = { pt, en, es };
