/** Texts of the kanban screens in every language: pt is the shape the others fill. */
const pt = {
  title: "Kanban",
  openLane: "Em aberto",
  openTicket: "Ver ticket",
  removed: "Ticket Tag Removido!",
  added: "Ticket Tag Adicionado com Sucesso!",
  emptyLane: "Arraste tickets para cá",
  noLanes: "Nenhuma tag é uma coluna ainda. Ligue a opção Kanban de uma tag para criar colunas.",
  manageTags: "Gerenciar tags",
  loadMore: "Carregar mais tickets",
  showAll: "Todos os atendimentos",
  refresh: "Atualizar",
  noQueue: "Sem fila",
  status: { pending: "Aguardando", open: "Atendendo", closed: "Resolvido" },
  laneLabel: "Coluna {{name}}, {{count}} ticket(s)",
  cardLabel: "Ticket de {{name}}",
  moveCard: "Mover {{name}}",
  dragHint:
    "Para mover um ticket com o teclado: foque o botão Mover do cartão, pressione espaço, use as setas para escolher a coluna e espaço de novo para soltar.",
  announce: {
    start: "Ticket de {{name}} levantado na coluna {{lane}}. Use as setas para trocar de coluna.",
    over: "Sobre a coluna {{lane}}.",
    outside: "Fora das colunas.",
    drop: "Ticket de {{name}} solto na coluna {{lane}}.",
    cancel: "Movimento cancelado.",
  },
};
export type KanbanTexts = typeof pt;

const en: KanbanTexts = {
  title: "Kanban",
  openLane: "Open",
  openTicket: "Open ticket",
  removed: "Ticket tag removed!",
  added: "Ticket tag added successfully!",
  emptyLane: "Drag tickets here",
  noLanes: "No tag is a lane yet. Turn on the Kanban option of a tag to create lanes.",
  manageTags: "Manage tags",
  loadMore: "Load more tickets",
  showAll: "All tickets",
  refresh: "Refresh",
  noQueue: "No queue",
  status: { pending: "Waiting", open: "In service", closed: "Resolved" },
  laneLabel: "Lane {{name}}, {{count}} ticket(s)",
  cardLabel: "Ticket of {{name}}",
  moveCard: "Move {{name}}",
  dragHint:
    "To move a ticket with the keyboard: focus the card's Move button, press space, use the arrow keys to pick the lane and press space again to drop it.",
  announce: {
    start: "Picked up the ticket of {{name}} in the lane {{lane}}. Use the arrow keys to change lanes.",
    over: "Over the lane {{lane}}.",
    outside: "Outside the lanes.",
    drop: "Dropped the ticket of {{name}} in the lane {{lane}}.",
    cancel: "Move cancelled.",
  },
};

const es: KanbanTexts = {
  title: "Kanban",
  openLane: "Abiertos",
  openTicket: "Ver ticket",
  removed: "¡Etiqueta del ticket eliminada!",
  added: "¡Etiqueta del ticket agregada con éxito!",
  emptyLane: "Arrastre tickets aquí",
  noLanes:
    "Ninguna etiqueta es una columna todavía. Active la opción Kanban de una etiqueta para crear columnas.",
  manageTags: "Administrar etiquetas",
  loadMore: "Cargar más tickets",
  showAll: "Todos los tickets",
  refresh: "Actualizar",
  noQueue: "Sin cola",
  status: { pending: "Esperando", open: "En atención", closed: "Resuelto" },
  laneLabel: "Columna {{name}}, {{count}} ticket(s)",
  cardLabel: "Ticket de {{name}}",
  moveCard: "Mover {{name}}",
  dragHint:
    "Para mover un ticket con el teclado: enfoque el botón Mover de la tarjeta, presione espacio, use las flechas para elegir la columna y presione espacio otra vez para soltarlo.",
  announce: {
    start: "Ticket de {{name}} levantado en la columna {{lane}}. Use las flechas para cambiar de columna.",
    over: "Sobre la columna {{lane}}.",
    outside: "Fuera de las columnas.",
    drop: "Ticket de {{name}} soltado en la columna {{lane}}.",
    cancel: "Movimiento cancelado.",
  },
};

export const kanbanTexts = { pt, en, es };
