import type { ConnectionCache, ConnectionRow } from "../../../channels/connectionCache.js";
import type { Db } from "../../../db/client.js";
import { type EventBus, inTransaction } from "../../../events/bus.js";
import { type JobHandler, enqueueJob } from "../../../jobs/runner.js";
import { findQueueRow } from "../../queues/queries.js";
import { companySettings } from "../../settings/queries.js";
import { findTicketRow } from "../../tickets/queries.js";
import { AUTO_TRANSFER_JOB, EXPIRE_TICKET_JOB } from "./queries.js";
import * as q from "./queries.js";
import { transferNotice } from "../../tickets/automaticMessages.js";
import { closeTicket } from "../../tickets/closeTicket.js";
import { loadTicket, track } from "../../tickets/queries.js";
import { botSays } from "./botMessages.js";
import { enabled } from "../../settings/present.js";
import { connectionOf } from "./queries.js";

export { AUTO_TRANSFER_JOB, EXPIRE_TICKET_JOB };

type TimerDeps = { db: Db; bus: EventBus; now: () => Date; poke: () => void };

type TimedTicket = {
  id: number;
  companyId: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
};

type TimerSettings = Pick<ConnectionRow, "expiresTicket" | "timeToTransfer" | "transferQueueId">;

/** Which of the connection's timers the ticket calls for as it is now (none for most tickets). */
function timersDue(connection: TimerSettings, t: TimedTicket) {
  return {
    expire: t.status === "open" && connection.expiresTicket > 0,
    transfer:
      t.status === "pending" &&
      t.userId === null &&
      connection.timeToTransfer > 0 &&
      connection.transferQueueId !== null &&
      t.queueId !== connection.transferQueueId,
  };
}

/**
 * Whether it is known at once that the ticket calls for no timer: closed, without a connection, or
 * its connection (cached now) has none for it. False when that takes a read (armTimers decides).
 */
export function noTimersDue(connections: Pick<ConnectionCache, "fresh">, t: TimedTicket): boolean {
  if (t.status === "closed" || t.whatsappId === null) return true;
  const cached = connections.fresh(t.companyId, t.whatsappId);
  if (cached === undefined) return false;
  if (cached === null) return true;
  const due = timersDue(cached, t);
  return !due.expire && !due.transfer;
}

/**
 * Arms the connection's timers for a ticket that changed: auto-close of an open ticket after
 * expiresTicket hours without messages, auto-transfer of a waiting one after timeToTransfer minutes.
 * One pending job per ticket and timer (dedupeKey); the job re-arms itself when activity moved it.
 */
export async function armTimers(
  deps: Pick<TimerDeps, "db" | "now"> & { connections: Pick<ConnectionCache, "get"> },
  t: TimedTicket,
): Promise<boolean> {
  if (t.status === "closed" || t.whatsappId === null) return false;
  // Read on every ticket.saved (each customer message): the cached row.
  const connection = await deps.connections.get(t.companyId, t.whatsappId);
  if (!connection) return false;
  const due = timersDue(connection, t);
  const at = deps.now().getTime();
  let armed = false;
  if (due.expire) {
    armed =
      (await enqueueJob(deps.db, {
        type: EXPIRE_TICKET_JOB,
        companyId: t.companyId,
        payload: { ticketId: t.id },
        runAt: new Date(at + connection.expiresTicket * 3600_000),
        dedupeKey: `expire:${t.id}`,
      })) !== null || armed;
  }
  if (due.transfer) {
    armed =
      (await enqueueJob(deps.db, {
        type: AUTO_TRANSFER_JOB,
        companyId: t.companyId,
        payload: { ticketId: t.id, fromQueueId: t.queueId },
        runAt: new Date(at + connection.timeToTransfer * 60_000),
        dedupeKey: `transfer:${t.id}`,
      })) !== null || armed;
  }
  return armed;
}

/**
 * Arms the timers of tickets that have none (they existed before the timers did, or were written
 * without a ticket.saved): at startup, idempotently. Each timer counts from the ticket's last
 * change; the jobs' unique dedupeKey (`expire:<id>`, `transfer:<id>`) keeps one per ticket however
 * many instances start at once. Answers how many it armed.
 */
export async function armMissingTimers(db: Db): Promise<number> {
  return q.armMissingTimerJobs(db);
}

/** Closes an open ticket whose last message is older than the connection's expiresTicket. */
export function expireTicketJob(deps: TimerDeps): JobHandler<typeof EXPIRE_TICKET_JOB> {
  const { db, bus, now } = deps;
  return {
    async run(job) {
      const { ticketId } = job.payload;
      const ticket = await findTicketRow(db, job.companyId!, ticketId);
      if (!ticket || ticket.status !== "open") return;
      const connection = await connectionOf(db, ticket.companyId, ticket.whatsappId);
      if (!connection || connection.expiresTicket <= 0) return;
      const last = await q.lastMessageAt(db, ticket.companyId, ticket.id);
      const lastAt = Math.max(last?.getTime() ?? 0, ticket.updatedAt.getTime());
      const due = lastAt + connection.expiresTicket * 3600_000;
      const at = now();
      if (at.getTime() < due) {
        // Activity since it was armed: wait for the rest of the period (this job is running, so the key is free).
        await enqueueJob(db, {
          type: EXPIRE_TICKET_JOB,
          companyId: ticket.companyId,
          payload: { ticketId },
          runAt: new Date(due),
          dedupeKey: `expire:${ticketId}`,
        });
        return;
      }
      await inTransaction(db, bus, async (tx, raise) => {
        const t = await q.lockTicket(tx, ticket.companyId, ticketId);
        if (!t || t.status !== "open") return;
        if (connection.expiresInactiveMessage.trim() && !t.isGroup)
          await botSays(tx, raise, t, connection.expiresInactiveMessage);
        await closeTicket(tx, raise, t, at);
      });
      deps.poke();
    },
  };
}

/** Moves a ticket still waiting (no agent) to the connection's transferQueueId. */
export function autoTransferJob(deps: TimerDeps): JobHandler<typeof AUTO_TRANSFER_JOB> {
  const { db, bus, now } = deps;
  return {
    async run(job) {
      const { ticketId } = job.payload;
      const ticket = await findTicketRow(db, job.companyId!, ticketId);
      if (!ticket || ticket.status !== "pending" || ticket.userId !== null) return;
      const connection = await connectionOf(db, ticket.companyId, ticket.whatsappId);
      const target = connection?.transferQueueId ?? null;
      if (!connection || target === null || ticket.queueId === target) return;
      const queue = await findQueueRow(db, ticket.companyId, target);
      if (!queue) return;
      const settings = await companySettings(db, ticket.companyId);
      const at = now();
      await inTransaction(db, bus, async (tx, raise) => {
        const t = await q.lockTicket(tx, ticket.companyId, ticketId);
        if (!t || t.status !== "pending" || t.userId !== null || t.queueId === target) return;
        await q.updateTicketRow(tx, t.companyId, t.id, { queueId: target, updatedAt: at });
        await track(tx, { ...t, queueId: target }, { queueId: target, queuedAt: at }, at);
        if (enabled(settings, "sendMsgTransfTicket") && !t.isGroup)
          await botSays(tx, raise, t, transferNotice(queue.name));
        raise({
          type: "ticket.saved",
          companyId: t.companyId,
          ticket: (await loadTicket(tx, t.companyId, t.id))!,
          previous: { queueId: t.queueId, userId: t.userId },
        });
      });
      deps.poke();
    },
  };
}
