import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { optionalEmpty } from "./validation.js";

/**
 * Service levels (issue 39): per queue, a time to the first agent reply and a time to resolution,
 * counted in working minutes (the queue's opening hours when the company's scheduleType is "queue",
 * else the company's; out-of-hours time does not count). The server sets each ticket's due times
 * when it enters the queue and recomputes them on transfer; the web only reads them.
 */
export const SLA_LIMITS = {
  /** A target, in working minutes: up to 90 days of round-the-clock work. */
  minutes: { min: 1, max: 129_600 },
  warningPercent: { min: 1, max: 99, default: 80 },
} as const;

export const SLA_TARGETS = ["firstResponse", "resolution"] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];

/** A target field of the queue dialog: empty ("", null) is no target. */
const targetMinutes = optionalEmpty(
  z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .min(SLA_LIMITS.minutes.min, "validation.invalid")
    .max(SLA_LIMITS.minutes.max, "validation.invalid"),
  null,
);

/** The queue's targets, as POST /queue and PUT /queue/{id} take them (fields left out keep their values). */
export const queueSlaSaveFields = {
  slaFirstResponseMinutes: targetMinutes.optional(),
  slaResolutionMinutes: targetMinutes.optional(),
  slaWarningPercent: z.coerce
    .number("validation.invalid")
    .int("validation.invalid")
    .min(SLA_LIMITS.warningPercent.min, "validation.invalid")
    .max(SLA_LIMITS.warningPercent.max, "validation.invalid")
    .optional(),
  slaPauseOnCustomer: z.boolean("validation.invalid").optional(),
};

/** The queue's targets, as the queue's page, dialog and event carry them. */
export const queueSlaFields = {
  /** Working minutes to the first agent reply; null: no target. */
  slaFirstResponseMinutes: z.number().int().positive().nullable(),
  /** Working minutes to resolution; null: no target. */
  slaResolutionMinutes: z.number().int().positive().nullable(),
  /** The chip turns "warning" once this share (%) of a target's time has passed. */
  slaWarningPercent: z.number().int().min(1).max(99),
  /** The resolution clock stops while the conversation waits on the customer. */
  slaPauseOnCustomer: z.boolean(),
};

/**
 * A ticket's clocks under its current queue; null on a ticket whose queue has no target. `dueAt` and
 * `warnAt` belong to the clock running now (`running`): the first response until an agent answered,
 * then resolution; `running` is null when none runs (both met or breached-and-past, paused, closed).
 */
export const ticketSlaSchema = z
  .object({
    running: z.enum(SLA_TARGETS).nullable(),
    dueAt: timestamp.nullable(),
    warnAt: timestamp.nullable(),
    /** Since when the resolution clock stands (waiting on the customer); null when it runs. */
    pausedAt: timestamp.nullable(),
    startedAt: timestamp,
    firstResponseDueAt: timestamp.nullable(),
    firstResponseAt: timestamp.nullable(),
    firstResponseBreachedAt: timestamp.nullable(),
    resolutionDueAt: timestamp.nullable(),
    resolvedAt: timestamp.nullable(),
    resolutionBreachedAt: timestamp.nullable(),
  })
  .meta({ id: "TicketSla", description: "A ticket's service-level clocks under its current queue" });
export type TicketSlaDTO = z.infer<typeof ticketSlaSchema>;

export type SlaState = "ok" | "warning" | "breached" | "paused" | "met";

/**
 * What the chip shows at `now`: breached once any target was missed (a missed first response stays
 * breached after the reply), paused while the clock stands, warning past `warnAt`, met when every
 * target was reached in time; null without targets.
 */
export function slaStateAt(sla: TicketSlaDTO | null | undefined, now: Date): SlaState | null {
  if (!sla) return null;
  const t = now.getTime();
  const passed = (iso: string | null) => iso !== null && Date.parse(iso) <= t;
  if (sla.firstResponseBreachedAt || sla.resolutionBreachedAt) return "breached";
  if (sla.running && passed(sla.dueAt)) return "breached";
  if (sla.firstResponseAt && sla.firstResponseDueAt && sla.firstResponseAt > sla.firstResponseDueAt)
    return "breached";
  if (sla.pausedAt) return "paused";
  if (sla.running && passed(sla.warnAt)) return "warning";
  if (sla.running) return "ok";
  return "met";
}

/** `company-{id}-ticketSla`: a target was missed (sent once per ticket and target), to the queue's agents and the admins. */
export const slaBreachEventSchema = z.object({
  action: z.literal("breach"),
  ticketId: rowId,
  /** The ticket's address in the app (/tickets/{uuid}), so the notice opens it without a lookup. */
  ticketUuid: z.uuid(),
  queueId: rowId.nullable(),
  target: z.enum(SLA_TARGETS),
  dueAt: timestamp,
  /** The contact's name, for the notification's text. */
  contactName: z.string(),
});
export type SlaBreachEvent = z.infer<typeof slaBreachEventSchema>;
