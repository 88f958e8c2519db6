import { z } from "zod";
import { rowId, timestamp } from "./answers.js";
import { calendarDate, checkRange, dashboardRangeSchema, periodDays } from "./dashboard.js";
import { SLA_TARGETS } from "./serviceLevels.js";
import { idList, pageNumber } from "./validation.js";

/**
 * The service-level report (issue 39): GET /reports/service-levels, and its exports
 * /reports/service-levels/csv and /reports/service-levels/xlsx. Admins only (`dashboard:view`),
 * the caller's company's tickets only.
 *
 * Which tickets: those whose service-level clocks started within the period (`slaStartedAt`, the
 * moment the ticket entered its current queue with targets; a transfer restarts them, so a ticket
 * counts once, under the queue and agent it has now). Tickets of a queue without targets are not in it.
 *
 * Per target (first response, resolution), a ticket is
 *   - met: reached by its due time (first response: the first agent reply; resolution: resolved);
 *   - breached: found breached by the server, reached after its due time, or not reached and its due
 *     time passed (a paused resolution clock stands at its pause);
 *   - running: not reached and not yet due.
 * A ticket resolved before its first-response due time without any agent reply is not counted for
 * the first response (nothing to answer). `metPercent` is met / (met + breached), one decimal;
 * median and p90 are of the working seconds (opening hours only) of the tickets that reached the
 * target, met or late.
 */

export const SLA_REPORT_PAGE_SIZE = 20;
export const SLA_REPORT_MAX_PAGE_SIZE = 100;
/** The exports list at most this many breaches. */
export const SLA_REPORT_EXPORT_MAX_BREACHES = 100_000;

const slaReportFilterFields = {
  /** The last N days, today included; wins over the dates. */
  days: periodDays,
  /** YYYY-MM-DD in the company's time zone; read as the dashboard reads its dates. */
  dateFrom: calendarDate,
  dateTo: calendarDate,
  queueIds: idList.optional().default([]),
  /** The agents holding the tickets now. */
  userIds: idList.optional().default([]),
};

/** GET /reports/service-levels: the figures of the period, and a page of its breaches. */
export const slaReportQuerySchema = z
  .object({
    ...slaReportFilterFields,
    pageNumber,
    pageSize: z.coerce
      .number("validation.invalid")
      .int("validation.invalid")
      .min(1, "validation.invalid")
      .max(SLA_REPORT_MAX_PAGE_SIZE, "validation.invalid")
      .optional()
      .default(SLA_REPORT_PAGE_SIZE),
  })
  .superRefine(checkRange("dateFrom", "dateTo"))
  // No `id`: a query schema is spread into parameters by the API document, never a named component.
  .meta({ description: "The service-level report's period, filters and breaches page" });
export type SlaReportQuery = z.infer<typeof slaReportQuerySchema>;

/** GET /reports/service-levels/csv and /xlsx: the same filter, every breach (no paging). */
export const slaReportExportQuerySchema = z
  .object(slaReportFilterFields)
  .superRefine(checkRange("dateFrom", "dateTo"))
  .meta({ description: "The service-level report's period and filters" });
export type SlaReportExportQuery = z.infer<typeof slaReportExportQuerySchema>;

const count = z.number().int().nonnegative();
const secondsOrNull = z.number().nonnegative().nullable();

/** One target's figures over a group of tickets. */
export const slaTargetFiguresSchema = z
  .object({
    /** Tickets with this target in the group: met + breached + running. */
    counted: count,
    met: count,
    breached: count,
    /** Not reached, not yet due. */
    running: count,
    /** met / (met + breached), in %, one decimal; null when none was decided. */
    metPercent: z.number().min(0).max(100).nullable(),
    /** Working seconds to reach the target (met or late); null when none reached it. */
    medianSeconds: secondsOrNull,
    p90Seconds: secondsOrNull,
  })
  .meta({
    id: "SlaTargetFigures",
    description: "One service-level target's figures over a group of tickets",
  });
export type SlaTargetFigures = z.infer<typeof slaTargetFiguresSchema>;

const bothTargets = {
  firstResponse: slaTargetFiguresSchema,
  resolution: slaTargetFiguresSchema,
};

const queueRef = z.object({ id: rowId, name: z.string(), color: z.string() });
const userRef = z.object({ id: rowId, name: z.string() });

export const slaReportQueueRowSchema = z
  .object({
    /** null: tickets whose queue was deleted since. */
    queue: queueRef.nullable(),
    ...bothTargets,
  })
  .meta({ id: "SlaReportQueueRow", description: "A queue's service-level figures" });
export type SlaReportQueueRow = z.infer<typeof slaReportQueueRowSchema>;

export const slaReportUserRowSchema = z
  .object({
    /** null: tickets no agent holds (still pending). */
    user: userRef.nullable(),
    ...bothTargets,
  })
  .meta({ id: "SlaReportUserRow", description: "An agent's service-level figures" });
export type SlaReportUserRow = z.infer<typeof slaReportUserRowSchema>;

/** One missed target of one ticket. */
export const slaBreachRowSchema = z
  .object({
    ticketId: rowId,
    /** What the web opens: /tickets/{uuid}. */
    uuid: z.string(),
    status: z.enum(["pending", "open", "closed"]),
    contact: z.object({ id: rowId, name: z.string() }),
    queue: queueRef.nullable(),
    user: userRef.nullable(),
    target: z.enum(SLA_TARGETS),
    dueAt: timestamp,
    /** When the target was reached (late); null: still not reached. */
    reachedAt: timestamp.nullable(),
  })
  .meta({ id: "SlaBreachRow", description: "A service-level target a ticket missed" });
export type SlaBreachRow = z.infer<typeof slaBreachRowSchema>;

export const slaReportSchema = z
  .object({
    range: dashboardRangeSchema,
    /** Every ticket of the report. */
    total: z.object(bothTargets),
    /** Per queue, by name. */
    queues: z.array(slaReportQueueRowSchema),
    /** Per agent, by name (tickets no agent holds last). */
    users: z.array(slaReportUserRowSchema),
    /** A page of the breaches, latest due time first. */
    breaches: z.array(slaBreachRowSchema),
    /** Every breach of the report. */
    breachCount: count,
    hasMoreBreaches: z.boolean(),
  })
  .meta({
    id: "SlaReport",
    description: "Service levels of a period: per queue, per agent, and the breaches (a page)",
  });
export type SlaReport = z.infer<typeof slaReportSchema>;
