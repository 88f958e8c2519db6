import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { SlaTarget } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { queues, tickets } from "../../db/schema/index.js";
import { companyHours, companySetting, companyTimeZone } from "../settings/queries.js";
import { calendarOf, type WorkingCalendar } from "./workingTime.js";

// Service levels' statements (issue 39): a queue's targets and hours, a ticket's clocks, a breach.

export type TicketRecord = typeof tickets.$inferSelect;
export type SlaPatch = Partial<
  Pick<
    typeof tickets.$inferInsert,
    | "slaStartedAt"
    | "slaFirstResponseDueAt"
    | "slaFirstResponseAt"
    | "slaFirstResponseSeconds"
    | "slaResolutionDueAt"
    | "slaResolvedAt"
    | "slaResolutionSeconds"
    | "slaPausedAt"
    | "slaDueAt"
    | "slaWarnAt"
    | "slaFirstResponseBreachedAt"
    | "slaResolutionBreachedAt"
  >
>;

/** Every clock of a ticket cleared (its queue has no target, or it left every queue). */
export const NO_CLOCKS: Required<SlaPatch> = {
  slaStartedAt: null,
  slaFirstResponseDueAt: null,
  slaFirstResponseAt: null,
  slaFirstResponseSeconds: null,
  slaResolutionDueAt: null,
  slaResolvedAt: null,
  slaResolutionSeconds: null,
  slaPausedAt: null,
  slaDueAt: null,
  slaWarnAt: null,
  slaFirstResponseBreachedAt: null,
  slaResolutionBreachedAt: null,
};

export interface QueueTargets {
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
  warningPercent: number;
  pauseOnCustomer: boolean;
  calendar: WorkingCalendar;
}

/**
 * A queue's targets and the hours they count in (the queue's, the company's or round the clock, by
 * the company's scheduleType); null for a queue not of the company.
 */
export async function queueTargets(
  db: Executor,
  companyId: number,
  queueId: number,
): Promise<QueueTargets | null> {
  const [row] = await db
    .select({
      firstResponseMinutes: queues.slaFirstResponseMinutes,
      resolutionMinutes: queues.slaResolutionMinutes,
      warningPercent: queues.slaWarningPercent,
      pauseOnCustomer: queues.slaPauseOnCustomer,
      schedules: queues.schedules,
    })
    .from(queues)
    .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)));
  if (!row) return null;
  const { schedules, ...targets } = row;
  // The hours are read only for a queue with a target: most queues have none.
  if (targets.firstResponseMinutes === null && targets.resolutionMinutes === null)
    return { ...targets, calendar: null };
  const scheduleType = await companySetting(db, companyId, "scheduleType");
  const company = scheduleType === "company" ? await companyHours(db, companyId) : undefined;
  const calendar =
    scheduleType === "queue" || scheduleType === "company"
      ? calendarOf(scheduleType, { queue: schedules, company }, await companyTimeZone(db, companyId))
      : null;
  return { ...targets, calendar };
}

/** Writes a ticket's clocks; answers the ticket as it stands after, or null when it is gone. */
export async function setClocks(
  tx: Executor,
  companyId: number,
  ticketId: number,
  patch: SlaPatch,
): Promise<TicketRecord | null> {
  const [row] = await tx
    .update(tickets)
    .set(patch)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
    .returning();
  return row ?? null;
}

/**
 * Marks `target` breached if it still is due at `dueAt`, unmet, not paused, not already marked,
 * on a live ticket: one statement, so two runs (two instances, a job armed twice) mark it once.
 * Answers the ticket when this call marked it; null otherwise (met, moved, marked, closed).
 */
export async function markBreached(
  tx: Executor,
  companyId: number,
  ticketId: number,
  target: SlaTarget,
  dueAt: Date,
  at: Date,
): Promise<TicketRecord | null> {
  const where =
    target === "firstResponse"
      ? and(
          eq(tickets.slaFirstResponseDueAt, dueAt),
          isNull(tickets.slaFirstResponseAt),
          isNull(tickets.slaFirstResponseBreachedAt),
        )
      : and(
          eq(tickets.slaResolutionDueAt, dueAt),
          isNull(tickets.slaResolvedAt),
          isNull(tickets.slaPausedAt),
          isNull(tickets.slaResolutionBreachedAt),
        );
  const [row] = await tx
    .update(tickets)
    .set(target === "firstResponse" ? { slaFirstResponseBreachedAt: at } : { slaResolutionBreachedAt: at })
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.id, ticketId),
        ne(tickets.status, "closed"),
        sql`${tickets.slaStartedAt} is not null`,
        where,
      ),
    )
    .returning();
  return row ?? null;
}
