/**
 * Texts of the service levels (issue 39) in every language: the queue dialog's targets, the chip on
 * each ticket, the lists' "closest to breach first" order and the breach notice. pt is the shape.
 */
const pt = {
  targets: { firstResponse: "Primeira resposta", resolution: "Resolução" },
  /** A duration as the chip shows it. */
  duration: {
    lessThanMinute: "< 1 min",
    minutes: "{{m}} min",
    hours: "{{h}} h",
    hoursMinutes: "{{h}} h {{m}} min",
    days: "{{d}} d",
    daysHours: "{{d}} d {{h}} h",
  },
  chip: {
    breachedFor: "atrasado há {{time}}",
    breached: "atrasado",
    paused: "pausado",
    met: "no prazo",
  },
  label: {
    ok: "{{target}}: faltam {{time}} (prazo {{due}})",
    warning: "{{target}} perto do prazo: faltam {{time}} (prazo {{due}})",
    breachedFor: "{{target}} atrasada há {{time}} (prazo era {{due}})",
    breached: "{{target}} fora do prazo (prazo era {{due}})",
    paused: "Prazo de resolução pausado: aguardando o cliente desde {{since}}",
    met: "Metas de atendimento cumpridas",
  },
  sort: {
    slaDue: "Mais próximo do prazo primeiro",
  },
  breach: {
    title: "Prazo estourado",
    text: "{{target}} atrasada: {{name}}",
    open: "Abrir",
  },
  dialog: {
    hint: "Metas desta fila, contadas no horário de atendimento (fora dele o relógio não anda). Em branco: sem meta.",
    firstResponse: "Tempo até a primeira resposta",
    firstResponseHelp:
      "Do momento em que o atendimento entra na fila até a primeira resposta de um atendente.",
    resolution: "Tempo até a resolução",
    resolutionHelp: "Do momento em que o atendimento entra na fila até ser resolvido.",
    hours: "Horas",
    minutes: "Minutos",
    warningPercent: "Alerta ao atingir (%)",
    warningHelp: "O atendimento fica em alerta (âmbar) quando essa parte do prazo já passou.",
    pauseOnCustomer: "Pausar enquanto aguarda o cliente",
    pauseHelp: "O prazo de resolução para quando o atendente respondeu e espera a resposta do cliente.",
    total: "Total: {{time}}",
  },
};
export type SlaTexts = typeof pt;

const en: SlaTexts = {
  targets: { firstResponse: "First reply", resolution: "Resolution" },
  duration: {
    lessThanMinute: "< 1 min",
    minutes: "{{m}} min",
    hours: "{{h}} h",
    hoursMinutes: "{{h}} h {{m}} min",
    days: "{{d}} d",
    daysHours: "{{d}} d {{h}} h",
  },
  chip: {
    breachedFor: "late by {{time}}",
    breached: "late",
    paused: "paused",
    met: "on time",
  },
  label: {
    ok: "{{target}}: {{time}} left (due {{due}})",
    warning: "{{target}} close to its target: {{time}} left (due {{due}})",
    breachedFor: "{{target}} late by {{time}} (was due {{due}})",
    breached: "{{target}} missed its target (was due {{due}})",
    paused: "Resolution target paused: waiting on the customer since {{since}}",
    met: "Service targets met",
  },
  sort: {
    slaDue: "Closest to breach first",
  },
  breach: {
    title: "Target missed",
    text: "{{target}} late: {{name}}",
    open: "Open",
  },
  dialog: {
    hint: "This queue's targets, counted in opening hours (the clock stands outside them). Empty: no target.",
    firstResponse: "Time to first reply",
    firstResponseHelp: "From when the ticket enters the queue until an agent's first reply.",
    resolution: "Time to resolution",
    resolutionHelp: "From when the ticket enters the queue until it is resolved.",
    hours: "Hours",
    minutes: "Minutes",
    warningPercent: "Warn at (%)",
    warningHelp: "The ticket turns to warning (amber) once this share of its time has passed.",
    pauseOnCustomer: "Pause while waiting on the customer",
    pauseHelp: "The resolution clock stops while the agent has replied and waits for the customer.",
    total: "Total: {{time}}",
  },
};

const es: SlaTexts = {
  targets: { firstResponse: "Primera respuesta", resolution: "Resolución" },
  duration: {
    lessThanMinute: "< 1 min",
    minutes: "{{m}} min",
    hours: "{{h}} h",
    hoursMinutes: "{{h}} h {{m}} min",
    days: "{{d}} d",
    daysHours: "{{d}} d {{h}} h",
  },
  chip: {
    breachedFor: "atrasado hace {{time}}",
    breached: "atrasado",
    paused: "en pausa",
    met: "en plazo",
  },
  label: {
    ok: "{{target}}: quedan {{time}} (vence {{due}})",
    warning: "{{target}} cerca del plazo: quedan {{time}} (vence {{due}})",
    breachedFor: "{{target}} atrasada hace {{time}} (vencía {{due}})",
    breached: "{{target}} fuera de plazo (vencía {{due}})",
    paused: "Plazo de resolución en pausa: esperando al cliente desde {{since}}",
    met: "Metas de atención cumplidas",
  },
  sort: {
    slaDue: "Más cerca del plazo primero",
  },
  breach: {
    title: "Plazo vencido",
    text: "{{target}} atrasada: {{name}}",
    open: "Abrir",
  },
  dialog: {
    hint: "Metas de esta cola, contadas en el horario de atención (fuera de él el reloj no avanza). En blanco: sin meta.",
    firstResponse: "Tiempo hasta la primera respuesta",
    firstResponseHelp: "Desde que el ticket entra en la cola hasta la primera respuesta de un agente.",
    resolution: "Tiempo hasta la resolución",
    resolutionHelp: "Desde que el ticket entra en la cola hasta que se resuelve.",
    hours: "Horas",
    minutes: "Minutos",
    warningPercent: "Alertar al llegar a (%)",
    warningHelp: "El ticket pasa a alerta (ámbar) cuando ya pasó esa parte del plazo.",
    pauseOnCustomer: "Pausar mientras se espera al cliente",
    pauseHelp: "El plazo de resolución se detiene cuando el agente respondió y espera al cliente.",
    total: "Total: {{time}}",
  },
};

export const slaTexts = { pt, en, es };
