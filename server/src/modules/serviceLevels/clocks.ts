import type { SlaTarget, TicketDTO } from "@atende/contracts";
import type { Executor } from "../../db/client.js";
import { enqueueJob } from "../../jobs/runner.js";
import { presentSla } from "../tickets/present.js";
import { findTicketRow } from "../tickets/queries.js";
import * as q from "./queries.js";
import { addWorkingMinutes, addWorkingMs, workingMsBetween, workingSecondsBetween } from "./workingTime.js";

/**
 * A ticket's service-level clocks (issue 39), each change in the caller's transaction:
 * - `startClocks`: the ticket entered a queue (opened in it, the bot's choice, a transfer) or was
 *   reopened: fresh clocks from that instant under the queue's targets, or none when it has none.
 *   Every due time arms a breach job (jobs.ts) for that very instant; a due time moved later (a
 *   transfer, a resume) leaves the old job finding nothing to do.
 * - `agentReplied`: the first agent message since the start meets the first response and the
 *   running clock becomes the resolution's; with the queue's pause on customer, each agent reply
 *   stops the resolution clock until the customer writes (`customerWrote`), which moves the
 *   resolution due time by the working time that passed while it stood.
 * - `resolved`: closing ends the clocks with the resolution's working time (pauses left out).
 */

export const SLA_BREACH_JOB = "sla-breach";

type Row = q.TicketRecord;

async function armBreach(tx: Executor, companyId: number, ticketId: number, target: SlaTarget, dueAt: Date) {
  const due = dueAt.toISOString();
  await enqueueJob(tx, {
    type: SLA_BREACH_JOB,
    companyId,
    payload: { ticketId, target, dueAt: due },
    runAt: dueAt,
    dedupeKey: `sla:${ticketId}:${target}:${due}`,
  });
}

/**
 * Fresh clocks for the ticket in `queueId` from `at`; clears them when the queue has no target.
 * `hadClocks` false spares the write for a ticket that had none and gets none. Answers the ticket
 * as written, or null when nothing was written.
 */
export async function startClocks(
  tx: Executor,
  companyId: number,
  ticketId: number,
  queueId: number | null,
  hadClocks: boolean,
  at: Date,
): Promise<Row | null> {
  const targets = queueId === null ? null : await q.queueTargets(tx, companyId, queueId);
  const first = targets?.firstResponseMinutes ?? null;
  const resolution = targets?.resolutionMinutes ?? null;
  if (!targets || (first === null && resolution === null))
    return hadClocks ? q.setClocks(tx, companyId, ticketId, q.NO_CLOCKS) : null;
  const cal = targets.calendar;
  const firstDue = first !== null ? addWorkingMinutes(at, first, cal) : null;
  const resolutionDue = resolution !== null ? addWorkingMinutes(at, resolution, cal) : null;
  const runningMinutes = (first ?? resolution)!;
  const row = await q.setClocks(tx, companyId, ticketId, {
    ...q.NO_CLOCKS,
    slaStartedAt: at,
    slaFirstResponseDueAt: firstDue,
    slaResolutionDueAt: resolutionDue,
    slaDueAt: firstDue ?? resolutionDue,
    slaWarnAt: addWorkingMs(at, (runningMinutes * 60_000 * targets.warningPercent) / 100, cal),
  });
  if (firstDue) await armBreach(tx, companyId, ticketId, "firstResponse", firstDue);
  if (resolutionDue) await armBreach(tx, companyId, ticketId, "resolution", resolutionDue);
  return row;
}

/**
 * An agent's message (not the bot's) on the ticket at `at`: the first one meets the first response;
 * with the queue's pause on customer, the resolution clock then stands. Nothing for a ticket
 * without clocks (no statement).
 */
export async function agentReplied(tx: Executor, ticket: Row, at: Date): Promise<Row | null> {
  if (!ticket.slaStartedAt || ticket.status === "closed" || ticket.queueId === null) return null;
  const firstReply = ticket.slaFirstResponseAt === null;
  const mayPause =
    ticket.slaResolutionDueAt !== null && ticket.slaResolvedAt === null && ticket.slaPausedAt === null;
  if (!firstReply && !mayPause) return null;
  const targets = await q.queueTargets(tx, ticket.companyId, ticket.queueId);
  const cal = targets?.calendar ?? null;
  const patch: q.SlaPatch = {};
  if (firstReply) {
    patch.slaFirstResponseAt = at;
    patch.slaFirstResponseSeconds = workingSecondsBetween(ticket.slaStartedAt, at, cal);
    // The resolution's clock runs on, as it did since the start.
    patch.slaDueAt = ticket.slaResolutionDueAt;
    patch.slaWarnAt =
      ticket.slaResolutionDueAt && targets?.resolutionMinutes
        ? addWorkingMs(
            ticket.slaStartedAt,
            (targets.resolutionMinutes * 60_000 * targets.warningPercent) / 100,
            cal,
          )
        : ticket.slaResolutionDueAt;
  }
  if (mayPause && targets?.pauseOnCustomer) {
    // slaWarnAt is kept while paused (the payload hides it): the resume moves it with the due time.
    patch.slaPausedAt = at;
    patch.slaDueAt = null;
  }
  if (Object.keys(patch).length === 0) return null;
  return q.setClocks(tx, ticket.companyId, ticket.id, patch);
}

/**
 * The customer wrote on a ticket whose resolution clock stands: it runs again, its due time (and
 * warning) moved by the working time that passed while it stood. Answers the ticket as it stands.
 */
export async function customerWrote(
  tx: Executor,
  companyId: number,
  ticketId: number,
  at: Date,
): Promise<Row | null> {
  const ticket = await findTicketRow(tx, companyId, ticketId);
  if (!ticket?.slaPausedAt || !ticket.slaResolutionDueAt || ticket.status === "closed") return ticket;
  const targets = ticket.queueId === null ? null : await q.queueTargets(tx, companyId, ticket.queueId);
  const cal = targets?.calendar ?? null;
  const stood = workingMsBetween(ticket.slaPausedAt, at, cal);
  const due = addWorkingMs(ticket.slaResolutionDueAt, stood, cal);
  const warn =
    ticket.slaWarnAt && ticket.slaWarnAt > ticket.slaPausedAt
      ? addWorkingMs(ticket.slaWarnAt, stood, cal)
      : ticket.slaWarnAt;
  const row = await q.setClocks(tx, companyId, ticketId, {
    slaPausedAt: null,
    slaResolutionDueAt: due,
    slaDueAt: due,
    slaWarnAt: warn,
  });
  if (due.getTime() !== ticket.slaResolutionDueAt.getTime())
    await armBreach(tx, companyId, ticketId, "resolution", due);
  return row;
}

/**
 * The ticket was closed at `at`: the clocks stop, with the resolution's working seconds since the
 * start, the time the clock stood waiting on the customer left out.
 */
export async function resolved(tx: Executor, companyId: number, ticketId: number, at: Date) {
  const ticket = await findTicketRow(tx, companyId, ticketId);
  if (!ticket?.slaStartedAt || ticket.slaResolvedAt) return ticket;
  const targets = ticket.queueId === null ? null : await q.queueTargets(tx, companyId, ticket.queueId);
  const cal = targets?.calendar ?? null;
  // What the pauses added to the resolution due time, and the pause still going on.
  let stood = 0;
  if (ticket.slaResolutionDueAt && targets?.resolutionMinutes)
    stood = Math.max(
      0,
      workingMsBetween(ticket.slaStartedAt, ticket.slaResolutionDueAt, cal) -
        targets.resolutionMinutes * 60_000,
    );
  if (ticket.slaPausedAt) stood += workingMsBetween(ticket.slaPausedAt, at, cal);
  const worked = workingMsBetween(ticket.slaStartedAt, at, cal) - stood;
  return q.setClocks(tx, companyId, ticketId, {
    slaResolvedAt: at,
    slaResolutionSeconds: Math.max(0, Math.floor(worked / 1000)),
    slaPausedAt: null,
    slaDueAt: null,
    slaWarnAt: null,
  });
}

/** The event's ticket shows the clocks just written (every follower after this one, and the sockets). */
export function showClocks(ticket: TicketDTO, row: Row | null) {
  if (row) ticket.sla = presentSla(row);
}
